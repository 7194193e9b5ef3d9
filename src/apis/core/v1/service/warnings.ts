/** Advice on a Service write, returned as Warning headers (Kubernetes' GetWarningsForService, plus the deprecation of loadBalancerIP). */
import { formatCIDR, formatIP, parseCIDR, parseIP } from '../../../../machinery/ip.js';
import type { Service } from './schema.js';

function cidrWarning(path: string, value: string): string[] {
  const cidr = parseCIDR(value);
  const ip = parseIP(value.split('/')[0] ?? '');
  if (!cidr || !ip || ip.value === cidr.network) return [];
  // Host bits set: the author may have meant the network or the single address.
  const single = `${formatIP(ip)}/${cidr.bits}`;
  return [`${path}: CIDR value ${JSON.stringify(value)} is ambiguous in this context (should be ${JSON.stringify(formatCIDR(cidr))} or ${JSON.stringify(single)}?)`];
}

export function serviceWarnings(svc: Service): string[] {
  const spec = svc.spec;
  const out: string[] = [];
  if (spec.type === 'ClusterIP' && spec.clusterIP === 'None') {
    if (spec.loadBalancerIP) out.push('spec.loadBalancerIP is ignored for headless services');
    if ((spec.externalIPs ?? []).length > 0) out.push('spec.externalIPs is ignored for headless services');
    if (spec.sessionAffinity !== 'None') out.push('spec.SessionAffinity is ignored for headless services');
  }
  if (spec.loadBalancerIP) {
    out.push('spec.loadBalancerIP: deprecated since v1.24; load balancer implementations may ignore it, use their own annotations instead');
  }
  (spec.loadBalancerSourceRanges ?? []).forEach((r, i) => out.push(...cidrWarning(`spec.loadBalancerSourceRanges[${i}]`, r.trim())));
  if (spec.type === 'ExternalName' && (spec.externalIPs ?? []).length > 0) out.push('spec.externalIPs is ignored when spec.type is "ExternalName"');
  if (spec.type !== 'ExternalName' && spec.externalName) out.push('spec.externalName is ignored when spec.type is not "ExternalName"');
  return out;
}
