/**
 * TaintNodesByCondition: a Node being created gets the taint `node.<label domain>/not-ready` with
 * effect NoSchedule (unless it has a taint of that key and effect already), so nothing is scheduled
 * to it before the node lifecycle controller has seen it ready and removed the taint. Mutating
 * only, on create of the main resource.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import type { AdmissionPlugin } from '../../types.js';

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

/** What the plugin reads and writes of a Node. */
export interface NodeTaintsInfo {
  spec?: { taints?: Taint[]; [field: string]: unknown };
}

/** Adds `taint` unless one with its key and effect is there. Mutates `node`. */
export function addTaintOnce(node: NodeTaintsInfo, taint: Taint): void {
  const taints = node.spec?.taints ?? [];
  if (taints.some((t) => t.key === taint.key && t.effect === taint.effect)) return;
  node.spec = { ...(node.spec ?? {}), taints: [...taints, { ...taint }] };
}

export function notReadyTaintKey(names: ApiNames): string {
  return names.labelSubKey('node', 'not-ready');
}

export function taintNodesByCondition(names: ApiNames): AdmissionPlugin {
  const notReady: Taint = { key: notReadyTaintKey(names), effect: 'NoSchedule' };
  return {
    name: 'TaintNodesByCondition',
    admit(a) {
      if (a.operation !== 'CREATE' || a.group !== '' || a.resource !== 'nodes' || a.subresource || !a.object) return;
      addTaintOnce(a.object as NodeTaintsInfo, notReady);
    },
  };
}
