/**
 * SecurityContextDeny (off by default): refuses pods that set the security-context fields that
 * raise privileges, for clusters with no other enforcement. Validating only, on pod create and
 * update (not subresources); the first field found is named, in Kubernetes' words and order: the
 * pod-level supplementalGroups, seLinuxOptions, runAsUser, fsGroup, then each container's
 * (init containers first, then containers, then ephemeral ones) seLinuxOptions and runAsUser.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionPlugin } from '../../types.js';

interface ContainerInfo {
  securityContext?: { seLinuxOptions?: unknown; runAsUser?: unknown };
}

/** What the plugin reads of a Pod. */
export interface PodSecurityInfo {
  spec?: {
    securityContext?: { supplementalGroups?: unknown; seLinuxOptions?: unknown; runAsUser?: unknown; fsGroup?: unknown };
    containers?: ContainerInfo[];
    initContainers?: ContainerInfo[];
    ephemeralContainers?: ContainerInfo[];
  };
}

const set = (v: unknown): boolean => v !== undefined && v !== null;

/** The message for the first forbidden field the pod sets, or undefined. Pure. */
export function deniedSecurityField(pod: PodSecurityInfo): string | undefined {
  const psc = pod.spec?.securityContext;
  if (psc) {
    // An empty list is still a list set, as Go's nil check sees a decoded `[]`.
    if (set(psc.supplementalGroups)) return 'pod.Spec.SecurityContext.SupplementalGroups is forbidden';
    if (set(psc.seLinuxOptions)) return 'pod.Spec.SecurityContext.SELinuxOptions is forbidden';
    if (set(psc.runAsUser)) return 'pod.Spec.SecurityContext.RunAsUser is forbidden';
    if (set(psc.fsGroup)) return 'pod.Spec.SecurityContext.FSGroup is forbidden';
  }
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? []), ...(pod.spec?.ephemeralContainers ?? [])];
  for (const c of containers) {
    const sc = c.securityContext;
    if (!sc) continue;
    if (set(sc.seLinuxOptions)) return 'SecurityContext.SELinuxOptions is forbidden';
    if (set(sc.runAsUser)) return 'SecurityContext.RunAsUser is forbidden';
  }
  return undefined;
}

export function securityContextDeny(_names: ApiNames): AdmissionPlugin {
  return {
    name: 'SecurityContextDeny',
    validate(a) {
      if (a.group !== '' || a.resource !== 'pods' || a.subresource || !a.object) return;
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      const denied = deniedSecurityField(a.object as PodSecurityInfo);
      if (denied) throw admissionForbidden(a, denied);
    },
  };
}
