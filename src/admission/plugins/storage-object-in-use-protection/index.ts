/**
 * StorageObjectInUseProtection: a new PersistentVolumeClaim gets the finalizer
 * `<label domain>/pvc-protection` and a new PersistentVolume `<label domain>/pv-protection`, so
 * deleting one that a pod (or a claim) still uses waits until the protection controllers remove
 * them. Mutating only, on create of the main resource.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import type { KubeObject } from '../../../schema/index.js';
import type { AdmissionPlugin } from '../../types.js';

/** Adds `finalizer` unless it is there. Mutates `obj`. */
export function addFinalizerOnce(obj: KubeObject, finalizer: string): void {
  const finalizers = obj.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) obj.metadata.finalizers = [...finalizers, finalizer];
}

export function protectionFinalizers(names: ApiNames): { pvc: string; pv: string } {
  return { pvc: names.labelKey('pvc-protection'), pv: names.labelKey('pv-protection') };
}

export function storageObjectInUseProtection(names: ApiNames): AdmissionPlugin {
  const finalizers = protectionFinalizers(names);
  return {
    name: 'StorageObjectInUseProtection',
    admit(a) {
      if (a.operation !== 'CREATE' || a.group !== '' || a.subresource || !a.object) return;
      if (a.resource === 'persistentvolumeclaims') addFinalizerOnce(a.object, finalizers.pvc);
      else if (a.resource === 'persistentvolumes') addFinalizerOnce(a.object, finalizers.pv);
    },
  };
}
