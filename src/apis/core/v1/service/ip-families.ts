/**
 * Filling a Service's ipFamilyPolicy and ipFamilies from what it asks and what the cluster offers
 * (Kubernetes' initIPFamilyFields), before any address is allocated. Mutates the Service; throws
 * a 422 StatusError when the request cannot be met on this cluster.
 */
import { errors, type StatusError } from '../../../../machinery/errors.js';
import { fieldErr, FieldPath, type FieldError } from '../../../../machinery/field-errors.js';
import { familyOfIP, type IPFamily } from '../../../../machinery/ip.js';
import type { ServiceAllocators } from '../../../../registry/define-resource.js';
import { CLUSTER_IP_NONE, sameList } from './helpers.js';
import type { Service } from './schema.js';
import { validateClusterIPsRelatedFields } from './validation.js';

const SPEC = FieldPath.root('spec');
const POLICY = SPEC.child('ipFamilyPolicy');

export function otherFamily(f: IPFamily): IPFamily {
  return f === 'IPv4' ? 'IPv6' : 'IPv4';
}

export function invalidService(svc: Service, errs: FieldError[]): StatusError {
  return errors.invalid({ group: '', kind: 'Service' }, svc.metadata.name ?? '', errs);
}

/**
 * Two PreferDualStack services of an IP-bearing type with the same IPs and families: nothing to
 * re-decide, so a cluster turned dual-stack (or back) does not silently change them.
 */
export function isMatchingPreferDualStack(svc: Service, old: Service | undefined): boolean {
  if (!old || svc.spec.ipFamilyPolicy === undefined) return false;
  if (old.spec.type !== svc.spec.type) return false;
  if (svc.spec.type !== 'ClusterIP' && svc.spec.type !== 'NodePort' && svc.spec.type !== 'LoadBalancer') return false;
  if (svc.spec.ipFamilyPolicy !== 'PreferDualStack') return false;
  if (old.spec.ipFamilyPolicy !== undefined && old.spec.ipFamilyPolicy !== 'PreferDualStack') return false;
  return sameList(old.spec.clusterIPs, svc.spec.clusterIPs) && sameList(old.spec.ipFamilies, svc.spec.ipFamilies);
}

function reduced(after: readonly string[] | undefined, before: readonly string[] | undefined): boolean {
  const a = after ?? [];
  return a.length > 0 && a.length < (before ?? []).length;
}

export function initIPFamilyFields(al: ServiceAllocators, svc: Service, old: Service | undefined): void {
  const spec = svc.spec;
  if (spec.type === 'ExternalName') return;
  if (isMatchingPreferDualStack(svc, old)) return;
  const headlessSelectorless = spec.clusterIP === CLUSTER_IP_NONE && Object.keys(spec.selector ?? {}).length === 0;
  if (spec.ipFamilyPolicy === undefined) {
    // An update keeps the policy it had; a create is single-stack, except headless services without
    // a selector, whose endpoints (managed elsewhere) may be of either family.
    if (old?.spec.ipFamilyPolicy !== undefined) spec.ipFamilyPolicy = old.spec.ipFamilyPolicy;
    else spec.ipFamilyPolicy = headlessSelectorless ? 'RequireDualStack' : 'SingleStack';
  }
  const malformed = validateClusterIPsRelatedFields(svc);
  if (malformed.length) throw invalidService(svc, malformed);

  const errs: FieldError[] = [];
  const policy = spec.ipFamilyPolicy;
  if (old) {
    if (policy === 'SingleStack') {
      // Asking for single-stack while keeping the lists as they were is clear intent to drop the secondary.
      if (sameList(old.spec.clusterIPs, spec.clusterIPs) && (spec.clusterIPs ?? []).length > 1) spec.clusterIPs = spec.clusterIPs?.slice(0, 1);
      if (sameList(old.spec.ipFamilies, spec.ipFamilies) && (spec.ipFamilies ?? []).length > 1) spec.ipFamilies = spec.ipFamilies?.slice(0, 1);
    } else {
      if (reduced(spec.clusterIPs, old.spec.clusterIPs)) errs.push(fieldErr.invalid(POLICY, policy, "must be 'SingleStack' to release the secondary cluster IP"));
      if (reduced(spec.ipFamilies, old.spec.ipFamilies)) errs.push(fieldErr.invalid(POLICY, policy, "must be 'SingleStack' to release the secondary IP family"));
    }
  }
  if (policy === 'SingleStack') {
    if ((spec.clusterIPs ?? []).length === 2) errs.push(fieldErr.invalid(POLICY, policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if ((spec.ipFamilies ?? []).length === 2) errs.push(fieldErr.invalid(POLICY, policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  // Families follow the addresses asked for.
  const families = [...(spec.ipFamilies ?? [])];
  const ips = spec.clusterIPs ?? [];
  for (let i = 0; i < ips.length; i++) {
    const ip = ips[i] as string;
    if (ip === CLUSTER_IP_NONE) break;
    const family = familyOfIP(ip) as IPFamily;
    if (i < families.length) continue;
    if (!al.clusterIPs.has(family)) errs.push(fieldErr.invalid(SPEC.child('clusterIPs').index(i), ips, `${family} is not configured on this cluster`));
    else families.push(family);
  }
  if (families.length) spec.ipFamilies = families;
  if (errs.length) throw invalidService(svc, errs);

  if (headlessSelectorless) {
    // Headless without selector: families are only a statement about the endpoints, not allocations.
    if (families.length === 0) families.push(al.primaryFamily);
    if (families.length < 2 && policy !== 'SingleStack') families.push(otherFamily(families[0] as IPFamily));
    spec.ipFamilies = families;
    return;
  }
  if (policy === 'RequireDualStack' && al.clusterIPs.size < 2) errs.push(fieldErr.invalid(POLICY, policy, 'this cluster is not configured for dual-stack services'));
  families.forEach((f, i) => {
    if (!al.clusterIPs.has(f as IPFamily)) errs.push(fieldErr.invalid(SPEC.child('ipFamilies').index(i), f, 'not configured on this cluster'));
  });
  if (errs.length) throw invalidService(svc, errs);
  if (families.length === 0) families.push(al.primaryFamily);
  if (policy !== 'SingleStack' && families.length === 1 && al.clusterIPs.size === 2) families.push(otherFamily(families[0] as IPFamily));
  spec.ipFamilies = families;
}
