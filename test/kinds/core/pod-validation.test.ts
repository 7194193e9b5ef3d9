/** Pod validation on create: Kubernetes' rules, messages and field paths (422 Invalid, one cause each). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectStatus } from '../../rest/fixtures.js';

const NS = 'pod-valid';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const DNS_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const c = (extra: Record<string, unknown> = {}) => ({ name: 'app', image: 'img:1', ...extra });

interface Cause {
  reason: string;
  field: string;
  message: string;
}

/** Each row: what the spec holds, and the causes expected (exactly these, in order). */
const cases: [string, Record<string, unknown>, Partial<Cause>[]][] = [
  ['containers are required', { containers: [] }, [{ reason: 'FieldValueRequired', field: 'spec.containers', message: 'Required value' }]],
  ['a container needs an image', { containers: [{ name: 'app' }] }, [{ reason: 'FieldValueRequired', field: 'spec.containers[0].image', message: 'Required value' }]],
  ['a container name is a DNS label', { containers: [c({ name: 'App_1' })] }, [{ reason: 'FieldValueInvalid', field: 'spec.containers[0].name', message: `Invalid value: "App_1": ${DNS_LABEL_MSG}` }]],
  [
    'container names are unique across init and regular containers',
    { containers: [c(), c({ name: 'side' })], initContainers: [c({ name: 'side' })] },
    [{ reason: 'FieldValueDuplicate', field: 'spec.initContainers[0].name', message: 'Duplicate value: "side"' }],
  ],
  ['container names are unique in a list', { containers: [c(), c()] }, [{ reason: 'FieldValueDuplicate', field: 'spec.containers[1].name', message: 'Duplicate value: "app"' }]],
  [
    'restartPolicy is one of three',
    { containers: [c()], restartPolicy: 'Sometimes' },
    [{ reason: 'FieldValueNotSupported', field: 'spec.restartPolicy', message: 'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"' }],
  ],
  [
    'dnsPolicy is one of four',
    { containers: [c()], dnsPolicy: 'Google' },
    [{ reason: 'FieldValueNotSupported', field: 'spec.dnsPolicy', message: 'Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"' }],
  ],
  [
    'dnsPolicy None needs nameservers',
    { containers: [c()], dnsPolicy: 'None', dnsConfig: {} },
    [{ reason: 'FieldValueRequired', field: 'spec.dnsConfig.nameservers', message: 'Required value: must provide at least one DNS nameserver when `dnsPolicy` is None' }],
  ],
  [
    'ports are numbered 1 to 65535 with a known protocol and unique names',
    { containers: [c({ ports: [{ containerPort: 70000, name: 'web' }, { containerPort: 80, hostPort: -1, name: 'web', protocol: 'ICMP' }] })] },
    [
      { field: 'spec.containers[0].ports[0].containerPort', message: 'Invalid value: 70000: must be between 1 and 65535, inclusive' },
      { reason: 'FieldValueDuplicate', field: 'spec.containers[0].ports[1].name', message: 'Duplicate value: "web"' },
      { field: 'spec.containers[0].ports[1].hostPort', message: 'Invalid value: -1: must be between 1 and 65535, inclusive' },
      { reason: 'FieldValueNotSupported', field: 'spec.containers[0].ports[1].protocol', message: 'Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"' },
    ],
  ],
  [
    'port names are IANA service names',
    { containers: [c({ ports: [{ containerPort: 80, name: 'http-port-too-long' }] })] },
    [{ field: 'spec.containers[0].ports[0].name', message: 'Invalid value: "http-port-too-long": must be no more than 15 characters' }],
  ],
  [
    'host ports are not shared by two containers',
    { containers: [c({ ports: [{ containerPort: 80, hostPort: 8080 }] }), c({ name: 'b', ports: [{ containerPort: 81, hostPort: 8080 }] })] },
    [{ reason: 'FieldValueDuplicate', field: 'spec.containers[1].ports[0].hostPort', message: 'Duplicate value: "/TCP/8080"' }],
  ],
  [
    'on the host network a host port equals its container port',
    { hostNetwork: true, containers: [c({ ports: [{ containerPort: 80, hostPort: 81 }] })] },
    [{ field: 'spec.containers[0].ports[0].hostPort', message: 'Invalid value: 81: must match `containerPort` when `hostNetwork` is true' }],
  ],
  [
    'volume names are unique DNS labels',
    { containers: [c()], volumes: [{ name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }, { name: 'Bad', emptyDir: {} }] },
    [
      { reason: 'FieldValueDuplicate', field: 'spec.volumes[1].name', message: 'Duplicate value: "v"' },
      { field: 'spec.volumes[2].name', message: `Invalid value: "Bad": ${DNS_LABEL_MSG}` },
    ],
  ],
  [
    'a volume has one source',
    { containers: [c()], volumes: [{ name: 'v', emptyDir: {}, secret: { secretName: 's' } }] },
    [{ reason: 'FieldValueForbidden', field: 'spec.volumes[0].secret', message: 'Forbidden: may not specify more than 1 volume type' }],
  ],
  [
    'mounts refer to volumes, at unique paths',
    { containers: [c({ volumeMounts: [{ name: 'missing', mountPath: '/a' }, { name: 'v', mountPath: '/a' }] })], volumes: [{ name: 'v', emptyDir: {} }] },
    [
      { reason: 'FieldValueNotFound', field: 'spec.containers[0].volumeMounts[0].name', message: 'Not found: "missing"' },
      { field: 'spec.containers[0].volumeMounts[1].mountPath', message: 'Invalid value: "/a": must be unique' },
    ],
  ],
  [
    'sub-paths stay inside the volume',
    { containers: [c({ volumeMounts: [{ name: 'v', mountPath: '/a', subPath: '../etc' }] })], volumes: [{ name: 'v', emptyDir: {} }] },
    [{ field: 'spec.containers[0].volumeMounts.subPath', message: `Invalid value: "../etc": must not contain '..'` }],
  ],
  [
    'block devices come from claims only',
    { containers: [c({ volumeDevices: [{ name: 'v', devicePath: '/dev/x' }] })], volumes: [{ name: 'v', emptyDir: {} }] },
    [{ field: 'spec.containers[0].volumeDevices[0].name', message: 'Invalid value: "v": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode' }],
  ],
  [
    'hostPath needs a path and a known type',
    { containers: [c()], volumes: [{ name: 'a', hostPath: { path: '' } }, { name: 'b', hostPath: { path: '/x', type: 'Pipe' } }] },
    [
      { reason: 'FieldValueRequired', field: 'spec.volumes[0].hostPath.path', message: 'Required value' },
      { reason: 'FieldValueNotSupported', field: 'spec.volumes[1].hostPath.type', message: expect.stringContaining('Unsupported value: "Pipe"') as unknown as string },
    ],
  ],
  [
    'secret and configMap volumes name their source and keep modes within 0777',
    { containers: [c()], volumes: [{ name: 'a', secret: { defaultMode: 512 } }, { name: 'b', configMap: { items: [{ key: 'k', path: '/abs', mode: -1 }] } }] },
    [
      { reason: 'FieldValueRequired', field: 'spec.volumes[0].secret.secretName', message: 'Required value' },
      { field: 'spec.volumes[0].secret.defaultMode', message: 'Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive' },
      { reason: 'FieldValueRequired', field: 'spec.volumes[1].configMap.name', message: 'Required value' },
      { field: 'spec.volumes[1].configMap.items[0].path', message: 'Invalid value: "/abs": must be a relative path' },
      { field: 'spec.volumes[1].configMap.items[0].mode', message: 'Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive' },
    ],
  ],
  [
    'a claim volume names its claim',
    { containers: [c()], volumes: [{ name: 'a', persistentVolumeClaim: {} }] },
    [{ reason: 'FieldValueRequired', field: 'spec.volumes[0].persistentVolumeClaim.claimName', message: 'Required value' }],
  ],
  [
    'downward API files read supported fields',
    { containers: [c()], volumes: [{ name: 'a', downwardAPI: { items: [{ path: 'x', fieldRef: { fieldPath: 'spec.nodeName' } }, { path: 'y' }] } }] },
    [
      {
        reason: 'FieldValueNotSupported',
        field: 'spec.volumes[0].downwardAPI.fieldRef.fieldPath',
        message: 'Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
      },
      { reason: 'FieldValueRequired', field: 'spec.volumes[0].downwardAPI', message: 'Required value: one of fieldRef and resourceFieldRef is required' },
    ],
  ],
  [
    // (A token projection without serviceAccountName cannot reach validation through the API: the
    // ServiceAccount admission plugin names `default` first, as in Kubernetes.)
    'projected service account tokens last 10 minutes to 2^32 seconds and need a path',
    { containers: [c()], volumes: [{ name: 'p', projected: { sources: [{ serviceAccountToken: { path: '', expirationSeconds: 60 } }] } }] },
    [
      { field: 'spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds', message: 'Invalid value: 60: may not specify a duration less than 10 minutes' },
      { reason: 'FieldValueRequired', field: 'spec.volumes[0].projected.path', message: 'Required value' },
    ],
  ],
  [
    'projected sources hold one kind each and no duplicate paths',
    { containers: [c()], volumes: [{ name: 'p', projected: { sources: [{ configMap: { name: 'a', items: [{ key: 'k', path: 'x' }] }, secret: { name: 'b', items: [{ key: 'k', path: 'x' }] } }] } }] },
    [
      { field: 'spec.volumes[0].projected', message: 'Invalid value: "a": conflicting duplicate paths' },
      { reason: 'FieldValueForbidden', field: 'spec.volumes[0].projected.sources[0]', message: 'Forbidden: may not specify more than 1 volume type' },
    ],
  ],
  [
    'csi volumes name a valid driver',
    { containers: [c()], volumes: [{ name: 'a', csi: { driver: 'not a driver' } }] },
    [{ field: 'spec.volumes[0].csi.driver', message: expect.stringContaining('Invalid value: "not a driver": a lowercase RFC 1123 subdomain') as unknown as string }],
  ],
  [
    'ephemeral volumes carry a valid claim template',
    { containers: [c()], volumes: [{ name: 'a', ephemeral: {} }, { name: 'b', ephemeral: { volumeClaimTemplate: { spec: { resources: {} } } } }] },
    [
      { reason: 'FieldValueRequired', field: 'spec.volumes[0].ephemeral.volumeClaimTemplate', message: 'Required value' },
      { reason: 'FieldValueRequired', field: 'spec.volumes[1].ephemeral.volumeClaimTemplate.spec.accessModes', message: 'Required value: at least 1 access mode is required' },
      { reason: 'FieldValueRequired', field: 'spec.volumes[1].ephemeral.volumeClaimTemplate.spec.resources[storage]', message: 'Required value' },
    ],
  ],
  [
    'the claim template follows the claim rules: access modes of 1.25, data sources with a group',
    {
      containers: [c()],
      volumes: [
        {
          name: 'a',
          ephemeral: {
            volumeClaimTemplate: {
              spec: { accessModes: ['ReadWriteOncePod'], resources: { requests: { storage: '1Gi' } }, dataSource: { kind: 'Snapshot', name: 's' } },
            },
          },
        },
      ],
    },
    [
      { reason: 'FieldValueNotSupported', field: 'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes', message: 'Unsupported value: "ReadWriteOncePod": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"' },
      { field: 'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.dataSource', message: 'Invalid value: "Snapshot"' },
    ],
  ],
  [
    'sources shared with persistent volumes follow the same rules (nfs, gcePersistentDisk under persistentDisk, fc, hostPath)',
    {
      containers: [c()],
      volumes: [
        { name: 'a', nfs: { server: 'nfs.example', path: 'relative' } },
        { name: 'b', gcePersistentDisk: { pdName: '' } },
        { name: 'c', fc: {} },
        { name: 'd', hostPath: { path: '/a/../b', type: 'Pipe' } },
      ],
    },
    [
      { field: 'spec.volumes[0].nfs.path', message: 'Invalid value: "relative": must be an absolute path' },
      { reason: 'FieldValueRequired', field: 'spec.volumes[1].persistentDisk.pdName' },
      { reason: 'FieldValueRequired', field: 'spec.volumes[2].fc.targetWWNs', message: 'Required value: must specify either targetWWNs or wwids, but not both' },
      { field: 'spec.volumes[3].hostPath.path', message: `Invalid value: "/a/../b": must not contain '..'` },
      { reason: 'FieldValueNotSupported', field: 'spec.volumes[3].hostPath.type' },
    ],
  ],
  [
    'node affinity pins metadata.name to node names, one value each',
    {
      containers: [c()],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['Not_A_Node'] }] }] },
        },
      },
    },
    [
      {
        field: 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]',
        message: expect.stringContaining('Invalid value: "Not_A_Node": a lowercase RFC 1123 subdomain') as unknown as string,
      },
    ],
  ],
  [
    'requests may not exceed limits',
    { containers: [c({ resources: { limits: { cpu: '1' }, requests: { cpu: '2' } } })] },
    [{ field: 'spec.containers[0].resources.requests', message: 'Invalid value: "2": must be less than or equal to cpu limit' }],
  ],
  [
    'resources are named and not negative',
    { containers: [c({ resources: { requests: { gpu: '1', memory: '-1' } } })] },
    [
      { field: 'spec.containers[0].resources.requests[gpu]', message: 'Invalid value: "gpu": must be a standard resource type or fully qualified' },
      { field: 'spec.containers[0].resources.requests[gpu]', message: 'Invalid value: "gpu": must be a standard resource for containers' },
      { field: 'spec.containers[0].resources.requests[memory]', message: 'Invalid value: "-1": must be greater than or equal to 0' },
    ],
  ],
  [
    'extended resources are whole numbers with requests equal to limits',
    { containers: [c({ resources: { limits: { 'example.com/gpu': '2' }, requests: { 'example.com/gpu': '1', 'example.com/fpga': '500m' } } })] },
    [
      { field: 'spec.containers[0].resources.requests', message: 'Invalid value: "1": must be equal to example.com/gpu limit' },
      { field: 'spec.containers[0].resources.requests[example.com/fpga]', message: 'Invalid value: "500m": must be an integer' },
      { reason: 'FieldValueRequired', field: 'spec.containers[0].resources.limits', message: 'Required value: Limit must be set for non overcommitable resources' },
    ],
  ],
  [
    'env names are valid and valueFrom has one source',
    { containers: [c({ env: [{ name: '1BAD' }, { name: 'X', value: 'v', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'Y', valueFrom: {} }] })] },
    [
      { field: 'spec.containers[0].env[0].name', message: expect.stringContaining('Invalid value: "1BAD": a valid environment variable name') as unknown as string },
      { field: 'spec.containers[0].env[1].valueFrom', message: 'Invalid value: "": may not be specified when `value` is not empty' },
      { field: 'spec.containers[0].env[2].valueFrom', message: 'Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`' },
    ],
  ],
  [
    'env fieldRef reads fields pods expose',
    { containers: [c({ env: [{ name: 'P', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } }, { name: 'Q', valueFrom: { fieldRef: { fieldPath: 'spec.nope' } } }] })] },
    [
      { reason: 'FieldValueNotSupported', field: 'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath', message: expect.stringContaining('Unsupported value: "status.phase"') as unknown as string },
      { field: 'spec.containers[0].env[1].valueFrom.fieldRef.fieldPath', message: 'Invalid value: "spec.nope": error converting fieldPath: field label not supported: spec.nope' },
    ],
  ],
  [
    'envFrom names one source',
    { containers: [c({ envFrom: [{ configMapRef: { name: 'a' }, secretRef: { name: 'b' } }] })] },
    [{ field: 'spec.containers[0].envFrom', message: 'Invalid value: "": may not have more than one field specified at a time' }],
  ],
  [
    'probes have exactly one handler and sensible numbers',
    {
      containers: [
        c({
          livenessProbe: { exec: { command: ['x'] }, tcpSocket: { port: 80 }, successThreshold: 2 },
          readinessProbe: { periodSeconds: -1, httpGet: { port: 0 }, terminationGracePeriodSeconds: 5 },
          startupProbe: {},
        }),
      ],
    },
    [
      { reason: 'FieldValueForbidden', field: 'spec.containers[0].livenessProbe.tcpSocket', message: 'Forbidden: may not specify more than 1 handler type' },
      { field: 'spec.containers[0].readinessProbe.terminationGracePeriodSeconds', message: 'Invalid value: 5: must not be set for readinessProbes' },
      { field: 'spec.containers[0].readinessProbe.httpGet.port', message: 'Invalid value: 0: must be between 1 and 65535, inclusive' },
      { field: 'spec.containers[0].readinessProbe.periodSeconds', message: 'Invalid value: -1: must be greater than or equal to 0' },
      { field: 'spec.containers[0].livenessProbe.successThreshold', message: 'Invalid value: 2: must be 1' },
      { reason: 'FieldValueRequired', field: 'spec.containers[0].startupProbe', message: 'Required value: must specify a handler type' },
    ],
  ],
  [
    'init containers have no probes or hooks',
    { containers: [c()], initContainers: [c({ name: 'init', readinessProbe: { exec: { command: ['x'] } }, lifecycle: { preStop: { exec: { command: ['x'] } } } })] },
    [
      { reason: 'FieldValueForbidden', field: 'spec.initContainers[0].lifecycle', message: 'Forbidden: may not be set for init containers' },
      { reason: 'FieldValueForbidden', field: 'spec.initContainers[0].readinessProbe', message: 'Forbidden: may not be set for init containers' },
    ],
  ],
  [
    'pull and termination message policies are known values',
    { containers: [c({ imagePullPolicy: 'Sometimes', terminationMessagePolicy: 'Log' })] },
    [
      { field: 'spec.containers[0].terminationMessagePolicy', message: `Invalid value: "Log": must be 'File' or 'FallbackToLogsOnError'` },
      { reason: 'FieldValueNotSupported', field: 'spec.containers[0].imagePullPolicy', message: 'Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"' },
    ],
  ],
  [
    'security contexts keep ids in range and privilege consistent',
    {
      containers: [c({ securityContext: { runAsUser: -1, privileged: true, allowPrivilegeEscalation: false } })],
      securityContext: { fsGroup: -5, seccompProfile: { type: 'Localhost' } },
    },
    [
      { field: 'spec.containers[0].securityContext.runAsUser', message: 'Invalid value: -1: must be between 0 and 2147483647, inclusive' },
      { field: 'spec.containers[0].securityContext', message: expect.stringContaining('cannot set `allowPrivilegeEscalation` to false and `privileged` to true') as unknown as string },
      { field: 'spec.securityContext.fsGroup', message: 'Invalid value: -5: must be between 0 and 2147483647, inclusive' },
      { reason: 'FieldValueRequired', field: 'spec.securityContext.seccompProfile.localhostProfile', message: 'Required value: must be set when seccomp type is Localhost' },
    ],
  ],
  [
    'tolerations follow the operator rules',
    { containers: [c()], tolerations: [{ operator: 'Equal', value: 'x' }, { key: 'k', operator: 'Exists', value: 'v' }, { key: 'k', tolerationSeconds: 5, effect: 'NoSchedule' }] },
    [
      { field: 'spec.tolerations[0].operator', message: 'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"' },
      { field: 'spec.tolerations[1].operator', message: expect.stringContaining("value must be empty when `operator` is 'Exists'") as unknown as string },
      { field: 'spec.tolerations[2].effect', message: `Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set` },
    ],
  ],
  [
    'affinity terms are well formed',
    {
      containers: [c()],
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] }, preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: {} }] },
        podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: '' }] },
      },
    },
    [
      { reason: 'FieldValueRequired', field: 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms', message: 'Required value: must have at least one node selector term' },
      { field: 'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight', message: 'Invalid value: 0: must be in the range 1-100' },
      { reason: 'FieldValueRequired', field: 'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey', message: 'Required value: can not be empty' },
      { field: 'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey', message: expect.stringContaining('name part must be non-empty') as unknown as string },
    ],
  ],
  [
    'topology spread constraints are positive, known and not repeated',
    {
      containers: [c()],
      topologySpreadConstraints: [
        { maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'Maybe' },
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'Maybe', minDomains: 2 },
      ],
    },
    [
      { field: 'spec.topologySpreadConstraints[0].maxSkew', message: 'Invalid value: 0: must be greater than zero' },
      { reason: 'FieldValueNotSupported', field: 'spec.topologySpreadConstraints[0].whenUnsatisfiable', message: 'Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"' },
      { reason: 'FieldValueDuplicate', field: 'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}', message: 'Duplicate value: "{zone, Maybe}"' },
      { reason: 'FieldValueNotSupported', field: 'spec.topologySpreadConstraints[1].whenUnsatisfiable' },
      { field: 'spec.topologySpreadConstraints[1].minDomains', message: 'Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not Maybe' },
    ],
  ],
  [
    // (An account name that is no DNS name is refused earlier, by ServiceAccount admission: no such account.)
    'names of nodes, hosts and classes are DNS names',
    { containers: [c()], nodeName: 'Node_1', hostname: 'a.b', priorityClassName: 'x y' },
    [
      { field: 'spec.nodeName' },
      { field: 'spec.hostname', message: `Invalid value: "a.b": ${DNS_LABEL_MSG}` },
      { field: 'spec.priorityClassName' },
    ],
  ],
  [
    'activeDeadlineSeconds is positive',
    { containers: [c()], activeDeadlineSeconds: 0 },
    [{ field: 'spec.activeDeadlineSeconds', message: 'Invalid value: 0: must be between 1 and 2147483647, inclusive' }],
  ],
  [
    'host aliases hold IP addresses',
    { containers: [c()], hostAliases: [{ ip: 'not-an-ip', hostnames: ['ok.local'] }] },
    [{ field: 'spec.hostAliases.ip', message: 'Invalid value: "not-an-ip": must be valid IP address' }],
  ],
  [
    'preemptionPolicy and os are known values',
    { containers: [c()], preemptionPolicy: 'Always', os: { name: 'plan9' } },
    [
      { reason: 'FieldValueNotSupported', field: 'spec.preemptionPolicy', message: 'Unsupported value: "Always": supported values: "Never", "PreemptLowerPriority"' },
      { reason: 'FieldValueNotSupported', field: 'spec.os', message: 'Unsupported value: "plan9": supported values: "linux", "windows"' },
    ],
  ],
  [
    'ephemeral containers cannot be set on create',
    { containers: [c()], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] },
    [{ reason: 'FieldValueForbidden', field: 'spec.ephemeralContainers', message: 'Forbidden: cannot be set on create' }],
  ],
  [
    'images have no surrounding whitespace',
    { containers: [c({ image: ' img:1' })] },
    [{ field: 'spec.containers[0].image', message: 'Invalid value: " img:1": must not have leading or trailing whitespace' }],
  ],
];

describe('Pod validation', () => {
  let s: TestServer;
  let n = 0;
  beforeAll(async () => {
    // The strategy's validation alone: Priority would refuse an unknown class first, as in Kubernetes
    // (its own tests are under test/admission).
    s = await startTestServer({ admission: { disablePlugins: ['Priority'] } });
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it.each(cases)('%s', async (_what, spec, expected) => {
    const name = `v-${++n}`;
    const r = await s.post(PODS, { metadata: { name }, spec });
    const st = expectStatus(r, 422, 'Invalid');
    expect(st.details).toMatchObject({ name, kind: 'Pod' });
    expect(st.details.causes).toHaveLength(expected.length);
    expected.forEach((e, i) => expect(st.details.causes[i]).toMatchObject(e));
    expect((await s.get(`${PODS}/${name}`)).status).toBe(404);
  });

  it('names the pod by DNS subdomain rules', async () => {
    const st = expectStatus(await s.post(PODS, { metadata: { name: 'Bad_Name' }, spec: { containers: [c()] } }), 422, 'Invalid');
    expect(st.details.causes[0].field).toBe('metadata.name');
    expect((await s.post(PODS, { metadata: { name: 'a.b-c' }, spec: { containers: [c()] } })).status).toBe(201);
  });
});
