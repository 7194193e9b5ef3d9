/**
 * DefaultStorageClass: a new PersistentVolumeClaim that asks for no class (no
 * `spec.storageClassName`, not even "", and no legacy `volume.beta.<label domain>/storage-class`
 * annotation) gets the default StorageClass, the one annotated
 * `storageclass.<label domain>/is-default-class: "true"` (or the beta annotation). With none,
 * nothing changes; with several, Kubernetes 1.25 refuses the claim, and so does this plugin.
 * Mutating only, on create of the main resource.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import type { Lister } from '../../../machinery/lister.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionPlugin } from '../../types.js';

/** What the plugin reads of a StorageClass. */
export interface StorageClassInfo {
  metadata: { name?: string; annotations?: Record<string, string> };
}

interface ClaimInfo {
  metadata: { annotations?: Record<string, string> };
  spec?: { storageClassName?: string | null; [field: string]: unknown };
}

export function defaultClassAnnotations(names: ApiNames): string[] {
  return [names.labelSubKey('storageclass', 'is-default-class'), names.labelSubKey('storageclass.beta', 'is-default-class')];
}

/** The classes marked default, by either annotation. Pure. */
export function defaultStorageClasses(classes: readonly StorageClassInfo[], annotations: readonly string[]): StorageClassInfo[] {
  return classes.filter((c) => annotations.some((k) => c.metadata.annotations?.[k] === 'true'));
}

export function defaultStorageClass(names: ApiNames, classes: Lister<StorageClassInfo>): AdmissionPlugin {
  const defaultAnnotations = defaultClassAnnotations(names);
  const legacyClaimAnnotation = names.labelSubKey('volume.beta', 'storage-class');
  return {
    name: 'DefaultStorageClass',
    async admit(a) {
      if (a.operation !== 'CREATE' || a.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource || !a.object) return;
      const claim = a.object as unknown as ClaimInfo;
      if (claim.spec?.storageClassName !== undefined && claim.spec.storageClassName !== null) return;
      if (claim.metadata.annotations && Object.hasOwn(claim.metadata.annotations, legacyClaimAnnotation)) return;
      // A class marked default an instant before must count.
      await classes.synced(a.signal);
      const defaults = defaultStorageClasses(classes.list(), defaultAnnotations);
      if (defaults.length > 1) throw admissionForbidden(a, `Internal error occurred: ${defaults.length} default StorageClasses were found`);
      const chosen = defaults[0]?.metadata.name;
      if (!chosen) return;
      claim.spec = { ...(claim.spec ?? {}), storageClassName: chosen };
    },
  };
}
