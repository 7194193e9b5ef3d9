/** Probes and lifecycle hooks of a container: what the kubelet runs or calls, and when. */
import { t, type Infer } from '../../../../schema/index.js';

export const ExecAction = t.struct('core.v1.ExecAction', {
  command: t.field(1, t.list(t.string())),
});
export type ExecAction = Infer<typeof ExecAction>;

export const HTTPHeader = t.struct('core.v1.HTTPHeader', {
  name: t.required(1, t.string(), { always: true }),
  value: t.required(2, t.string(), { always: true }),
});
export type HTTPHeader = Infer<typeof HTTPHeader>;

export const HTTPGetAction = t.struct('core.v1.HTTPGetAction', {
  path: t.field(1, t.string()),
  port: t.required(2, t.intOrString(), { always: true }),
  host: t.field(3, t.string()),
  scheme: t.field(4, t.string()),
  httpHeaders: t.field(5, t.list(HTTPHeader)),
});
export type HTTPGetAction = Infer<typeof HTTPGetAction>;

export const TCPSocketAction = t.struct('core.v1.TCPSocketAction', {
  port: t.required(1, t.intOrString(), { always: true }),
  host: t.field(2, t.string()),
});
export type TCPSocketAction = Infer<typeof TCPSocketAction>;

export const GRPCAction = t.struct('core.v1.GRPCAction', {
  port: t.required(1, t.int32(), { always: true }),
  service: t.field(2, t.string(), { pointer: true }),
});
export type GRPCAction = Infer<typeof GRPCAction>;

export const ProbeHandler = t.struct('core.v1.ProbeHandler', {
  exec: t.field(1, ExecAction, { pointer: true }),
  httpGet: t.field(2, HTTPGetAction, { pointer: true }),
  tcpSocket: t.field(3, TCPSocketAction, { pointer: true }),
  grpc: t.field(4, GRPCAction, { pointer: true }),
});
export type ProbeHandler = Infer<typeof ProbeHandler>;

export const Probe = t.struct('core.v1.Probe', {
  ...t.inline(1, 'handler', ProbeHandler),
  initialDelaySeconds: t.field(2, t.int32()),
  timeoutSeconds: t.field(3, t.int32()),
  periodSeconds: t.field(4, t.int32()),
  successThreshold: t.field(5, t.int32()),
  failureThreshold: t.field(6, t.int32()),
  terminationGracePeriodSeconds: t.field(7, t.int64(), { pointer: true }),
});
export type Probe = Infer<typeof Probe>;

export const LifecycleHandler = t.struct('core.v1.LifecycleHandler', {
  exec: t.field(1, ExecAction, { pointer: true }),
  httpGet: t.field(2, HTTPGetAction, { pointer: true }),
  tcpSocket: t.field(3, TCPSocketAction, { pointer: true }),
});
export type LifecycleHandler = Infer<typeof LifecycleHandler>;

export const Lifecycle = t.struct('core.v1.Lifecycle', {
  postStart: t.field(1, LifecycleHandler, { pointer: true }),
  preStop: t.field(2, LifecycleHandler, { pointer: true }),
});
export type Lifecycle = Infer<typeof Lifecycle>;

