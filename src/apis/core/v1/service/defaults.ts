/** Kubernetes' defaulting of a v1 Service (SetDefaults_Service). Mutates its argument. */
import { DEFAULT_CLIENT_IP_TIMEOUT_SECONDS, externallyAccessible } from './helpers.js';
import type { Service } from './schema.js';

export function defaultService(svc: Service): void {
  const spec = svc.spec;
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_TIMEOUT_SECONDS } };
  }
  if (!spec.type) spec.type = 'ClusterIP';
  for (const p of spec.ports ?? []) {
    if (!p.protocol) p.protocol = 'TCP';
    // targetPort 0 or "" means "the same as port".
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if (externallyAccessible(svc) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined && (spec.type === 'ClusterIP' || spec.type === 'NodePort' || spec.type === 'LoadBalancer')) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
}
