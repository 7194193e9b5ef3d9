/** Table columns of the storage.<domain> kinds, as kubectl 1.25 prints them. */
import type { ApiNames } from '../../../machinery/api-names.js';
import { age, ageColumn, column, defineTable, nameColumn } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/index.js';

type StorageClassRow = KubeObject & { provisioner?: string; reclaimPolicy?: string; volumeBindingMode?: string; allowVolumeExpansion?: boolean };

/** `kubectl get storageclasses`: the default class is named `<name> (default)`. */
export function storageClassTable(names: ApiNames) {
  const isDefault = (sc: StorageClassRow): boolean => {
    const a = sc.metadata.annotations ?? {};
    return a[names.labelSubKey('storageclass', 'is-default-class')] === 'true' || a[names.labelSubKey('storageclass.beta', 'is-default-class')] === 'true';
  };
  return defineTable<StorageClassRow>({
    columns: [
      nameColumn,
      column('Provisioner', 'The volume plugin that provisions volumes of this class.'),
      column('ReclaimPolicy', 'What happens to a released volume.'),
      column('VolumeBindingMode', 'When volumes are provisioned and bound.'),
      column('AllowVolumeExpansion', 'Whether claims of this class may grow.'),
      ageColumn,
    ],
    cells: (sc, ctx) => [
      `${sc.metadata.name ?? ''}${isDefault(sc) ? ' (default)' : ''}`,
      sc.provisioner ?? '',
      sc.reclaimPolicy ?? 'Delete',
      sc.volumeBindingMode ?? 'Immediate',
      sc.allowVolumeExpansion ?? false,
      age(sc, ctx),
    ],
  });
}

type CSIDriverRow = KubeObject & {
  spec?: {
    attachRequired?: boolean;
    podInfoOnMount?: boolean;
    storageCapacity?: boolean;
    tokenRequests?: { audience?: string }[];
    requiresRepublish?: boolean;
    volumeLifecycleModes?: string[];
  };
};

export const csiDriverTable = defineTable<CSIDriverRow>({
  columns: [
    nameColumn,
    column('AttachRequired', 'Whether the driver needs volumes attached before they are mounted.', { type: 'boolean' }),
    column('PodInfoOnMount', 'Whether the driver is told about the pod when a volume is mounted.', { type: 'boolean' }),
    column('StorageCapacity', 'Whether the driver publishes storage capacity.', { type: 'boolean' }),
    column('TokenRequests', 'The audiences of the service account tokens the driver receives.'),
    column('RequiresRepublish', 'Whether volumes are published again periodically.', { type: 'boolean' }),
    column('Modes', 'The volume lifecycle modes the driver supports.'),
    ageColumn,
  ],
  cells: (d, ctx) => {
    const s = d.spec ?? {};
    const audiences = (s.tokenRequests ?? []).map((r) => r.audience ?? '');
    const modes = (s.volumeLifecycleModes ?? []).join(',');
    return [
      d.metadata.name ?? '',
      s.attachRequired ?? true,
      s.podInfoOnMount ?? false,
      s.storageCapacity ?? false,
      audiences.length ? audiences.join(',') : '<unset>',
      s.requiresRepublish ?? false,
      modes || '<none>',
      age(d, ctx),
    ];
  },
});

type CSINodeRow = KubeObject & { spec?: { drivers?: unknown[] | null } };

export const csiNodeTable = defineTable<CSINodeRow>({
  columns: [nameColumn, column('Drivers', 'The number of CSI drivers registered on the node.', { type: 'integer' }), ageColumn],
  cells: (n, ctx) => [n.metadata.name ?? '', n.spec?.drivers?.length ?? 0, age(n, ctx)],
});

type VolumeAttachmentRow = KubeObject & { spec?: { attacher?: string; nodeName?: string; source?: { persistentVolumeName?: string } }; status?: { attached?: boolean } };

export const volumeAttachmentTable = defineTable<VolumeAttachmentRow>({
  columns: [
    nameColumn,
    column('Attacher', 'The driver that attaches the volume.'),
    column('PV', 'The persistent volume attached.'),
    column('Node', 'The node the volume is attached to.'),
    column('Attached', 'Whether the attach operation succeeded.', { type: 'boolean' }),
    ageColumn,
  ],
  cells: (va, ctx) => [
    va.metadata.name ?? '',
    va.spec?.attacher ?? '',
    va.spec?.source?.persistentVolumeName ?? '',
    va.spec?.nodeName ?? '',
    va.status?.attached ?? false,
    age(va, ctx),
  ],
});

type CSIStorageCapacityRow = KubeObject & { storageClassName?: string; capacity?: string };

export const csiStorageCapacityTable = defineTable<CSIStorageCapacityRow>({
  columns: [nameColumn, column('StorageClassName', 'The storage class the capacity is for.'), column('Capacity', 'The capacity available.')],
  cells: (c) => [c.metadata.name ?? '', c.storageClassName ?? '', c.capacity ?? '<unset>'],
});
