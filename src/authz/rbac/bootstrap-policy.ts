/**
 * The default policy of Kubernetes 1.25 (its bootstrap policy), with every group, label, annotation
 * and signer name under the server's API domain: the roles and bindings the server creates and
 * reconciles at start. Each carries the bootstrapping label and `autoupdate: "true"`; an operator
 * who sets autoupdate to "false" keeps the server's hands off that object.
 */
import type { ClusterRole } from '../../apis/rbac/v1/clusterrole.js';
import type { ClusterRoleBinding } from '../../apis/rbac/v1/clusterrolebinding.js';
import type { Role } from '../../apis/rbac/v1/role.js';
import type { RoleBinding } from '../../apis/rbac/v1/rolebinding.js';
import type { PolicyRule, Subject } from '../../apis/rbac/v1/types.js';
import type { ApiNames } from '../../machinery/api-names.js';

export interface BootstrapPolicy {
  clusterRoles: ClusterRole[];
  clusterRoleBindings: ClusterRoleBinding[];
  /** Roles and bindings in particular namespaces (the public namespace's cluster-info). */
  roles: Role[];
  roleBindings: RoleBinding[];
}

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const READ_WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule => ({
  verbs,
  apiGroups,
  resources,
  ...(resourceNames ? { resourceNames } : {}),
});
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ verbs, nonResourceURLs });

/** The annotation that lets the server reconcile an object at start (`rbac.authorization.orch.io/autoupdate`). */
export function autoupdateAnnotation(names: ApiNames): string {
  return names.labelSubKey('rbac.authorization', 'autoupdate');
}

/** The label an aggregated default role selects on: `rbac.authorization.orch.io/aggregate-to-admin`. */
export function aggregateLabel(names: ApiNames, role: 'admin' | 'edit' | 'view'): string {
  return `${names.group('rbac.authorization')}/aggregate-to-${role}`;
}

export function bootstrapPolicy(names: ApiNames): BootstrapPolicy {
  const rbac = names.group('rbac.authorization');
  const authn = names.group('authentication');
  const authz = names.group('authorization');
  const certificates = names.group('certificates');
  const networking = names.group('networking');
  const discovery = names.group('discovery');
  const coordination = names.group('coordination');
  const meta = (name: string, labels: Record<string, string> = {}, namespace?: string) => ({
    name,
    ...(namespace ? { namespace } : {}),
    labels: { [names.labelKey('bootstrapping')]: 'rbac-defaults', ...labels },
    annotations: { [autoupdateAnnotation(names)]: 'true' },
  });
  const group = (name: string): Subject => ({ kind: 'Group', apiGroup: rbac, name });
  const user = (name: string): Subject => ({ kind: 'User', apiGroup: rbac, name });
  const serviceAccount = (name: string): Subject => ({ kind: 'ServiceAccount', name, namespace: names.systemNamespace });
  const role = (name: string, rules: PolicyRule[], labels?: Record<string, string>): ClusterRole =>
    ({ apiVersion: `${rbac}/v1`, kind: 'ClusterRole', metadata: meta(name, labels), rules }) as ClusterRole;
  const aggregated = (name: 'admin' | 'edit' | 'view'): ClusterRole =>
    ({
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: meta(name),
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [aggregateLabel(names, name)]: 'true' } }] },
      rules: [],
    }) as ClusterRole;
  const binding = (name: string, subjects: Subject[], roleName = name): ClusterRoleBinding =>
    ({ apiVersion: `${rbac}/v1`, kind: 'ClusterRoleBinding', metadata: meta(name), roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: roleName }, subjects }) as ClusterRoleBinding;
  const signer = (signerName: string): string => names.labelKey(signerName);
  const approver = (signerName: string): PolicyRule => rule(['approve'], [certificates], ['signers'], [signer(signerName)]);
  const eventsRule = rule(['create', 'patch', 'update'], ['', names.group('events')], ['events']);

  const clusterRoles: ClusterRole[] = [
    role('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
    role('system:discovery', [urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'])]),
    role('system:monitoring', [urls(['get'], ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'])]),
    role('system:basic-user', [rule(['create'], [authz], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'])]),
    role('system:public-info-viewer', [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])]),
    role('system:service-account-issuer-discovery', [urls(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks'])]),
    aggregated('admin'),
    aggregated('edit'),
    aggregated('view'),
    role('system:aggregate-to-admin', [
      rule(['create'], [authz], ['localsubjectaccessreviews']),
      rule(READ_WRITE, [rbac], ['rolebindings', 'roles']),
    ], { [aggregateLabel(names, 'admin')]: 'true' }),
    role('system:aggregate-to-edit', [
      rule(READ, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(WRITE, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
      rule(['create'], [''], ['pods/eviction']),
      rule(WRITE, [''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy']),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(WRITE, ['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale']),
      rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(WRITE, ['batch'], ['cronjobs', 'jobs']),
      rule(WRITE, ['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale']),
      rule(WRITE, ['policy'], ['poddisruptionbudgets']),
      rule(WRITE, [networking], ['ingresses', 'networkpolicies']),
    ], { [aggregateLabel(names, 'admin')]: 'true', [aggregateLabel(names, 'edit')]: 'true' }),
    role('system:aggregate-to-view', [
      rule(READ, [''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status']),
      rule(READ, [''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status']),
      rule(READ, [''], ['namespaces']),
      rule(READ, [discovery], ['endpointslices']),
      rule(READ, ['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status']),
      rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(READ, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      rule(READ, ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale']),
      rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(READ, [networking], ['ingresses', 'ingresses/status', 'networkpolicies']),
    ], { [aggregateLabel(names, 'admin')]: 'true', [aggregateLabel(names, 'edit')]: 'true', [aggregateLabel(names, 'view')]: 'true' }),
    role('system:auth-delegator', [rule(['create'], [authn], ['tokenreviews']), rule(['create'], [authz], ['subjectaccessreviews'])]),
    role('system:node-bootstrapper', [rule(['create', 'get', 'list', 'watch'], [certificates], ['certificatesigningrequests'])]),
    role(`system:${certificates}:certificatesigningrequests:nodeclient`, [rule(['create'], [certificates], ['certificatesigningrequests/nodeclient'])]),
    role(`system:${certificates}:certificatesigningrequests:selfnodeclient`, [rule(['create'], [certificates], ['certificatesigningrequests/selfnodeclient'])]),
    role(`system:${certificates}:kube-apiserver-client-approver`, [approver('kube-apiserver-client')]),
    role(`system:${certificates}:kube-apiserver-client-kubelet-approver`, [approver('kube-apiserver-client-kubelet')]),
    role(`system:${certificates}:kubelet-serving-approver`, [approver('kubelet-serving')]),
    role(`system:${certificates}:legacy-unknown-approver`, [approver('legacy-unknown')]),
    // One role per controller this server runs in process, as Kubernetes' controller roles.
    role('system:controller:clusterrole-aggregation-controller', [rule(['escalate', 'get', 'list', 'patch', 'update', 'watch'], [rbac], ['clusterroles'])]),
    role('system:controller:generic-garbage-collector', [rule(['delete', 'get', 'list', 'patch', 'update', 'watch'], ['*'], ['*']), eventsRule]),
    role('system:controller:certificate-controller', [
      rule(['delete', 'get', 'list', 'watch'], [certificates], ['certificatesigningrequests']),
      rule(['update'], [certificates], ['certificatesigningrequests/approval', 'certificatesigningrequests/status']),
      rule(['approve'], [certificates], ['signers'], [signer('kube-apiserver-client-kubelet')]),
      rule(['sign'], [certificates], ['signers'], [signer('kube-apiserver-client'), signer('kube-apiserver-client-kubelet'), signer('kubelet-serving'), signer('legacy-unknown')]),
      rule(['create'], [authz], ['subjectaccessreviews']),
      eventsRule,
    ]),
    role('system:controller:disruption-controller', [
      rule(['get', 'list', 'watch'], ['apps', 'extensions'], ['deployments', 'replicasets']),
      rule(['get', 'list', 'watch'], [''], ['replicationcontrollers']),
      rule(['get', 'list', 'watch'], ['policy'], ['poddisruptionbudgets']),
      rule(['get', 'list', 'watch'], ['apps'], ['statefulsets']),
      rule(['update'], ['policy'], ['poddisruptionbudgets/status']),
      rule(['get'], ['*'], ['*/scale']),
      eventsRule,
    ]),
    role('system:controller:pv-protection-controller', [rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumes']), eventsRule]),
    role('system:controller:pvc-protection-controller', [rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']), rule(['get', 'list', 'watch'], [''], ['pods']), eventsRule]),
    // Quota counts anything (count/<resource>.<group>), so it may list and watch everything.
    role('system:controller:resourcequota-controller', [rule(['list', 'watch'], ['*'], ['*']), rule(['update'], [''], ['resourcequotas/status']), eventsRule]),
    role('system:controller:root-ca-cert-publisher', [rule(['create', 'update'], [''], ['configmaps']), eventsRule]),
    role('system:controller:service-account-controller', [rule(['create'], [''], ['serviceaccounts']), eventsRule]),
    // The controller manager's own user: leader election, informers, and the controllers that act as it (serviceaccount-token).
    role(`system:${names.prefix}-controller-manager`, [
      eventsRule,
      rule(['create'], [coordination], ['leases']),
      rule(['get', 'update'], [coordination], ['leases'], [`${names.prefix}-controller-manager`]),
      rule(['create'], [''], ['secrets', 'serviceaccounts']),
      rule(['delete'], [''], ['secrets']),
      rule(['get'], [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
      rule(['update'], [''], ['secrets', 'serviceaccounts']),
      rule(['create'], [authn], ['tokenreviews']),
      rule(['create'], [authz], ['subjectaccessreviews']),
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], [''], ['serviceaccounts/token']),
    ]),
    role('system:controller:namespace-controller', [
      rule(['delete', 'get', 'list', 'watch'], [''], ['namespaces']),
      rule(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
      rule(['delete', 'deletecollection', 'get', 'list'], ['*'], ['*']),
      eventsRule,
    ]),
  ];

  const clusterRoleBindings: ClusterRoleBinding[] = [
    binding('cluster-admin', [group('system:masters')]),
    binding('system:monitoring', [group('system:monitoring')]),
    binding('system:discovery', [group('system:authenticated')]),
    binding('system:basic-user', [group('system:authenticated')]),
    binding('system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
    // Pods verify each other's tokens; anonymous relying parties need an operator's binding, as in Kubernetes.
    binding('system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
    binding(`system:node-bootstrapper`, [group('system:bootstrappers')]),
    binding('system:controller:clusterrole-aggregation-controller', [serviceAccount('clusterrole-aggregation-controller')]),
    binding('system:controller:generic-garbage-collector', [serviceAccount('generic-garbage-collector')]),
    binding('system:controller:namespace-controller', [serviceAccount('namespace-controller')]),
    binding('system:controller:certificate-controller', [serviceAccount('certificate-controller')]),
    binding('system:controller:pv-protection-controller', [serviceAccount('pv-protection-controller')]),
    binding('system:controller:disruption-controller', [serviceAccount('disruption-controller')]),
    binding('system:controller:pvc-protection-controller', [serviceAccount('pvc-protection-controller')]),
    binding('system:controller:resourcequota-controller', [serviceAccount('resourcequota-controller')]),
    binding('system:controller:root-ca-cert-publisher', [serviceAccount('root-ca-cert-publisher')]),
    binding('system:controller:service-account-controller', [serviceAccount('service-account-controller')]),
    binding(`system:${names.prefix}-controller-manager`, [user(`system:${names.prefix}-controller-manager`)]),
  ];

  // Bootstrapping clients read the cluster-info ConfigMap before they have credentials.
  const clusterInfo = 'system:bootstrap-signer-clusterinfo';
  const nsRole = (name: string, namespace: string, rules: PolicyRule[]): Role => ({ apiVersion: `${rbac}/v1`, kind: 'Role', metadata: meta(name, {}, namespace), rules }) as Role;
  const nsBinding = (name: string, namespace: string, subjects: Subject[]): RoleBinding =>
    ({ apiVersion: `${rbac}/v1`, kind: 'RoleBinding', metadata: meta(name, {}, namespace), roleRef: { apiGroup: rbac, kind: 'Role', name }, subjects }) as RoleBinding;
  const system = names.systemNamespace;
  const roles: Role[] = [
    nsRole(clusterInfo, names.publicNamespace, [rule(['get'], [''], ['configmaps'], ['cluster-info'])]),
    // The namespaced controller roles of Kubernetes 1.25 (bootstrap signer, token cleaner).
    nsRole('system:controller:bootstrap-signer', names.publicNamespace, [
      rule(READ, [''], ['configmaps']),
      rule(['update'], [''], ['configmaps'], ['cluster-info']),
      // cluster-info is made when missing (as kubeadm lays it out); Kubernetes' signer only updates it.
      rule(['create'], [''], ['configmaps']),
      eventsRule,
    ]),
    nsRole('system:controller:bootstrap-signer', system, [rule(READ, [''], ['secrets'])]),
    nsRole('system:controller:token-cleaner', system, [rule(['delete', 'get', 'list', 'watch'], [''], ['secrets']), eventsRule]),
  ];
  const roleBindings: RoleBinding[] = [
    nsBinding(clusterInfo, names.publicNamespace, [user('system:anonymous')]),
    nsBinding('system:controller:bootstrap-signer', names.publicNamespace, [serviceAccount('bootstrap-signer')]),
    nsBinding('system:controller:bootstrap-signer', system, [serviceAccount('bootstrap-signer')]),
    nsBinding('system:controller:token-cleaner', system, [serviceAccount('token-cleaner')]),
  ];
  return { clusterRoles, clusterRoleBindings, roles, roleBindings };
}
