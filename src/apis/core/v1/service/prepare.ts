/**
 * How a Service update is read (Kubernetes' service strategy and REST hooks): values the server
 * allocated are kept when the client leaves them out, clusterIP and clusterIPs are kept in step,
 * and fields that only belong to the old type are wiped when the type changes, unless the client
 * also changed them (then validation speaks). Each function mutates `svc`, never `old`.
 */
import { externallyAccessible, needsClusterIP, needsHealthCheck, needsNodePort, sameClusterIPs, sameList, servicePortNodePorts } from './helpers.js';
import type { Service } from './schema.js';

/**
 * A client that created a Service without clusterIP or node ports may send the same manifest
 * again: what was allocated for it is filled back in rather than allocated anew.
 */
export function patchAllocatedValues(svc: Service, old: Service): void {
  const spec = svc.spec;
  if (needsClusterIP(old) && needsClusterIP(svc)) {
    if (!spec.clusterIP && old.spec.clusterIP) spec.clusterIP = old.spec.clusterIP;
    if ((spec.clusterIPs ?? []).length === 0 && (old.spec.clusterIPs ?? []).length > 0) spec.clusterIPs = [...(old.spec.clusterIPs ?? [])];
  }
  if (needsNodePort(old) && needsNodePort(svc)) {
    const mine = new Set(servicePortNodePorts(svc));
    // Node ports the new spec already uses cannot be filled in a second time.
    const used = new Set(servicePortNodePorts(old).filter((p) => mine.has(p)));
    const byName = new Map((old.spec.ports ?? []).map((p) => [p.name ?? '', p.nodePort ?? 0] as const));
    for (const p of spec.ports ?? []) {
      if (p.nodePort) continue;
      const previous = byName.get(p.name ?? '') ?? 0;
      if (previous && !used.has(previous)) p.nodePort = previous;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(svc) && !spec.healthCheckNodePort && old.spec.healthCheckNodePort) {
    spec.healthCheckNodePort = old.spec.healthCheckNodePort;
  }
}

/** clusterIPs follows clusterIP for clients that only know the singular field. */
export function normalizeClusterIPs(svc: Service, old: Service): void {
  const spec = svc.spec;
  const oldIP = old.spec.clusterIP ?? '';
  if ((old.spec.clusterIPs ?? []).length > 0 && (spec.clusterIPs ?? []).length === 0 && oldIP === (spec.clusterIP ?? '')) {
    spec.clusterIPs = [...(old.spec.clusterIPs ?? [])];
  }
  if (oldIP === (spec.clusterIP ?? '')) return;
  const listUnchanged = sameList(old.spec.clusterIPs, spec.clusterIPs);
  if (oldIP && !spec.clusterIP) {
    if (listUnchanged) delete spec.clusterIPs;
  } else if (listUnchanged) {
    spec.clusterIPs = [spec.clusterIP as string];
  }
}

function sameNodePortsOrFewer(old: Service, svc: Service): boolean {
  const before = new Set(servicePortNodePorts(old));
  return servicePortNodePorts(svc).every((p) => before.has(p));
}

/** Wipes what the old type needed and the new one does not, when the client left it unchanged. */
export function dropTypeDependentFields(svc: Service, old: Service): void {
  const spec = svc.spec;
  if (needsClusterIP(old) && !needsClusterIP(svc)) {
    if (sameClusterIPs(old, svc)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameList(old.spec.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
    if (old.spec.ipFamilyPolicy === spec.ipFamilyPolicy) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(old) && !needsNodePort(svc) && sameNodePortsOrFewer(old, svc)) {
    for (const p of spec.ports ?? []) delete p.nodePort;
  }
  if (needsHealthCheck(old) && !needsHealthCheck(svc) && (old.spec.healthCheckNodePort ?? 0) === (spec.healthCheckNodePort ?? 0)) {
    delete spec.healthCheckNodePort;
  }
  if (old.spec.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts === old.spec.allocateLoadBalancerNodePorts) {
      delete spec.allocateLoadBalancerNodePorts;
    }
    if (spec.loadBalancerClass === old.spec.loadBalancerClass) delete spec.loadBalancerClass;
  }
  if (externallyAccessible(old) && !externallyAccessible(svc) && spec.externalTrafficPolicy === old.spec.externalTrafficPolicy) {
    delete spec.externalTrafficPolicy;
  }
  // A load balancer status no longer applies once the service stops being one.
  if (spec.type !== 'LoadBalancer') svc.status.loadBalancer = {};
}

/**
 * internalTrafficPolicy means nothing for ExternalName; Kubernetes hides a value left over from
 * an earlier type on read, so it is not kept here at all.
 */
export function dropExternalNameLeftovers(svc: Service): void {
  if (svc.spec.type === 'ExternalName') delete svc.spec.internalTrafficPolicy;
}
