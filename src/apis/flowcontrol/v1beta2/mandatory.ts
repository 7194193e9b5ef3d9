/**
 * The mandatory configuration objects of API Priority and Fairness: `exempt` and `catch-all`, as
 * priority levels and as flow schemas. Kubernetes' validation holds an object of one of these names
 * to exactly this spec (after defaulting), so that the server's own guarantees cannot be edited away.
 */
import { isDeepStrictEqual } from 'node:util';
import type { FlowSchemaSpec, PriorityLevelConfigurationSpec } from '../types.js';

const everything = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
};
const groups = (...names: string[]) => names.map((name) => ({ kind: 'Group', group: { name } }));

export const MANDATORY_PRIORITY_LEVELS: Readonly<Record<string, PriorityLevelConfigurationSpec>> = {
  exempt: { type: 'Exempt' },
  'catch-all': { type: 'Limited', limited: { assuredConcurrencyShares: 5, limitResponse: { type: 'Reject' } } },
};

export const MANDATORY_FLOW_SCHEMAS: Readonly<Record<string, FlowSchemaSpec>> = {
  exempt: {
    priorityLevelConfiguration: { name: 'exempt' },
    matchingPrecedence: 1,
    rules: [{ subjects: groups('system:masters'), ...everything }],
  },
  'catch-all': {
    priorityLevelConfiguration: { name: 'catch-all' },
    matchingPrecedence: 10000,
    distinguisherMethod: { type: 'ByUser' },
    rules: [{ subjects: groups('system:unauthenticated', 'system:authenticated'), ...everything }],
  },
};

/**
 * Go's semantic equality, which the comparison with the fixed specs uses: an empty list, an empty
 * map, a zero scalar and an absent field are all the same.
 */
export function semanticallyEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(normalize(a), normalize(b));
}

function normalize(v: unknown): unknown {
  if (v === null || v === undefined || v === '' || v === 0 || v === false) return undefined;
  if (Array.isArray(v)) return v.length ? v.map(normalize) : undefined;
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const n = normalize(x);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v;
}
