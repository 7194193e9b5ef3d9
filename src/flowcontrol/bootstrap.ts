/**
 * The configuration objects of Kubernetes 1.25 that a server creates at start: the mandatory
 * `exempt` and `catch-all` (which it also imagines when they are missing), and the suggested levels
 * and schemas that serve nodes, leader election, controllers, service accounts and everyone else.
 * Names that derive from the API domain (the system namespace, the coordination group, the
 * auto-update annotation) come from `names`.
 */
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS } from '../apis/flowcontrol/v1beta2/mandatory.js';
import type { FlowSchema, FlowSchemaSpec, PriorityLevelConfiguration, PriorityLevelConfigurationSpec } from '../apis/flowcontrol/types.js';
import type { ApiNames } from '../machinery/api-names.js';

/** `apf.orch.io/autoupdate-spec` (`apf.kubernetes.io/autoupdate-spec` under k8s.io). */
export function autoupdateSpecAnnotation(names: ApiNames): string {
  return names.labelSubKey('apf', 'autoupdate-spec');
}

type Subject = NonNullable<FlowSchemaSpec['rules']>[number]['subjects'][number];
type ResourceRule = NonNullable<NonNullable<FlowSchemaSpec['rules']>[number]['resourceRules']>[number];

const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const resourceRule = (verbs: string[], apiGroups: string[], resources: string[], clusterScope: boolean): ResourceRule => ({
  verbs,
  apiGroups,
  resources,
  clusterScope,
  namespaces: ['*'],
});
const everything = {
  resourceRules: [resourceRule(['*'], ['*'], ['*'], true)],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
};
const queued = (shares: number, queues: number, handSize: number): PriorityLevelConfigurationSpec => ({
  type: 'Limited',
  limited: { assuredConcurrencyShares: shares, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } } },
});

const KUBE_CONTROLLER_MANAGER = 'system:kube-controller-manager';
const KUBE_SCHEDULER = 'system:kube-scheduler';
const NODES = 'system:nodes';

export interface BootstrapConfiguration {
  readonly mandatoryPriorityLevels: readonly PriorityLevelConfiguration[];
  readonly mandatoryFlowSchemas: readonly FlowSchema[];
  readonly suggestedPriorityLevels: readonly PriorityLevelConfiguration[];
  readonly suggestedFlowSchemas: readonly FlowSchema[];
}

export function bootstrapConfiguration(names: ApiNames): BootstrapConfiguration {
  const group = names.group('flowcontrol.apiserver');
  const annotations = { [autoupdateSpecAnnotation(names)]: 'true' };
  const level = (name: string, spec: PriorityLevelConfigurationSpec): PriorityLevelConfiguration => ({
    apiVersion: `${group}/v1beta2`,
    kind: 'PriorityLevelConfiguration',
    metadata: { name, annotations: { ...annotations } },
    spec: structuredClone(spec),
    status: {},
  });
  const schema = (name: string, spec: FlowSchemaSpec): FlowSchema => ({
    apiVersion: `${group}/v1beta2`,
    kind: 'FlowSchema',
    metadata: { name, annotations: { ...annotations } },
    spec: structuredClone(spec),
    status: {},
  });
  const fs = (name: string, pl: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | undefined, rule: NonNullable<FlowSchemaSpec['rules']>[number]) =>
    schema(name, {
      priorityLevelConfiguration: { name: pl },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules: [rule],
    });
  const systemServiceAccounts = (...saNames: string[]): Subject[] =>
    saNames.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: names.systemNamespace, name } }));
  const coordination = names.group('coordination');

  return {
    mandatoryPriorityLevels: [level('catch-all', MANDATORY_PRIORITY_LEVELS['catch-all'] as PriorityLevelConfigurationSpec), level('exempt', MANDATORY_PRIORITY_LEVELS.exempt as PriorityLevelConfigurationSpec)],
    mandatoryFlowSchemas: [schema('exempt', MANDATORY_FLOW_SCHEMAS.exempt as FlowSchemaSpec), schema('catch-all', MANDATORY_FLOW_SCHEMAS['catch-all'] as FlowSchemaSpec)],
    suggestedPriorityLevels: [
      level('system', queued(30, 64, 6)),
      level('node-high', queued(40, 64, 6)),
      level('leader-election', queued(10, 16, 4)),
      level('workload-high', queued(40, 128, 6)),
      level('workload-low', queued(100, 128, 6)),
      level('global-default', queued(20, 128, 6)),
    ],
    suggestedFlowSchemas: [
      fs('system-nodes', 'system', 500, 'ByUser', { subjects: groups(NODES), ...everything }),
      fs('system-node-high', 'node-high', 400, 'ByUser', {
        subjects: groups(NODES),
        resourceRules: [resourceRule(['*'], [''], ['nodes', 'nodes/status'], true), resourceRule(['*'], [coordination], ['leases'], false)],
      }),
      fs('probes', 'exempt', 2, undefined, {
        subjects: groups('system:unauthenticated', 'system:authenticated'),
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
      }),
      fs('system-leader-election', 'leader-election', 100, 'ByUser', {
        subjects: [...users(KUBE_CONTROLLER_MANAGER, KUBE_SCHEDULER), ...systemServiceAccounts('*')],
        resourceRules: [resourceRule(['get', 'create', 'update'], [coordination], ['leases'], false)],
      }),
      fs('workload-leader-election', 'leader-election', 200, 'ByUser', {
        subjects: systemServiceAccounts('*'),
        resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], false), resourceRule(['get', 'create', 'update'], [coordination], ['leases'], false)],
      }),
      fs('endpoint-controller', 'workload-high', 150, 'ByUser', {
        subjects: [...users(KUBE_CONTROLLER_MANAGER), ...systemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller')],
        resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints'], false)],
      }),
      fs('kube-controller-manager', 'workload-high', 800, 'ByNamespace', { subjects: users(KUBE_CONTROLLER_MANAGER), ...everything }),
      fs('kube-scheduler', 'workload-high', 800, 'ByNamespace', { subjects: users(KUBE_SCHEDULER), ...everything }),
      fs(`${names.systemNamespace}-service-accounts`, 'workload-high', 900, 'ByNamespace', { subjects: systemServiceAccounts('*'), ...everything }),
      fs('service-accounts', 'workload-low', 9000, 'ByUser', { subjects: groups('system:serviceaccounts'), ...everything }),
      fs('global-default', 'global-default', 9900, 'ByUser', { subjects: groups('system:unauthenticated', 'system:authenticated'), ...everything }),
    ],
  };
}
