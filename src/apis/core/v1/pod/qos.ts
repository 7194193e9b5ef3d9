/** A pod's quality-of-service class, from its containers' cpu and memory requests and limits. */
import { addQuantities, compareQuantities, parseQuantity, quantitySign, type Quantity } from '../../../../machinery/quantity.js';
import type { PodSpec } from './pod-spec.js';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const QOS_RESOURCES = new Set(['cpu', 'memory']);

function accumulate(into: Map<string, Quantity>, list: Record<string, string> | undefined, found?: Set<string>): void {
  for (const [name, text] of Object.entries(list ?? {})) {
    if (!QOS_RESOURCES.has(name)) continue;
    const q = parseQuantity(text);
    if (quantitySign(q) <= 0) continue;
    found?.add(name);
    const sum = into.get(name);
    into.set(name, sum ? addQuantities(q, sum) : q);
  }
}

/**
 * BestEffort without any cpu or memory request or limit; Guaranteed when every container limits
 * both and requests equal limits; Burstable otherwise.
 */
export function podQOSClass(spec: PodSpec): QOSClass {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    accumulate(requests, c.resources.requests);
    const found = new Set<string>();
    accumulate(limits, c.resources.limits, found);
    if (!found.has('cpu') || !found.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || compareQuantities(lim, req) !== 0) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
