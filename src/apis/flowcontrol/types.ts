/**
 * The schemas of FlowSchema and PriorityLevelConfiguration. v1beta1 and v1beta2 have the same
 * fields in Kubernetes 1.25, so one builder makes both, named for their version
 * (`flowcontrol.v1beta2.FlowSchema`). Protobuf numbers follow Kubernetes' flowcontrol generated.proto.
 */
import { objectHeader, t, type Infer, type ObjectOf } from '../../schema/index.js';

export const PRIORITY_LEVEL_TYPES = ['Exempt', 'Limited'] as const;
export const LIMIT_RESPONSE_TYPES = ['Queue', 'Reject'] as const;
export const DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'] as const;
export const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'] as const;

// Kubernetes gives these lists no patch strategy: apply merges them by type, a strategic merge
// patch replaces them whole.
const conditionsList = <S extends ReturnType<typeof condition>>(item: S) => t.list(item, { listType: 'map', listMapKeys: ['type'] });

function condition(name: string) {
  return t.struct(name, {
    // Required in prose only: the Go fields are omitempty, so Kubernetes' OpenAPI lists no required fields here.
    type: t.field(1, t.string(), { description: 'The type of the condition.' }),
    status: t.field(2, t.string({ enum: ['False', 'True', 'Unknown'] }), { description: 'The status of the condition: True, False or Unknown.' }),
    lastTransitionTime: t.field(3, t.time(), { description: 'When the condition last moved from one status to another.' }),
    reason: t.field(4, t.string(), { description: "A unique, one-word, CamelCase reason for the condition's last transition." }),
    message: t.field(5, t.string(), { description: 'Details of the last transition, for a person to read.' }),
  });
}

function build(version: string) {
  const n = (type: string): string => `flowcontrol.${version}.${type}`;

  const QueuingConfiguration = t.struct(n('QueuingConfiguration'), {
    queues: t.field(1, t.int32(), {
      always: true,
      description: 'The number of queues of the level (at each API server); positive, default 64. 1 rules out shuffle sharding.',
    }),
    handSize: t.field(2, t.int32(), {
      always: true,
      description: 'How many queues shuffle sharding deals to each flow; positive, at most queues (and much smaller), default 8.',
    }),
    queueLengthLimit: t.field(3, t.int32(), {
      always: true,
      description: 'The most requests that may wait in one queue; more are rejected. Positive, default 50.',
    }),
  }, { description: 'How requests of a level queue.' });

  const LimitResponse = t.struct(n('LimitResponse'), {
    type: t.required(1, t.string({ enum: LIMIT_RESPONSE_TYPES }), {
      always: true,
      description: 'Queue (hold requests until they can run or a queue limit is reached) or Reject.',
    }),
    queuing: t.field(2, QueuingConfiguration, { pointer: true, description: 'The queuing parameters; set if and only if type is Queue.' }),
  }, { description: 'What happens to requests that cannot run right now.' });

  const LimitedPriorityLevelConfiguration = t.struct(n('LimitedPriorityLevelConfiguration'), {
    assuredConcurrencyShares: t.field(1, t.int32(), {
      always: true,
      description:
        "The level's share of the server's concurrency limit (SCL): ACV(l) = ceil(SCL * ACS(l) / sum of ACS(k) over limited levels k). Positive, default 30.",
    }),
    limitResponse: t.field(2, LimitResponse, { description: 'What to do with requests that cannot run right now.' }),
  }, { description: 'How requests of a limited level are limited, and what happens to the excess.' });

  const PriorityLevelConfigurationSpec = t.struct(n('PriorityLevelConfigurationSpec'), {
    type: t.required(1, t.string({ enum: PRIORITY_LEVEL_TYPES }), {
      always: true,
      description: 'Exempt (never limited or queued, takes no capacity from others) or Limited (limited, with capacity of its own).',
    }),
    limited: t.field(2, LimitedPriorityLevelConfiguration, { pointer: true, description: 'The limits; set if and only if type is Limited.' }),
  }, { description: 'What a priority level is.' });

  const PriorityLevelConfigurationCondition = condition(n('PriorityLevelConfigurationCondition'));
  const PriorityLevelConfigurationStatus = t.struct(n('PriorityLevelConfigurationStatus'), {
    conditions: t.field(1, conditionsList(PriorityLevelConfigurationCondition), { description: 'The current state of the priority level.' }),
  }, { description: 'What the priority level is, as last observed.' });

  const PriorityLevelConfiguration = t.struct(n('PriorityLevelConfiguration'), {
    ...objectHeader,
    spec: t.field(2, PriorityLevelConfigurationSpec, { description: 'What the priority level is.' }),
    status: t.field(3, PriorityLevelConfigurationStatus, { description: 'What the priority level is, as last observed. Written through /status.' }),
  }, { description: 'A priority level of API Priority and Fairness: how much of the server its requests may use, and how the excess waits.' });

  const PriorityLevelConfigurationReference = t.struct(n('PriorityLevelConfigurationReference'), {
    name: t.required(1, t.string(), { always: true, description: 'The name of the PriorityLevelConfiguration.' }),
  }, { description: 'A reference to a priority level.' });

  const FlowDistinguisherMethod = t.struct(n('FlowDistinguisherMethod'), {
    type: t.required(1, t.string({ enum: DISTINGUISHER_METHODS }), { always: true, description: 'ByUser or ByNamespace.' }),
  }, { description: 'How requests are told apart into flows.' });

  const UserSubject = t.struct(n('UserSubject'), {
    name: t.required(1, t.string(), { always: true, description: 'The user name, or "*" for every user.' }),
  }, { description: 'A user, by name.' });
  const GroupSubject = t.struct(n('GroupSubject'), {
    name: t.required(1, t.string(), { always: true, description: 'The group name, or "*" for every group.' }),
  }, { description: 'A user group, by name.' });
  const ServiceAccountSubject = t.struct(n('ServiceAccountSubject'), {
    namespace: t.required(1, t.string(), { always: true, description: 'The namespace of the service accounts.' }),
    name: t.required(2, t.string(), { always: true, description: 'The service account name, or "*" for every one in the namespace.' }),
  }, { description: 'Service accounts, by namespace and name.' });

  const Subject = t.struct(n('Subject'), {
    kind: t.required(1, t.string({ enum: SUBJECT_KINDS }), { always: true, description: 'User, Group or ServiceAccount: which of the other fields is set.' }),
    user: t.field(2, UserSubject, { pointer: true, description: 'Matches by user name.' }),
    group: t.field(3, GroupSubject, { pointer: true, description: 'Matches by group name.' }),
    serviceAccount: t.field(4, ServiceAccountSubject, { pointer: true, description: 'Matches service accounts.' }),
  }, { description: 'Who made a request: a user, a group or a service account.' });

  const ResourcePolicyRule = t.struct(n('ResourcePolicyRule'), {
    verbs: t.required(1, t.list(t.string(), { listType: 'set' }), { always: true, description: 'Matching verbs; "*" (alone) matches all.' }),
    apiGroups: t.required(2, t.list(t.string(), { listType: 'set' }), { always: true, description: 'Matching API groups; "*" (alone) matches all.' }),
    resources: t.required(3, t.list(t.string(), { listType: 'set' }), {
      always: true,
      description: 'Matching resources, lowercase plural, optionally with a subresource ("nodes/status"); "*" (alone) matches all.',
    }),
    clusterScope: t.field(4, t.bool(), { description: 'Whether requests without a namespace match. When false, namespaces may not be empty.' }),
    namespaces: t.field(5, t.list(t.string(), { listType: 'set' }), {
      always: true,
      description: 'Matching namespaces of namespaced requests; "*" (alone) matches any namespace.',
    }),
  }, { description: 'Matches resource requests by verb, group, resource and namespace.' });

  const NonResourcePolicyRule = t.struct(n('NonResourcePolicyRule'), {
    verbs: t.required(1, t.list(t.string(), { listType: 'set' }), { always: true, description: 'Matching verbs; "*" (alone) matches all.' }),
    nonResourceURLs: t.required(6, t.list(t.string(), { listType: 'set' }), {
      always: true,
      description: 'Matching URL prefixes ("/healthz", "/healthz/*"); "*" (alone) matches all.',
    }),
  }, { description: 'Matches non-resource requests by verb and URL.' });

  const PolicyRulesWithSubjects = t.struct(n('PolicyRulesWithSubjects'), {
    subjects: t.required(1, t.list(Subject, { listType: 'atomic' }), { always: true, description: 'Who the rules apply to; at least one.' }),
    resourceRules: t.field(2, t.list(ResourcePolicyRule, { listType: 'atomic' }), { description: 'Matching resource requests.' }),
    nonResourceRules: t.field(3, t.list(NonResourcePolicyRule, { listType: 'atomic' }), { description: 'Matching non-resource requests.' }),
  }, { description: 'A test on the requester and on what is requested; at least one of the rule lists must be set.' });

  const FlowSchemaSpec = t.struct(n('FlowSchemaSpec'), {
    priorityLevelConfiguration: t.required(1, PriorityLevelConfigurationReference, { description: 'The priority level of matching requests.' }),
    // A Go int32 without omitempty: always printed (defaulting turns 0 into 1000 before storage).
    matchingPrecedence: t.field(2, t.int32(), {
      always: true,
      description: 'Among matching schemas, the numerically lowest wins. 1 to 10000 (1 only for "exempt"), default 1000.',
    }),
    distinguisherMethod: t.field(3, FlowDistinguisherMethod, { pointer: true, description: 'How flows are told apart; unset puts every request in one flow.' }),
    rules: t.field(4, t.list(PolicyRulesWithSubjects, { listType: 'atomic' }), { description: 'The schema matches a request that any rule matches.' }),
  }, { description: 'Which requests a flow schema matches, and where they go.' });

  const FlowSchemaCondition = condition(n('FlowSchemaCondition'));
  const FlowSchemaStatus = t.struct(n('FlowSchemaStatus'), {
    conditions: t.field(1, conditionsList(FlowSchemaCondition), { description: 'The current state of the flow schema.' }),
  }, { description: 'What the flow schema is, as last observed.' });

  const FlowSchema = t.struct(n('FlowSchema'), {
    ...objectHeader,
    spec: t.field(2, FlowSchemaSpec, { description: 'Which requests the schema matches and their priority level.' }),
    status: t.field(3, FlowSchemaStatus, { description: 'What the flow schema is, as last observed. Written through /status.' }),
  }, { description: 'A class of requests of API Priority and Fairness: who and what it matches, and the priority level they go to.' });

  return { PriorityLevelConfiguration, PriorityLevelConfigurationSpec, FlowSchema, FlowSchemaSpec };
}

type Schemas = ReturnType<typeof build>;
const built = new Map<string, Schemas>();

/** The schemas of one served version; the same objects on every call. */
export function flowcontrolSchemas(version: 'v1beta1' | 'v1beta2'): Schemas {
  let s = built.get(version);
  if (!s) built.set(version, (s = build(version)));
  return s;
}

export type PriorityLevelConfiguration = ObjectOf<Schemas['PriorityLevelConfiguration']>;
export type PriorityLevelConfigurationSpec = Infer<Schemas['PriorityLevelConfigurationSpec']>;
export type FlowSchema = ObjectOf<Schemas['FlowSchema']>;
export type FlowSchemaSpec = Infer<Schemas['FlowSchemaSpec']>;
