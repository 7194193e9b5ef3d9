/**
 * Table columns of the small core/v1 kinds (Namespace, ConfigMap, Secret, ServiceAccount, PV,
 * PVC), as kubectl shows them; Pod, Service, Node and Event have their own files.
 */
import { accessModesText, age, ageColumn, column, defineTable, nameColumn, type TableContext } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/index.js';

type Shape<T> = KubeObject & T;

export const namespaceTable = defineTable<Shape<{ status?: { phase?: string } }>>({
  columns: [nameColumn, column('Status', 'The status of the namespace'), ageColumn],
  cells: (ns, ctx) => [ns.metadata.name ?? '', ns.status?.phase ?? '', age(ns, ctx)],
});

export const configMapTable = defineTable<Shape<{ data?: Record<string, string>; binaryData?: Record<string, string> }>>({
  columns: [nameColumn, column('Data', 'How many keys the data and binaryData hold'), ageColumn],
  cells: (cm, ctx) => [cm.metadata.name ?? '', Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length, age(cm, ctx)],
});

export const secretTable = defineTable<Shape<{ type?: string; data?: Record<string, string> }>>({
  columns: [nameColumn, column('Type', 'The type of the secret'), column('Data', 'How many keys the data holds'), ageColumn],
  cells: (s, ctx) => [s.metadata.name ?? '', s.type ?? '', Object.keys(s.data ?? {}).length, age(s, ctx)],
});

export const serviceAccountTable = defineTable<Shape<{ secrets?: unknown[] }>>({
  columns: [nameColumn, column('Secrets', 'How many secrets the service account lists'), ageColumn],
  cells: (sa, ctx) => [sa.metadata.name ?? '', (sa.secrets ?? []).length, age(sa, ctx)],
});

/** The class of a volume or claim: the beta annotation when present, as Kubernetes reads it first. */
function storageClassOf(obj: KubeObject, specClass: string | undefined, ctx: TableContext): string {
  const annotation = obj.metadata.annotations?.[ctx.names.labelSubKey('volume.beta', 'storage-class')];
  return annotation ?? specClass ?? '';
}

/** A quantity's text, `0` when absent (Go prints a zero Quantity so). */
function quantityText(q: string | undefined): string {
  return q ?? '0';
}

type PersistentVolumeShape = Shape<{
  spec?: {
    capacity?: Record<string, string>;
    accessModes?: string[];
    persistentVolumeReclaimPolicy?: string;
    claimRef?: { namespace?: string; name?: string };
    storageClassName?: string;
    volumeMode?: string;
  };
  status?: { phase?: string; reason?: string };
}>;

export const persistentVolumeTable = defineTable<PersistentVolumeShape>({
  columns: [
    nameColumn,
    column('Capacity', 'The capacity of the volume'),
    column('Access Modes', 'The ways the volume can be mounted'),
    column('Reclaim Policy', 'What happens to the volume when its claim is released'),
    column('Status', 'The phase of the volume'),
    column('Claim', 'The claim bound to the volume, as namespace/name'),
    column('StorageClass', 'StorageClass of the pv'),
    column('Reason', 'Why the volume is in its phase'),
    ageColumn,
    column('VolumeMode', 'Whether the volume is a filesystem or a raw block device', { priority: 1 }),
  ],
  cells: (pv, ctx) => {
    const spec = pv.spec ?? {};
    const claim = spec.claimRef ? `${spec.claimRef.namespace ?? ''}/${spec.claimRef.name ?? ''}` : '';
    const phase = pv.metadata.deletionTimestamp ? 'Terminating' : pv.status?.phase ?? '';
    return [
      pv.metadata.name ?? '',
      quantityText(spec.capacity?.storage),
      accessModesText(spec.accessModes),
      spec.persistentVolumeReclaimPolicy ?? '',
      phase,
      claim,
      storageClassOf(pv, spec.storageClassName, ctx),
      pv.status?.reason ?? '',
      age(pv, ctx),
      spec.volumeMode ?? '<unset>',
    ];
  },
});

type PersistentVolumeClaimShape = Shape<{
  spec?: { volumeName?: string; storageClassName?: string; volumeMode?: string };
  status?: { phase?: string; capacity?: Record<string, string>; accessModes?: string[] };
}>;

export const persistentVolumeClaimTable = defineTable<PersistentVolumeClaimShape>({
  columns: [
    nameColumn,
    column('Status', 'The phase of the claim'),
    column('Volume', 'The volume bound to the claim'),
    column('Capacity', 'The capacity of the bound volume'),
    column('Access Modes', 'The access modes of the bound volume'),
    column('StorageClass', 'StorageClass of the pvc'),
    ageColumn,
    column('VolumeMode', 'Whether the claim asks for a filesystem or a raw block device', { priority: 1 }),
  ],
  cells: (pvc, ctx) => {
    const spec = pvc.spec ?? {};
    const bound = Boolean(spec.volumeName);
    return [
      pvc.metadata.name ?? '',
      pvc.metadata.deletionTimestamp ? 'Terminating' : pvc.status?.phase ?? '',
      spec.volumeName ?? '',
      bound ? quantityText(pvc.status?.capacity?.storage) : '',
      bound ? accessModesText(pvc.status?.accessModes) : '',
      storageClassOf(pvc, spec.storageClassName, ctx),
      age(pvc, ctx),
      spec.volumeMode ?? '<unset>',
    ];
  },
});
