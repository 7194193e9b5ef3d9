/** Small predicates on a Service shared by defaulting, validation, the strategy and allocation. */
import type { Service } from './schema.js';

export const DEFAULT_CLIENT_IP_TIMEOUT_SECONDS = 10800;
export const MAX_CLIENT_IP_TIMEOUT_SECONDS = 86400;
export const CLUSTER_IP_NONE = 'None';

/** Every type but ExternalName has cluster IPs (or is headless). */
export function needsClusterIP(svc: Service): boolean {
  return svc.spec.type !== 'ExternalName';
}

export function needsNodePort(svc: Service): boolean {
  return svc.spec.type === 'NodePort' || svc.spec.type === 'LoadBalancer';
}

/** A LoadBalancer keeping the client IP (externalTrafficPolicy Local) has a health-check node port. */
export function needsHealthCheck(svc: Service): boolean {
  return svc.spec.type === 'LoadBalancer' && svc.spec.externalTrafficPolicy === 'Local';
}

/** Reachable from outside the cluster: node ports, a load balancer, or external IPs. */
export function externallyAccessible(svc: Service): boolean {
  return svc.spec.type === 'LoadBalancer' || svc.spec.type === 'NodePort' || (svc.spec.type === 'ClusterIP' && (svc.spec.externalIPs ?? []).length > 0);
}

/** Headless: clusterIPs is exactly ["None"]. */
export function isHeadless(svc: Service): boolean {
  const ips = svc.spec.clusterIPs ?? [];
  return ips.length === 1 && ips[0] === CLUSTER_IP_NONE;
}

/** Whether node ports are allocated for ports that do not ask for one. */
export function shouldAllocateNodePorts(svc: Service): boolean {
  if (svc.spec.type === 'NodePort') return true;
  if (svc.spec.type === 'LoadBalancer') return svc.spec.allocateLoadBalancerNodePorts !== false;
  return false;
}

/** The node ports the service holds (port entries and nothing else), in port order. */
export function servicePortNodePorts(svc: Service): number[] {
  return (svc.spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0);
}

export function sameList<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

export function sameClusterIPs(a: Service, b: Service): boolean {
  return (a.spec.clusterIP ?? '') === (b.spec.clusterIP ?? '') && sameList(a.spec.clusterIPs, b.spec.clusterIPs);
}
