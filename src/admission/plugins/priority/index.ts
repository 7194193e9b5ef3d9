/**
 * Priority: a new Pod's `priorityClassName` is resolved to `priority` and `preemptionPolicy` from
 * its PriorityClass; a pod naming no class gets the global default class (the one with
 * `globalDefault: true`, the lowest value if a race made several), or priority 0 and
 * PreemptLowerPriority when there is none. A class that does not exist, or a priority or policy in
 * the pod that differs from what the class gives, is refused with Kubernetes' message. On update the
 * values set at create are kept (validation forbids changing them). PriorityClasses: at most one may
 * be the global default.
 *
 * Kubernetes 1.25 does not restrict the system classes to the system namespace in this plugin (that
 * moved to ResourceQuota's limitedResources in 1.17), and neither does this one.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import type { Lister } from '../../../machinery/lister.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../types.js';

/** What the plugin reads of a PriorityClass. */
export interface PriorityClassInfo {
  metadata: { name?: string };
  value: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
}

interface PodPriorityInfo {
  spec?: { priorityClassName?: string; priority?: number; preemptionPolicy?: string; [field: string]: unknown };
}

/** Kubernetes' DefaultPriorityWhenNoDefaultClassExists. */
export const PRIORITY_WITHOUT_DEFAULT_CLASS = 0;

/** The global default class: of those marked, the lowest value. Pure. */
export function defaultPriorityClass(classes: readonly PriorityClassInfo[]): PriorityClassInfo | undefined {
  let chosen: PriorityClassInfo | undefined;
  for (const pc of classes) if (pc.globalDefault && (!chosen || chosen.value > pc.value)) chosen = pc;
  return chosen;
}

export function priority(names: ApiNames, classes: Lister<PriorityClassInfo>): AdmissionPlugin {
  const podGroup = '';
  const classGroup = names.group('scheduling');
  const lookup = async (name: string, signal: AbortSignal): Promise<PriorityClassInfo | undefined> => {
    const fast = classes.get('', name);
    if (fast) return fast;
    // A class created an instant ago must count: look again once caught up with the store.
    await classes.synced(signal);
    return classes.get('', name);
  };

  async function admitPodCreate(a: AdmissionAttributes, pod: PodPriorityInfo): Promise<void> {
    const spec = (pod.spec ??= {});
    let value: number;
    let policy: string | undefined;
    if (!spec.priorityClassName) {
      await classes.synced(a.signal);
      const dpc = defaultPriorityClass(classes.list());
      if (dpc) {
        spec.priorityClassName = dpc.metadata.name ?? '';
        value = dpc.value;
        policy = dpc.preemptionPolicy;
      } else {
        value = PRIORITY_WITHOUT_DEFAULT_CLASS;
        policy = 'PreemptLowerPriority';
      }
      if (!spec.priorityClassName) delete spec.priorityClassName;
    } else {
      const pc = await lookup(spec.priorityClassName, a.signal);
      if (!pc) throw admissionForbidden(a, `no PriorityClass with name ${spec.priorityClassName} was found`);
      value = pc.value;
      policy = pc.preemptionPolicy;
    }
    if (spec.priority !== undefined && spec.priority !== null && spec.priority !== value) {
      throw admissionForbidden(
        a,
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`,
      );
    }
    spec.priority = value;
    if (policy !== undefined) {
      if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null && spec.preemptionPolicy !== policy) {
        throw admissionForbidden(
          a,
          `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
        );
      }
      spec.preemptionPolicy = policy;
    }
  }

  return {
    name: 'Priority',
    async admit(a) {
      if (a.group !== podGroup || a.resource !== 'pods' || a.subresource || !a.object) return;
      const pod = a.object as PodPriorityInfo;
      if (a.operation === 'CREATE') return admitPodCreate(a, pod);
      if (a.operation === 'UPDATE' && a.oldObject) {
        // This plugin set them on create; an update that leaves them out keeps them.
        const old = (a.oldObject as PodPriorityInfo).spec ?? {};
        const spec = (pod.spec ??= {});
        if (spec.priority === undefined && old.priority !== undefined) spec.priority = old.priority;
        if (spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined) spec.preemptionPolicy = old.preemptionPolicy;
      }
    },
    async validate(a) {
      if (a.group !== classGroup || a.resource !== 'priorityclasses' || a.subresource || !a.object) return;
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      const pc = a.object as unknown as PriorityClassInfo;
      if (!pc.globalDefault) return;
      await classes.synced(a.signal);
      const dpc = defaultPriorityClass(classes.list());
      if (dpc && (a.operation === 'CREATE' || dpc.metadata.name !== pc.metadata.name)) {
        throw admissionForbidden(a, `PriorityClass ${dpc.metadata.name ?? ''} is already marked as default. Only one default can exist`);
      }
    },
  };
}
