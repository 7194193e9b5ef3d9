/**
 * DefaultTolerationSeconds: a pod that does not tolerate the `not-ready` and `unreachable` node
 * taints with effect NoExecute gets tolerations of them for a while (300 s by default, the
 * `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds` flags),
 * so a brief node outage does not evict it at once. A toleration with an empty key (every taint)
 * or an empty effect (every effect) counts as tolerating. Mutating only, on pod create and update
 * (not subresources).
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import type { AdmissionSettings } from '../../options.js';
import type { AdmissionPlugin } from '../../types.js';

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

interface PodTolerationsInfo {
  spec?: { tolerations?: Toleration[]; [field: string]: unknown };
}

/** Whether `tolerations` already tolerate a NoExecute taint with `key`. Pure. */
export function toleratesNoExecute(tolerations: readonly Toleration[], key: string): boolean {
  return tolerations.some((t) => (!t.key || t.key === key) && (!t.effect || t.effect === 'NoExecute'));
}

/** Adds the default tolerations the pod lacks. Mutates `pod`. */
export function addDefaultTolerations(pod: PodTolerationsInfo, defaults: readonly Toleration[]): void {
  const current = pod.spec?.tolerations ?? [];
  const missing = defaults.filter((d) => !toleratesNoExecute(current, d.key as string));
  if (missing.length) pod.spec = { ...(pod.spec ?? {}), tolerations: [...current, ...missing.map((t) => ({ ...t }))] };
}

export function defaultTolerationSeconds(names: ApiNames, settings: AdmissionSettings): AdmissionPlugin {
  const defaults: Toleration[] = [
    { key: names.labelSubKey('node', 'not-ready'), operator: 'Exists', effect: 'NoExecute', tolerationSeconds: settings.defaultNotReadyTolerationSeconds },
    { key: names.labelSubKey('node', 'unreachable'), operator: 'Exists', effect: 'NoExecute', tolerationSeconds: settings.defaultUnreachableTolerationSeconds },
  ];
  return {
    name: 'DefaultTolerationSeconds',
    admit(a) {
      if (a.group !== '' || a.resource !== 'pods' || a.subresource || !a.object) return;
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      addDefaultTolerations(a.object as PodTolerationsInfo, defaults);
    },
  };
}
