/**
 * PersistentVolumeClaimSpec: what a claim asks for. One type for the PersistentVolumeClaim kind and
 * the claim templates of a pod's ephemeral volumes; its rules are in validation/claim-spec.ts.
 */
import { LabelSelector, t, type Infer } from '../../../../schema/index.js';
import { TypedLocalObjectReference } from './references.js';
import { ResourceRequirements } from './resources.js';

/** The access modes validation accepts; ReadWriteOncePod is behind a feature gate off in 1.25. */
export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce'] as const;
export const VOLUME_MODES = ['Block', 'Filesystem'] as const;

/** Access modes as the schema lists them (volumes, claims and their status). */
export const AccessModeList = t.list(t.string({ enum: [...ACCESS_MODES, 'ReadWriteOncePod'] }));

export const PersistentVolumeClaimSpec = t.struct('core.v1.PersistentVolumeClaimSpec', {
  accessModes: t.field(1, AccessModeList, { description: 'The access modes the volume must offer; at least one.' }),
  selector: t.field(4, LabelSelector, { pointer: true, description: 'Labels a volume must have to be bound to this claim.' }),
  resources: t.field(2, ResourceRequirements, { description: 'The storage the claim needs: requests.storage is required; it may grow on a bound claim.' }),
  volumeName: t.field(3, t.string(), { description: 'The volume bound to the claim; set by the binder, once.' }),
  storageClassName: t.field(5, t.string(), { pointer: true, description: 'The StorageClass to provision from; "" asks for a volume without class.' }),
  volumeMode: t.field(6, t.string({ enum: VOLUME_MODES }), { pointer: true, description: 'Filesystem (the default) or Block.' }),
  dataSource: t.field(7, TypedLocalObjectReference, { pointer: true, description: 'A claim or volume snapshot to fill the new volume from.' }),
  dataSourceRef: t.field(8, TypedLocalObjectReference, { pointer: true, description: 'Any object to fill the new volume from; mirrors dataSource when both are usable.' }),
}, { description: 'The storage a claim asks for.' });
export type PersistentVolumeClaimSpec = Infer<typeof PersistentVolumeClaimSpec>;
