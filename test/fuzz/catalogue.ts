/**
 * The kinds the fuzzer writes and reads, each with a valid object to start from. Written here by hand
 * (not taken from the server's own fixtures) so that the fuzzer knows the API only as a client does.
 */
export interface Kind {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  subresources: readonly string[];
  /** The fields of a valid object besides apiVersion, kind and metadata. */
  sample(): Record<string, unknown>;
  /** Names must be DNS labels (services, namespaces): the generator keeps valid names short and lowercase. */
  dnsLabel?: boolean;
}

export const DOMAIN = 'orch.io';
export const PROTOBUF_TYPE = 'application/vnd.orch.protobuf';

const podTemplate = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } };

export const KINDS: readonly Kind[] = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, subresources: [], sample: () => ({ data: { key: 'value' } }) },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true, subresources: [], sample: () => ({ type: 'Opaque', stringData: { password: 's3cret' } }) },
  {
    group: '',
    version: 'v1',
    resource: 'services',
    kind: 'Service',
    namespaced: true,
    subresources: ['status'],
    dnsLabel: true,
    sample: () => ({ spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] } }),
  },
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, subresources: ['status'], sample: () => ({ spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } }) },
  { group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true, subresources: [], sample: () => ({ automountServiceAccountToken: false }) },
  {
    group: '',
    version: 'v1',
    resource: 'persistentvolumeclaims',
    kind: 'PersistentVolumeClaim',
    namespaced: true,
    subresources: ['status'],
    sample: () => ({ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
  },
  {
    group: '',
    version: 'v1',
    resource: 'events',
    kind: 'Event',
    namespaced: true,
    subresources: [],
    sample: () => ({ involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' }, reason: 'Tested', message: 'a fuzz event', type: 'Normal' }),
  },
  { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, subresources: ['status', 'finalize'], dnsLabel: true, sample: () => ({ spec: {} }) },
  { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false, subresources: ['status'], sample: () => ({ spec: { podCIDRs: ['10.244.0.0/24'] } }) },
  {
    group: '',
    version: 'v1',
    resource: 'persistentvolumes',
    kind: 'PersistentVolume',
    namespaced: false,
    subresources: ['status'],
    sample: () => ({ spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/fuzz' } } }),
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    kind: 'Deployment',
    namespaced: true,
    subresources: ['status', 'scale'],
    sample: () => ({ spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: podTemplate } }),
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'replicasets',
    kind: 'ReplicaSet',
    namespaced: true,
    subresources: ['status', 'scale'],
    sample: () => ({ spec: { selector: { matchLabels: { app: 'web' } }, template: podTemplate } }),
  },
  {
    group: `rbac.authorization.${DOMAIN}`,
    version: 'v1',
    resource: 'roles',
    kind: 'Role',
    namespaced: true,
    subresources: [],
    sample: () => ({ rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }] }),
  },
  {
    group: `rbac.authorization.${DOMAIN}`,
    version: 'v1',
    resource: 'clusterrolebindings',
    kind: 'ClusterRoleBinding',
    namespaced: false,
    subresources: [],
    sample: () => ({ roleRef: { apiGroup: `rbac.authorization.${DOMAIN}`, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'Group', name: 'readers' }] }),
  },
  {
    group: `networking.${DOMAIN}`,
    version: 'v1',
    resource: 'ingresses',
    kind: 'Ingress',
    namespaced: true,
    subresources: ['status'],
    sample: () => ({ spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } } }),
  },
  {
    group: `discovery.${DOMAIN}`,
    version: 'v1',
    resource: 'endpointslices',
    kind: 'EndpointSlice',
    namespaced: true,
    subresources: [],
    sample: () => ({ addressType: 'IPv4', endpoints: [{ addresses: ['10.1.2.3'] }], ports: [{ name: 'http', port: 80 }] }),
  },
  {
    group: `flowcontrol.apiserver.${DOMAIN}`,
    version: 'v1beta2',
    resource: 'prioritylevelconfigurations',
    kind: 'PriorityLevelConfiguration',
    namespaced: false,
    subresources: ['status'],
    sample: () => ({ spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } }),
  },
  {
    group: `certificates.${DOMAIN}`,
    version: 'v1',
    resource: 'certificatesigningrequests',
    kind: 'CertificateSigningRequest',
    namespaced: false,
    subresources: ['status', 'approval'],
    // Not a valid PKCS#10 request: creates are refused (422), which is what the fuzzer wants here.
    sample: () => ({ spec: { request: Buffer.from('not a csr').toString('base64'), signerName: 'example.com/fuzz', usages: ['client auth'] } }),
  },
  {
    group: `admissionregistration.${DOMAIN}`,
    version: 'v1',
    resource: 'validatingwebhookconfigurations',
    kind: 'ValidatingWebhookConfiguration',
    namespaced: false,
    subresources: [],
    sample: () => ({ webhooks: [] }),
  },
];

export const apiVersionOf = (k: Kind): string => (k.group ? `${k.group}/${k.version}` : k.version);
export const prefixOf = (k: Kind): string => (k.group ? `/apis/${k.group}/${k.version}` : `/api/${k.version}`);
