/** What a pod is, as last observed: phase, conditions, addresses and the state of each container. */
import { probedConditionFields, t, type Infer } from '../../../../schema/index.js';

export const PodCondition = t.struct('core.v1.PodCondition', probedConditionFields());
export type PodCondition = Infer<typeof PodCondition>;

export const PodIP = t.struct('core.v1.PodIP', {
  ip: t.field(1, t.string()),
});
export type PodIP = Infer<typeof PodIP>;

export const ContainerStateWaiting = t.struct('core.v1.ContainerStateWaiting', {
  reason: t.field(1, t.string()),
  message: t.field(2, t.string()),
});
export type ContainerStateWaiting = Infer<typeof ContainerStateWaiting>;

export const ContainerStateRunning = t.struct('core.v1.ContainerStateRunning', {
  startedAt: t.field(1, t.time()),
});
export type ContainerStateRunning = Infer<typeof ContainerStateRunning>;

export const ContainerStateTerminated = t.struct('core.v1.ContainerStateTerminated', {
  exitCode: t.required(1, t.int32(), { always: true }),
  signal: t.field(2, t.int32()),
  reason: t.field(3, t.string()),
  message: t.field(4, t.string()),
  startedAt: t.field(5, t.time()),
  finishedAt: t.field(6, t.time()),
  containerID: t.field(7, t.string()),
});
export type ContainerStateTerminated = Infer<typeof ContainerStateTerminated>;

export const ContainerState = t.struct('core.v1.ContainerState', {
  waiting: t.field(1, ContainerStateWaiting, { pointer: true }),
  running: t.field(2, ContainerStateRunning, { pointer: true }),
  terminated: t.field(3, ContainerStateTerminated, { pointer: true }),
});
export type ContainerState = Infer<typeof ContainerState>;

export const ContainerStatus = t.struct('core.v1.ContainerStatus', {
  name: t.required(1, t.string(), { always: true }),
  state: t.field(2, ContainerState),
  lastState: t.field(3, ContainerState),
  ready: t.required(4, t.bool(), { always: true }),
  restartCount: t.required(5, t.int32(), { always: true }),
  image: t.required(6, t.string(), { always: true }),
  imageID: t.required(7, t.string(), { always: true }),
  containerID: t.field(8, t.string()),
  started: t.field(9, t.bool(), { pointer: true }),
});
export type ContainerStatus = Infer<typeof ContainerStatus>;

export const PodStatus = t.struct('core.v1.PodStatus', {
  phase: t.field(1, t.string()),
  conditions: t.field(2, t.list(PodCondition, { patchStrategy: 'merge', patchMergeKey: 'type' })),
  message: t.field(3, t.string()),
  reason: t.field(4, t.string()),
  nominatedNodeName: t.field(11, t.string()),
  hostIP: t.field(5, t.string()),
  podIP: t.field(6, t.string()),
  podIPs: t.field(12, t.list(PodIP, { patchStrategy: 'merge', patchMergeKey: 'ip' })),
  startTime: t.field(7, t.time(), { pointer: true }),
  initContainerStatuses: t.field(10, t.list(ContainerStatus)),
  containerStatuses: t.field(8, t.list(ContainerStatus)),
  qosClass: t.field(9, t.string()),
  ephemeralContainerStatuses: t.field(13, t.list(ContainerStatus)),
});
export type PodStatus = Infer<typeof PodStatus>;

