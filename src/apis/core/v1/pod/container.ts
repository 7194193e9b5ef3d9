/**
 * Container and EphemeralContainer with their parts: ports, environment, mounts and devices.
 * An ephemeral container has a container's fields (most of them refused by validation) plus a target.
 */
import { t, type Infer } from '../../../../schema/index.js';
import { LocalObjectReference, ResourceRequirements } from '../types/index.js';
import { Lifecycle, Probe } from './probes.js';
import { SecurityContext } from './security-context.js';

export const ContainerPort = t.struct('core.v1.ContainerPort', {
  name: t.field(1, t.string()),
  hostPort: t.field(2, t.int32()),
  containerPort: t.required(3, t.int32(), { always: true }),
  protocol: t.field(4, t.string(), { default: 'TCP' }),
  hostIP: t.field(5, t.string()),
});
export type ContainerPort = Infer<typeof ContainerPort>;

export const ConfigMapEnvSource = t.struct('core.v1.ConfigMapEnvSource', {
  ...t.inline(1, 'localObjectReference', LocalObjectReference),
  optional: t.field(2, t.bool(), { pointer: true }),
});
export type ConfigMapEnvSource = Infer<typeof ConfigMapEnvSource>;

export const SecretEnvSource = t.struct('core.v1.SecretEnvSource', {
  ...t.inline(1, 'localObjectReference', LocalObjectReference),
  optional: t.field(2, t.bool(), { pointer: true }),
});
export type SecretEnvSource = Infer<typeof SecretEnvSource>;

export const EnvFromSource = t.struct('core.v1.EnvFromSource', {
  prefix: t.field(1, t.string()),
  configMapRef: t.field(2, ConfigMapEnvSource, { pointer: true }),
  secretRef: t.field(3, SecretEnvSource, { pointer: true }),
});
export type EnvFromSource = Infer<typeof EnvFromSource>;

export const ObjectFieldSelector = t.struct('core.v1.ObjectFieldSelector', {
  apiVersion: t.field(1, t.string()),
  fieldPath: t.required(2, t.string(), { always: true }),
}, { structType: 'atomic' });
export type ObjectFieldSelector = Infer<typeof ObjectFieldSelector>;

export const ResourceFieldSelector = t.struct('core.v1.ResourceFieldSelector', {
  containerName: t.field(1, t.string()),
  resource: t.required(2, t.string(), { always: true }),
  divisor: t.field(3, t.quantity()),
}, { structType: 'atomic' });
export type ResourceFieldSelector = Infer<typeof ResourceFieldSelector>;

export const ConfigMapKeySelector = t.struct('core.v1.ConfigMapKeySelector', {
  ...t.inline(1, 'localObjectReference', LocalObjectReference),
  key: t.required(2, t.string(), { always: true }),
  optional: t.field(3, t.bool(), { pointer: true }),
}, { structType: 'atomic' });
export type ConfigMapKeySelector = Infer<typeof ConfigMapKeySelector>;

export const SecretKeySelector = t.struct('core.v1.SecretKeySelector', {
  ...t.inline(1, 'localObjectReference', LocalObjectReference),
  key: t.required(2, t.string(), { always: true }),
  optional: t.field(3, t.bool(), { pointer: true }),
}, { structType: 'atomic' });
export type SecretKeySelector = Infer<typeof SecretKeySelector>;

export const EnvVarSource = t.struct('core.v1.EnvVarSource', {
  fieldRef: t.field(1, ObjectFieldSelector, { pointer: true }),
  resourceFieldRef: t.field(2, ResourceFieldSelector, { pointer: true }),
  configMapKeyRef: t.field(3, ConfigMapKeySelector, { pointer: true }),
  secretKeyRef: t.field(4, SecretKeySelector, { pointer: true }),
});
export type EnvVarSource = Infer<typeof EnvVarSource>;

export const EnvVar = t.struct('core.v1.EnvVar', {
  name: t.required(1, t.string(), { always: true }),
  value: t.field(2, t.string()),
  valueFrom: t.field(3, EnvVarSource, { pointer: true }),
});
export type EnvVar = Infer<typeof EnvVar>;

export const VolumeMount = t.struct('core.v1.VolumeMount', {
  name: t.required(1, t.string(), { always: true }),
  readOnly: t.field(2, t.bool()),
  mountPath: t.required(3, t.string(), { always: true }),
  subPath: t.field(4, t.string()),
  mountPropagation: t.field(5, t.string(), { pointer: true }),
  subPathExpr: t.field(6, t.string()),
});
export type VolumeMount = Infer<typeof VolumeMount>;

export const VolumeDevice = t.struct('core.v1.VolumeDevice', {
  name: t.required(1, t.string(), { always: true }),
  devicePath: t.required(2, t.string(), { always: true }),
});
export type VolumeDevice = Infer<typeof VolumeDevice>;

/** The fields of a container, shared by Container and EphemeralContainerCommon (one Go layout). */
const containerFields = {
  name: t.required(1, t.string(), { always: true }),
  image: t.field(2, t.string()),
  command: t.field(3, t.list(t.string())),
  args: t.field(4, t.list(t.string())),
  workingDir: t.field(5, t.string()),
  ports: t.field(6, t.list(ContainerPort, { listType: 'map', listMapKeys: ['containerPort', 'protocol'], patchStrategy: 'merge', patchMergeKey: 'containerPort' })),
  envFrom: t.field(19, t.list(EnvFromSource)),
  env: t.field(7, t.list(EnvVar, { patchStrategy: 'merge', patchMergeKey: 'name' })),
  resources: t.field(8, ResourceRequirements),
  volumeMounts: t.field(9, t.list(VolumeMount, { patchStrategy: 'merge', patchMergeKey: 'mountPath' })),
  volumeDevices: t.field(21, t.list(VolumeDevice, { patchStrategy: 'merge', patchMergeKey: 'devicePath' })),
  livenessProbe: t.field(10, Probe, { pointer: true }),
  readinessProbe: t.field(11, Probe, { pointer: true }),
  startupProbe: t.field(22, Probe, { pointer: true }),
  lifecycle: t.field(12, Lifecycle, { pointer: true }),
  terminationMessagePath: t.field(13, t.string()),
  terminationMessagePolicy: t.field(20, t.string()),
  imagePullPolicy: t.field(14, t.string()),
  securityContext: t.field(15, SecurityContext, { pointer: true }),
  stdin: t.field(16, t.bool()),
  stdinOnce: t.field(17, t.bool()),
  tty: t.field(18, t.bool()),
};

export const Container = t.struct('core.v1.Container', containerFields, {
  description: 'A program to run in a pod: its image, command, environment, resources, mounts and probes.',
});
export type Container = Infer<typeof Container>;

/** The container fields of an ephemeral container, a separate Go type with the same fields. */
export const EphemeralContainerCommon = t.struct('core.v1.EphemeralContainerCommon', containerFields);
export type EphemeralContainerCommon = Infer<typeof EphemeralContainerCommon>;

export const EphemeralContainer = t.struct('core.v1.EphemeralContainer', {
  ...t.inline(1, 'ephemeralContainerCommon', EphemeralContainerCommon),
  targetContainerName: t.field(2, t.string()),
});
export type EphemeralContainer = Infer<typeof EphemeralContainer>;

