/**
 * PersistentVolumeClaimSpec: what a claim asks for. Here because a pod's ephemeral volumes embed a
 * claim template; the PersistentVolumeClaim kind uses the same type.
 */
import { LabelSelector, t, type Infer } from '../../../../schema/index.js';
import { TypedLocalObjectReference } from './references.js';
import { ResourceRequirements } from './resources.js';

export const PersistentVolumeClaimSpec = t.struct('core.v1.PersistentVolumeClaimSpec', {
  accessModes: t.field(1, t.list(t.string())),
  selector: t.field(4, LabelSelector, { pointer: true }),
  resources: t.field(2, ResourceRequirements),
  volumeName: t.field(3, t.string()),
  storageClassName: t.field(5, t.string(), { pointer: true }),
  volumeMode: t.field(6, t.string(), { pointer: true }),
  dataSource: t.field(7, TypedLocalObjectReference, { pointer: true }),
  dataSourceRef: t.field(8, TypedLocalObjectReference, { pointer: true }),
});
export type PersistentVolumeClaimSpec = Infer<typeof PersistentVolumeClaimSpec>;

