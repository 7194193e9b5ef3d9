/**
 * PersistentVolumeClaimResize: a claim may grow (a larger `spec.resources.requests.storage` on
 * update) only when it is Bound and its StorageClass, the same before and after, says
 * `allowVolumeExpansion: true`. Shrinking and other changes are left to validation. Validating
 * only, on update of the main resource.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import type { Lister } from '../../../machinery/lister.js';
import { compareQuantities, parseQuantity, QuantityError, type Quantity } from '../../../machinery/quantity.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionPlugin } from '../../types.js';

/** What the plugin reads of a StorageClass. */
export interface ExpandableClassInfo {
  allowVolumeExpansion?: boolean;
}

export interface ClaimSizeInfo {
  metadata: { annotations?: Record<string, string> };
  spec?: { storageClassName?: string | null; resources?: { requests?: Record<string, string> } };
  status?: { phase?: string };
}

function storageOf(c: ClaimSizeInfo): Quantity | undefined {
  const text = c.spec?.resources?.requests?.storage;
  if (text === undefined) return undefined;
  try {
    return parseQuantity(text);
  } catch (e) {
    // Validation refuses a malformed quantity with a better message.
    if (e instanceof QuantityError) return undefined;
    throw e;
  }
}

/** Whether `next` asks for more storage than `old`. Pure. */
export function grows(next: ClaimSizeInfo, old: ClaimSizeInfo): boolean {
  const n = storageOf(next);
  if (!n) return false;
  const o = storageOf(old) ?? { mantissa: 0n, exponent: 0, format: 'DecimalSI' as const };
  return compareQuantities(n, o) > 0;
}

export function persistentVolumeClaimResize(names: ApiNames, classes: Lister<ExpandableClassInfo>): AdmissionPlugin {
  const legacyClaimAnnotation = names.labelSubKey('volume.beta', 'storage-class');
  const classOf = (c: ClaimSizeInfo): string => c.metadata.annotations?.[legacyClaimAnnotation] ?? c.spec?.storageClassName ?? '';
  return {
    name: 'PersistentVolumeClaimResize',
    async validate(a) {
      if (a.operation !== 'UPDATE' || a.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource || !a.object || !a.oldObject) return;
      const next = a.object as unknown as ClaimSizeInfo;
      const old = a.oldObject as unknown as ClaimSizeInfo;
      if (!grows(next, old)) return;
      if (old.status?.phase !== 'Bound') throw admissionForbidden(a, 'Only bound persistent volume claims can be expanded');
      const name = classOf(next);
      let allowed = false;
      if (name && name === classOf(old)) {
        let sc = classes.get('', name);
        if (!sc) {
          await classes.synced(a.signal);
          sc = classes.get('', name);
        }
        allowed = sc?.allowVolumeExpansion === true;
      }
      if (!allowed) throw admissionForbidden(a, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    },
  };
}
