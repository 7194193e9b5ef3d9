/**
 * RuntimeClass: a new pod naming a `runtimeClassName` gets what its RuntimeClass declares: the
 * class's `overhead.podFixed` as `spec.overhead`, and its `scheduling` merged in (the node
 * selector added, a conflicting key refused; the tolerations merged, ones another already covers
 * left out). A class that does not exist, or an overhead in the pod that differs from the class's
 * (or is set without a class that declares one), is refused with Kubernetes' messages. Mutating and
 * validating, on pod create (not subresources).
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import type { Lister } from '../../../machinery/lister.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../types.js';
import type { Toleration } from '../default-toleration-seconds/index.js';
import { sameResources } from '../../../machinery/resource-list.js';
import { mergeTolerations } from './merge-tolerations.js';

/** What the plugin reads of a RuntimeClass. */
export interface RuntimeClassInfo {
  metadata: { name?: string };
  overhead?: { podFixed?: Record<string, string> };
  scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Toleration[] };
}

interface PodRuntimeInfo {
  spec?: {
    runtimeClassName?: string | null;
    overhead?: Record<string, string> | null;
    nodeSelector?: Record<string, string>;
    tolerations?: Toleration[];
    [field: string]: unknown;
  };
}

const OVERHEAD_MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";
const OVERHEAD_WITHOUT_CLASS = 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead';

export function runtimeClass(_names: ApiNames, classes: Lister<RuntimeClassInfo>): AdmissionPlugin {
  const applies = (a: AdmissionAttributes): boolean => a.operation === 'CREATE' && a.group === '' && a.resource === 'pods' && !a.subresource && !!a.object;

  /** The pod's class, undefined when it names none; refuses a class that does not exist. */
  const classFor = async (a: AdmissionAttributes, pod: PodRuntimeInfo): Promise<RuntimeClassInfo | undefined> => {
    const name = pod.spec?.runtimeClassName;
    if (!name) return undefined;
    let rc = classes.get('', name);
    if (!rc) {
      // The cache may lag a class created an instant ago: look again once caught up.
      await classes.synced(a.signal);
      rc = classes.get('', name);
    }
    if (!rc) throw admissionForbidden(a, `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
    return rc;
  };

  return {
    name: 'RuntimeClass',
    async admit(a) {
      if (!applies(a)) return;
      const pod = a.object as unknown as PodRuntimeInfo;
      const rc = await classFor(a, pod);
      if (!rc) return;
      const spec = (pod.spec ??= {});
      const fixed = rc.overhead?.podFixed;
      if (fixed) {
        if (spec.overhead !== undefined && spec.overhead !== null && !sameResources(spec.overhead, fixed)) throw admissionForbidden(a, OVERHEAD_MISMATCH);
        spec.overhead = { ...fixed };
      }
      const scheduling = rc.scheduling;
      if (!scheduling) return;
      const selector = { ...(spec.nodeSelector ?? {}) };
      for (const [key, value] of Object.entries(scheduling.nodeSelector ?? {})) {
        const podValue = selector[key];
        if (podValue !== undefined && podValue !== value) {
          throw admissionForbidden(a, `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${podValue}`);
        }
        selector[key] = value;
      }
      if (Object.keys(selector).length) spec.nodeSelector = selector;
      const merged = mergeTolerations(spec.tolerations ?? [], scheduling.tolerations ?? []);
      if (merged.length) spec.tolerations = merged;
    },
    async validate(a) {
      if (!applies(a)) return;
      const pod = a.object as unknown as PodRuntimeInfo;
      const rc = await classFor(a, pod);
      const overhead = pod.spec?.overhead ?? undefined;
      if (rc?.overhead?.podFixed) {
        if (!overhead || !sameResources(overhead, rc.overhead.podFixed)) throw admissionForbidden(a, OVERHEAD_MISMATCH);
      } else if (overhead) {
        throw admissionForbidden(a, OVERHEAD_WITHOUT_CLASS);
      }
    },
  };
}
