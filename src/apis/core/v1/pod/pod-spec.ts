/** PodSpec and PodTemplateSpec: the desired state of a pod, shared by Pod and the workload kinds. */
import { ObjectMeta, t, type Infer } from '../../../../schema/index.js';
import { LocalObjectReference, ResourceList, Toleration } from '../types/index.js';
import { Affinity, TopologySpreadConstraint } from './affinity.js';
import { Container, EphemeralContainer } from './container.js';
import { PodSecurityContext } from './security-context.js';
import { Volume } from './volumes.js';

export const HostAlias = t.struct('core.v1.HostAlias', {
  ip: t.field(1, t.string()),
  hostnames: t.field(2, t.list(t.string())),
});
export type HostAlias = Infer<typeof HostAlias>;

export const PodDNSConfigOption = t.struct('core.v1.PodDNSConfigOption', {
  name: t.field(1, t.string()),
  value: t.field(2, t.string(), { pointer: true }),
});
export type PodDNSConfigOption = Infer<typeof PodDNSConfigOption>;

export const PodDNSConfig = t.struct('core.v1.PodDNSConfig', {
  nameservers: t.field(1, t.list(t.string())),
  searches: t.field(2, t.list(t.string())),
  options: t.field(3, t.list(PodDNSConfigOption)),
});
export type PodDNSConfig = Infer<typeof PodDNSConfig>;

export const PodReadinessGate = t.struct('core.v1.PodReadinessGate', {
  conditionType: t.required(1, t.string(), { always: true }),
});
export type PodReadinessGate = Infer<typeof PodReadinessGate>;

export const PodOS = t.struct('core.v1.PodOS', {
  name: t.required(1, t.string(), { always: true }),
});
export type PodOS = Infer<typeof PodOS>;

export const PodSpec = t.struct('core.v1.PodSpec', {
  volumes: t.field(1, t.list(Volume, { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' })),
  initContainers: t.field(20, t.list(Container, { patchStrategy: 'merge', patchMergeKey: 'name' })),
  containers: t.required(2, t.list(Container, { patchStrategy: 'merge', patchMergeKey: 'name' }), { always: true }),
  ephemeralContainers: t.field(34, t.list(EphemeralContainer, { patchStrategy: 'merge', patchMergeKey: 'name' })),
  restartPolicy: t.field(3, t.string()),
  terminationGracePeriodSeconds: t.field(4, t.int64(), { pointer: true }),
  activeDeadlineSeconds: t.field(5, t.int64(), { pointer: true }),
  dnsPolicy: t.field(6, t.string()),
  nodeSelector: t.field(7, t.map(t.string(), { mapType: 'atomic' })),
  serviceAccountName: t.field(8, t.string()),
  serviceAccount: t.field(9, t.string()),
  automountServiceAccountToken: t.field(21, t.bool(), { pointer: true }),
  nodeName: t.field(10, t.string()),
  hostNetwork: t.field(11, t.bool()),
  hostPID: t.field(12, t.bool()),
  hostIPC: t.field(13, t.bool()),
  shareProcessNamespace: t.field(27, t.bool(), { pointer: true }),
  securityContext: t.field(14, PodSecurityContext, { pointer: true }),
  imagePullSecrets: t.field(15, t.list(LocalObjectReference, { patchStrategy: 'merge', patchMergeKey: 'name' })),
  hostname: t.field(16, t.string()),
  subdomain: t.field(17, t.string()),
  affinity: t.field(18, Affinity, { pointer: true }),
  schedulerName: t.field(19, t.string()),
  tolerations: t.field(22, t.list(Toleration)),
  hostAliases: t.field(23, t.list(HostAlias, { patchStrategy: 'merge', patchMergeKey: 'ip' })),
  priorityClassName: t.field(24, t.string()),
  priority: t.field(25, t.int32(), { pointer: true }),
  dnsConfig: t.field(26, PodDNSConfig, { pointer: true }),
  readinessGates: t.field(28, t.list(PodReadinessGate)),
  runtimeClassName: t.field(29, t.string(), { pointer: true }),
  enableServiceLinks: t.field(30, t.bool(), { pointer: true }),
  preemptionPolicy: t.field(31, t.string(), { pointer: true }),
  overhead: t.field(32, ResourceList),
  topologySpreadConstraints: t.field(33, t.list(TopologySpreadConstraint, { listType: 'map', listMapKeys: ['topologyKey', 'whenUnsatisfiable'], patchStrategy: 'merge', patchMergeKey: 'topologyKey' })),
  setHostnameAsFQDN: t.field(35, t.bool(), { pointer: true }),
  os: t.field(36, PodOS, { pointer: true }),
  hostUsers: t.field(37, t.bool(), { pointer: true }),
});
export type PodSpec = Infer<typeof PodSpec>;

export const PodTemplateSpec = t.struct('core.v1.PodTemplateSpec', {
  metadata: t.field(1, ObjectMeta),
  spec: t.field(2, PodSpec),
});
export type PodTemplateSpec = Infer<typeof PodTemplateSpec>;
