/**
 * Conversion between flowcontrol v1beta1 and the stored v1beta2. In Kubernetes 1.25 the two
 * versions have the same fields, so every converter copies field by field and the round trip is
 * lossless (document 1, deprecation rule 2). The same functions serve both directions; only
 * `apiVersion` differs. Pure: inputs are never changed.
 */
import type { KubeObject } from '../../../schema/index.js';
import type { FlowSchema, FlowSchemaSpec, PriorityLevelConfiguration, PriorityLevelConfigurationSpec } from '../types.js';

type Limited = NonNullable<PriorityLevelConfigurationSpec['limited']>;
type Rule = NonNullable<FlowSchemaSpec['rules']>[number];
type Subject = Rule['subjects'][number];
type Condition = { type?: string; status?: string; lastTransitionTime?: string; reason?: string; message?: string };

/** Copies the defined members of `from` named in `keys`: absent stays absent. */
function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) if (from[k] !== undefined) out[k] = structuredClone(from[k]);
  return out;
}

const list = <T>(items: readonly T[] | null | undefined, convert: (x: T) => T): T[] | null | undefined => (items ? items.map(convert) : items);

function convertConditions(conditions: readonly Condition[] | undefined): Condition[] | undefined {
  return conditions?.map((c) => pick(c, ['type', 'status', 'lastTransitionTime', 'reason', 'message']));
}

function convertLimited(l: Limited): Limited {
  const lr = l.limitResponse;
  return {
    assuredConcurrencyShares: l.assuredConcurrencyShares,
    limitResponse: {
      type: lr.type,
      ...(lr.queuing ? { queuing: { queues: lr.queuing.queues, handSize: lr.queuing.handSize, queueLengthLimit: lr.queuing.queueLengthLimit } } : {}),
    },
  };
}

function convertPriorityLevelSpec(spec: PriorityLevelConfigurationSpec): PriorityLevelConfigurationSpec {
  return { type: spec.type, ...(spec.limited ? { limited: convertLimited(spec.limited) } : {}) };
}

function convertSubject(s: Subject): Subject {
  return {
    kind: s.kind,
    ...(s.user ? { user: { name: s.user.name } } : {}),
    ...(s.group ? { group: { name: s.group.name } } : {}),
    ...(s.serviceAccount ? { serviceAccount: { namespace: s.serviceAccount.namespace, name: s.serviceAccount.name } } : {}),
  };
}

function convertRule(r: Rule): Rule {
  const out: Rule = { subjects: list(r.subjects, convertSubject) as Subject[] };
  if (r.resourceRules !== undefined) {
    out.resourceRules = r.resourceRules.map((rr) => ({
      verbs: structuredClone(rr.verbs),
      apiGroups: structuredClone(rr.apiGroups),
      resources: structuredClone(rr.resources),
      ...(rr.clusterScope !== undefined ? { clusterScope: rr.clusterScope } : {}),
      namespaces: structuredClone(rr.namespaces),
    }));
  }
  if (r.nonResourceRules !== undefined) {
    out.nonResourceRules = r.nonResourceRules.map((nr) => ({ verbs: structuredClone(nr.verbs), nonResourceURLs: structuredClone(nr.nonResourceURLs) }));
  }
  return out;
}

function convertFlowSchemaSpec(spec: FlowSchemaSpec): FlowSchemaSpec {
  return {
    priorityLevelConfiguration: { name: spec.priorityLevelConfiguration.name },
    ...pick(spec, ['matchingPrecedence']),
    ...(spec.distinguisherMethod ? { distinguisherMethod: { type: spec.distinguisherMethod.type } } : {}),
    ...(spec.rules !== undefined ? { rules: spec.rules.map(convertRule) } : {}),
  };
}

/** A PriorityLevelConfiguration in the other version, `apiVersion` set to `apiVersion`. */
export function convertPriorityLevel(obj: KubeObject, apiVersion: string): KubeObject {
  const pl = obj as unknown as PriorityLevelConfiguration;
  const conditions = convertConditions(pl.status?.conditions);
  const out: PriorityLevelConfiguration = {
    apiVersion,
    kind: pl.kind ?? 'PriorityLevelConfiguration',
    metadata: structuredClone(pl.metadata),
    spec: convertPriorityLevelSpec(pl.spec),
    status: conditions ? { conditions } : {},
  };
  return out as unknown as KubeObject;
}

/** A FlowSchema in the other version, `apiVersion` set to `apiVersion`. */
export function convertFlowSchema(obj: KubeObject, apiVersion: string): KubeObject {
  const fs = obj as unknown as FlowSchema;
  const conditions = convertConditions(fs.status?.conditions);
  const out: FlowSchema = {
    apiVersion,
    kind: fs.kind ?? 'FlowSchema',
    metadata: structuredClone(fs.metadata),
    spec: convertFlowSchemaSpec(fs.spec),
    status: conditions ? { conditions } : {},
  };
  return out as unknown as KubeObject;
}
