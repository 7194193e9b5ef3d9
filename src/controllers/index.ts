/**
 * The controllers, as kube-controller-manager 1.25 names them for `--controllers`: every name it
 * knows (so its flags carry over), the ones this server runs with how to start them, and the
 * identity each acts as. `tokencleaner` and `bootstrapsigner` are off unless named. The workload,
 * node, volume and networking controllers are known names without a start: this server stores those
 * objects but does not run their controllers.
 */
import type { Secret } from '../apis/core/v1/secret.js';
import type { ServiceAccount } from '../apis/core/v1/serviceaccount.js';
import type { ClusterRole } from '../apis/rbac/v1/clusterrole.js';
import type { AccessReviewer } from '../registry/define-resource.js';
import type { ResourceRegistry } from '../registry/registry.js';
import { startClusterRoleAggregationController } from './clusterrole-aggregation/index.js';
import { startCsrApprovingController } from './csrapproving/index.js';
import { startCsrCleanerController } from './csrcleaner/index.js';
import { startDisruptionController } from './disruption/index.js';
import { startCsrSigningController, type ClusterSigning } from './csrsigning/index.js';
import type { ControllerDescriptor } from './framework/context.js';
import { startGarbageCollector } from './garbage-collector/index.js';
import { startNamespaceController } from './namespace/index.js';
import { startResourceQuotaController } from './resourcequota/index.js';
import { startServiceAccountTokenController } from './serviceaccount-tokens/index.js';
import { serviceAccountControllerDescriptors, type ServiceAccountControllerDeps } from './service-account-descriptors.js';
import { startPvcProtectionController, startPvProtectionController } from './storage-protection/index.js';

export { checkControllerSelection, startControllerManager, type ControllerManager, type ControllerManagerDeps } from './framework/manager.js';
export { DEFAULT_CONTROLLERS } from './framework/selection.js';
export { DEFAULT_LEADER_ELECTION_TIMING, validateLeaderElectionTiming, type LeaderElectionTiming } from './framework/leader-election.js';
export { DEFAULT_CLUSTER_SIGNING_DURATION_MS, type ClusterSigning } from './csrsigning/index.js';
export { controllerManagerLeaseName, controllerManagerUser } from './framework/identity.js';
export type { ControllerContext, ControllerDescriptor, RunningController } from './framework/context.js';

/** What the server hands the controllers it runs. */
export interface ServerControllerDeps {
  registry: ResourceRegistry;
  /** The cluster CA and the signing duration; absent in plain-HTTP mode without signing files (csrsigning then idles). */
  clusterSigning?: ClusterSigning;
  /** Answers SubjectAccessReviews (csrapproving). */
  accessReviewer: AccessReviewer;
  /** The legacy service-account token Secrets' filler; absent without a signing key. */
  serviceAccountTokens?: { caPem: string; signLegacyToken(sa: { namespace: string; name: string; uid: string }, secretName: string): Promise<string> };
  /** The CA pods trust and what cluster-info names (serviceaccount, root-ca-cert-publisher, bootstrapsigner). */
  serviceAccountControllers?: ServiceAccountControllerDeps;
}

/** kube-controller-manager 1.25's controllers that this server knows by name but does not run. */
const NOT_RUN = [
  'attachdetach', 'cloud-node-lifecycle', 'cronjob', 'daemonset', 'deployment', 'endpoint', 'endpointslice',
  'endpointslicemirroring', 'ephemeral-volume', 'horizontalpodautoscaling', 'job', 'nodeipam', 'nodelifecycle',
  'persistentvolume-binder', 'persistentvolume-expander', 'podgc', 'replicaset', 'replicationcontroller',
  'route', 'service', 'statefulset', 'ttl', 'ttl-after-finished',
];

/** Every controller, in kube-controller-manager's names, with how to start the ones this server runs. */
export function controllerDescriptors(deps: ServerControllerDeps): ControllerDescriptor[] {
  const { registry } = deps;
  const run: ControllerDescriptor[] = [
    {
      name: 'namespace',
      serviceAccount: 'namespace-controller',
      start: (ctx) => startNamespaceController({ client: ctx.client, registry, names: ctx.names, log: ctx.log }),
    },
    {
      name: 'garbagecollector',
      serviceAccount: 'generic-garbage-collector',
      start: (ctx) => startGarbageCollector({ client: ctx.client, registry, log: ctx.log }),
    },
    {
      name: 'clusterrole-aggregation',
      serviceAccount: 'clusterrole-aggregation-controller',
      start: (ctx) => {
        const rbacGroup = ctx.names.group('rbac.authorization');
        return startClusterRoleAggregationController({ client: ctx.client, clusterRoles: ctx.listers.for<ClusterRole>(rbacGroup, 'clusterroles'), rbacGroup, log: ctx.log });
      },
    },
    {
      // Mints credentials, so it acts as the controller manager itself, as in Kubernetes.
      name: 'serviceaccount-token',
      start: (ctx) => {
        const tokens = deps.serviceAccountTokens;
        if (!tokens) return { stop: () => undefined };
        return startServiceAccountTokenController({
          client: ctx.client,
          names: ctx.names,
          secrets: ctx.listers.for<Secret>('', 'secrets'),
          serviceAccounts: ctx.listers.for<ServiceAccount>('', 'serviceaccounts'),
          caPem: tokens.caPem,
          signLegacyToken: tokens.signLegacyToken,
          log: ctx.log,
        });
      },
    },
    {
      name: 'csrsigning',
      serviceAccount: 'certificate-controller',
      start: (ctx) => (deps.clusterSigning ? startCsrSigningController(ctx, deps.clusterSigning) : { stop: () => undefined }),
    },
    { name: 'csrapproving', serviceAccount: 'certificate-controller', start: (ctx) => startCsrApprovingController(ctx, deps.accessReviewer) },
    { name: 'disruption', serviceAccount: 'disruption-controller', start: (ctx) => startDisruptionController({ client: ctx.client, listers: ctx.listers, log: ctx.log }) },
    { name: 'csrcleaner', serviceAccount: 'certificate-controller', start: (ctx) => startCsrCleanerController(ctx) },
    ...serviceAccountControllerDescriptors(deps.serviceAccountControllers ?? { caPem: '', clusterInfo: () => undefined }),
    { name: 'pvc-protection', serviceAccount: 'pvc-protection-controller', start: (ctx) => startPvcProtectionController({ client: ctx.client, listers: ctx.listers, names: ctx.names, log: ctx.log }) },
    { name: 'pv-protection', serviceAccount: 'pv-protection-controller', start: (ctx) => startPvProtectionController({ client: ctx.client, listers: ctx.listers, names: ctx.names, log: ctx.log }) },
    { name: 'resourcequota', serviceAccount: 'resourcequota-controller', start: (ctx) => startResourceQuotaController({ client: ctx.client, listers: ctx.listers, names: ctx.names, log: ctx.log }) },
  ];
  return [...run, ...NOT_RUN.map((name) => ({ name }))];
}
