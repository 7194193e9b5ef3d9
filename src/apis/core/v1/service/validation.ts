/**
 * Kubernetes' validation of a Service (ValidateService, ValidateServiceUpdate,
 * ValidateServiceStatusUpdate), with its messages and field paths. Pure; returns FieldError[].
 */
import { fieldErr, FieldPath, type FieldError } from '../../../../machinery/field-errors.js';
import { parseIP } from '../../../../machinery/ip.js';
import { validateLabels } from '../../../../machinery/meta-validation.js';
import { isDns1123Subdomain } from '../../../../machinery/name-validation.js';
import {
  portNumberProblems,
  validateCIDR,
  validateConditions,
  validateDns1123Label,
  validateIP,
  validateNonSpecialIP,
  validatePortNumOrName,
  validateQualifiedName,
} from '../types/index.js';
import { CLUSTER_IP_NONE, externallyAccessible, isHeadless, MAX_CLIENT_IP_TIMEOUT_SECONDS, needsHealthCheck } from './helpers.js';
import { IP_FAMILIES, IP_FAMILY_POLICIES, PROTOCOLS, SERVICE_TYPES, SESSION_AFFINITIES, TRAFFIC_POLICIES, type Service, type ServicePort } from './schema.js';

const SPEC = FieldPath.root('spec');
const LB_ONLY = "may only be used when `type` is 'LoadBalancer'";

function validateServicePort(sp: ServicePort, requireName: boolean, names: Set<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = sp.name ?? '';
  if (requireName && !name) {
    errs.push(fieldErr.required(path.child('name')));
  } else if (name) {
    errs.push(...validateDns1123Label(name, path.child('name')));
    if (names.has(name)) errs.push(fieldErr.duplicate(path.child('name'), name));
    else names.add(name);
  }
  for (const m of portNumberProblems(sp.port)) errs.push(fieldErr.invalid(path.child('port'), sp.port, m));
  if (!sp.protocol) errs.push(fieldErr.required(path.child('protocol')));
  else if (!(PROTOCOLS as readonly string[]).includes(sp.protocol)) errs.push(fieldErr.notSupported(path.child('protocol'), sp.protocol, PROTOCOLS));
  errs.push(...validatePortNumOrName(sp.targetPort, path.child('targetPort')));
  if (sp.appProtocol !== undefined) errs.push(...validateQualifiedName(sp.appProtocol, path.child('appProtocol')));
  return errs;
}

function validateSessionAffinity(svc: Service): FieldError[] {
  const spec = svc.spec;
  const errs: FieldError[] = [];
  const path = SPEC.child('sessionAffinity');
  if (!spec.sessionAffinity) errs.push(fieldErr.required(path));
  else if (!(SESSION_AFFINITIES as readonly string[]).includes(spec.sessionAffinity)) errs.push(fieldErr.notSupported(path, spec.sessionAffinity, SESSION_AFFINITIES));
  const cfgPath = SPEC.child('sessionAffinityConfig');
  if (spec.sessionAffinity === 'ClientIP') {
    const when = 'when session affinity type is ClientIP';
    const cfg = spec.sessionAffinityConfig;
    if (!cfg) return [...errs, fieldErr.required(cfgPath, when)];
    if (!cfg.clientIP) return [...errs, fieldErr.required(cfgPath.child('clientIP'), when)];
    const timeout = cfg.clientIP.timeoutSeconds;
    const tPath = cfgPath.child('clientIP').child('timeoutSeconds');
    if (timeout === undefined) return [...errs, fieldErr.required(tPath, when)];
    if (timeout <= 0 || timeout > MAX_CLIENT_IP_TIMEOUT_SECONDS) {
      errs.push(fieldErr.invalid(tPath, timeout, `must be greater than 0 and less than ${MAX_CLIENT_IP_TIMEOUT_SECONDS}`));
    }
  } else if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig) {
    errs.push(fieldErr.forbidden(cfgPath, 'must not be set when session affinity is None'));
  }
  return errs;
}

/**
 * clusterIP, clusterIPs, ipFamilies and ipFamilyPolicy together (ValidateServiceClusterIPsRelatedFields).
 * Also run before allocation, so allocation never sees malformed addresses.
 */
export function validateClusterIPsRelatedFields(svc: Service): FieldError[] {
  const spec = svc.spec;
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ipsPath = SPEC.child('clusterIPs');
  const famPath = SPEC.child('ipFamilies');
  const clusterIPs = spec.clusterIPs ?? [];
  if (spec.clusterIP) {
    if (clusterIPs.length === 0) errs.push(fieldErr.required(ipsPath));
    else if (clusterIPs[0] !== spec.clusterIP) errs.push(fieldErr.invalid(ipsPath, clusterIPs, 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0) {
    errs.push(fieldErr.invalid(ipsPath, clusterIPs, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  (spec.ipFamilies ?? []).forEach((f, i) => {
    if (!(IP_FAMILIES as readonly string[]).includes(f)) errs.push(fieldErr.notSupported(famPath.index(i), f, IP_FAMILIES));
    if (seen.has(f)) errs.push(fieldErr.duplicate(famPath.index(i), f));
    seen.add(f);
  });
  if (spec.ipFamilyPolicy !== undefined && !(IP_FAMILY_POLICIES as readonly string[]).includes(spec.ipFamilyPolicy)) {
    errs.push(fieldErr.notSupported(SPEC.child('ipFamilyPolicy'), spec.ipFamilyPolicy, IP_FAMILY_POLICIES));
  }
  let invalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === CLUSTER_IP_NONE) {
      if (clusterIPs.length > 1) {
        invalidIPs = true;
        errs.push(fieldErr.invalid(ipsPath, clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    const problems = validateIP(ip, ipsPath.index(i));
    if (problems.length) invalidIPs = true;
    errs.push(...problems);
  });
  if (clusterIPs.length > 2) errs.push(fieldErr.invalid(ipsPath, clusterIPs, 'may only hold up to 2 values'));
  // Once an address is malformed, family checks would only add noise.
  if (invalidIPs) return errs;
  if (clusterIPs.length > 1) {
    const families = new Set(clusterIPs.map((ip) => parseIP(ip)?.family));
    if (families.size !== clusterIPs.length) errs.push(fieldErr.invalid(ipsPath, clusterIPs, 'may specify no more than one IP for each IP family'));
  }
  const ipFamilies = spec.ipFamilies ?? [];
  if (!isHeadless(svc) && clusterIPs.length > 0 && ipFamilies.length > 0) {
    clusterIPs.forEach((ip, i) => {
      const want = ipFamilies[i];
      if (want === undefined) return;
      const family = parseIP(ip)?.family;
      if (want === 'IPv4' && family === 'IPv6') errs.push(fieldErr.invalid(ipsPath.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (want === 'IPv6' && family !== 'IPv6') errs.push(fieldErr.invalid(ipsPath.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

function validateTypeSpecific(svc: Service): FieldError[] {
  const spec = svc.spec;
  const errs: FieldError[] = [];
  if ((spec.type === 'LoadBalancer' || spec.type === 'NodePort') && isHeadless(svc)) {
    errs.push(fieldErr.invalid(SPEC.child('clusterIPs').index(0), CLUSTER_IP_NONE, `may not be set to 'None' for ${spec.type} services`));
  }
  if (spec.type === 'ExternalName') {
    if ((spec.clusterIPs ?? []).length > 0) errs.push(fieldErr.forbidden(SPEC.child('clusterIPs'), 'may not be set for ExternalName services'));
    if ((spec.ipFamilies ?? []).length > 0) errs.push(fieldErr.forbidden(SPEC.child('ipFamilies'), 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy !== undefined) errs.push(fieldErr.forbidden(SPEC.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
    // A trailing dot marks a fully qualified name.
    const cname = (spec.externalName ?? '').replace(/\.$/, '');
    if (cname) errs.push(...isDns1123Subdomain(cname).map((m) => fieldErr.invalid(SPEC.child('externalName'), cname, m)));
    else errs.push(fieldErr.required(SPEC.child('externalName')));
  }
  return errs;
}

function validatePortsTogether(svc: Service): FieldError[] {
  const spec = svc.spec;
  const errs: FieldError[] = [];
  const portsPath = SPEC.child('ports');
  const ports = spec.ports ?? [];
  if (spec.type === 'ClusterIP' || spec.type === 'ExternalName') {
    ports.forEach((p, i) => {
      if (p.nodePort) errs.push(fieldErr.forbidden(portsPath.index(i).child('nodePort'), `may not be used when \`type\` is '${spec.type}'`));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (!p.nodePort) return;
    const key = `${p.protocol ?? ''}/${p.nodePort}`;
    if (nodePorts.has(key)) errs.push(fieldErr.duplicate(portsPath.index(i).child('nodePort'), p.nodePort));
    nodePorts.add(key);
  });
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${p.protocol ?? ''}/${p.port}`;
    if (seen.has(key)) errs.push(fieldErr.duplicate(portsPath.index(i), { port: p.port, protocol: p.protocol ?? '' }));
    seen.add(key);
  });
  return errs;
}

function validateLoadBalancerFields(svc: Service): FieldError[] {
  const spec = svc.spec;
  const errs: FieldError[] = [];
  const ranges = spec.loadBalancerSourceRanges ?? [];
  if (ranges.length > 0) {
    // Kubernetes reports these under a capitalised field name; kept for tools matching on it.
    const path = SPEC.child('LoadBalancerSourceRanges');
    if (spec.type !== 'LoadBalancer') errs.push(fieldErr.forbidden(path, LB_ONLY));
    // Space-padded values are tolerated, a leftover of the annotation this field replaced.
    ranges.forEach((r, i) => errs.push(...validateCIDR(r.trim(), path.index(i))));
  }
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.type !== 'LoadBalancer') {
    errs.push(fieldErr.forbidden(SPEC.child('allocateLoadBalancerNodePorts'), LB_ONLY));
  }
  const classPath = SPEC.child('loadBalancerClass');
  if (spec.loadBalancerClass !== undefined) {
    if (spec.type === 'LoadBalancer') errs.push(...validateQualifiedName(spec.loadBalancerClass, classPath));
    else errs.push(fieldErr.forbidden(classPath, LB_ONLY));
  }
  return errs;
}

function validateTrafficPolicies(svc: Service): FieldError[] {
  const spec = svc.spec;
  const errs: FieldError[] = [];
  const etp = SPEC.child('externalTrafficPolicy');
  if (!externallyAccessible(svc)) {
    if (spec.externalTrafficPolicy) errs.push(fieldErr.invalid(etp, spec.externalTrafficPolicy, 'may only be set for externally-accessible services'));
  } else if (!spec.externalTrafficPolicy) {
    errs.push(fieldErr.required(etp));
  } else if (!(TRAFFIC_POLICIES as readonly string[]).includes(spec.externalTrafficPolicy)) {
    errs.push(fieldErr.notSupported(etp, spec.externalTrafficPolicy, TRAFFIC_POLICIES));
  }
  const hc = SPEC.child('healthCheckNodePort');
  const hcValue = spec.healthCheckNodePort ?? 0;
  if (!needsHealthCheck(svc)) {
    if (hcValue !== 0) errs.push(fieldErr.invalid(hc, hcValue, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hcValue === 0) {
    errs.push(fieldErr.required(hc));
  } else {
    for (const m of portNumberProblems(hcValue)) errs.push(fieldErr.invalid(hc, hcValue, m));
  }
  const itp = SPEC.child('internalTrafficPolicy');
  if (spec.internalTrafficPolicy === undefined) {
    // Not required for ExternalName: objects stored before this rule existed must stay valid.
    if (spec.type === 'ClusterIP' || spec.type === 'NodePort' || spec.type === 'LoadBalancer') errs.push(fieldErr.required(itp));
  } else if (!(TRAFFIC_POLICIES as readonly string[]).includes(spec.internalTrafficPolicy)) {
    errs.push(fieldErr.notSupported(itp, spec.internalTrafficPolicy, TRAFFIC_POLICIES));
  }
  return errs;
}

/** The rules of a Service on create and update (metadata is checked by the store). */
export function validateService(svc: Service): FieldError[] {
  const spec = svc.spec;
  const errs: FieldError[] = [];
  const ports = spec.ports ?? [];
  if (ports.length === 0 && !isHeadless(svc) && spec.type !== 'ExternalName') errs.push(fieldErr.required(SPEC.child('ports')));
  errs.push(...validateTypeSpecific(svc));
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, SPEC.child('ports').index(i))));
  if (spec.selector) errs.push(...validateLabels(spec.selector, SPEC.child('selector')));
  errs.push(...validateSessionAffinity(svc));
  errs.push(...validateClusterIPsRelatedFields(svc));
  (spec.externalIPs ?? []).forEach((ip, i) => {
    const path = SPEC.child('externalIPs').index(i);
    const bad = validateIP(ip, path);
    errs.push(...(bad.length ? bad : validateNonSpecialIP(ip, path)));
  });
  if (!spec.type) errs.push(fieldErr.required(SPEC.child('type')));
  else if (!(SERVICE_TYPES as readonly string[]).includes(spec.type)) errs.push(fieldErr.notSupported(SPEC.child('type'), spec.type, SERVICE_TYPES));
  errs.push(...validatePortsTogether(svc));
  errs.push(...validateLoadBalancerFields(svc));
  errs.push(...validateTrafficPolicies(svc));
  return errs;
}

/** Cluster IPs may gain or lose the secondary entry, never change the primary (except around ExternalName). */
function validateClusterIPsUpdate(old: Service, svc: Service): FieldError[] {
  if (svc.spec.type === 'ExternalName' || old.spec.type === 'ExternalName') return [];
  if (isHeadless(old) && isHeadless(svc)) return [];
  const errs: FieldError[] = [];
  const path = SPEC.child('clusterIPs');
  const before = old.spec.clusterIPs ?? [];
  const after = svc.spec.clusterIPs ?? [];
  if (before.length === after.length) {
    before.forEach((ip, i) => {
      if (ip !== after[i]) errs.push(fieldErr.invalid(path.index(i), after, 'may not change once set'));
    });
  } else if (before.length > after.length) {
    if (after.length === 0) errs.push(fieldErr.invalid(path.index(0), after, 'primary clusterIP can not be unset'));
    if (before.length > 0 && after.length > 0 && after[0] !== before[0]) errs.push(fieldErr.invalid(path.index(0), after, 'may not change once set'));
    if (after.length === 1 && svc.spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(fieldErr.invalid(SPEC.child('ipFamilyPolicy'), svc.spec.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (before.length > 0 && after[0] !== before[0]) {
    errs.push(fieldErr.invalid(path.index(0), after, 'may not change once set'));
  }
  return errs;
}

function validateIPFamiliesUpdate(old: Service, svc: Service): FieldError[] {
  if (svc.spec.type === 'ExternalName' || old.spec.type === 'ExternalName') return [];
  // Headless services may change families, and so may a change to or from headless.
  if (isHeadless(old) || isHeadless(svc)) return [];
  const errs: FieldError[] = [];
  const path = SPEC.child('ipFamilies');
  const before = old.spec.ipFamilies ?? [];
  const after = svc.spec.ipFamilies ?? [];
  if (before.length === after.length) {
    if (before.some((f, i) => f !== after[i])) errs.push(fieldErr.invalid(path.index(0), after, 'may not change once set'));
  } else if (before.length > after.length) {
    if (after.length === 0) errs.push(fieldErr.invalid(path.index(0), after, 'primary ipFamily can not be unset'));
    if (after.length > 0 && after[0] !== before[0]) errs.push(fieldErr.invalid(path.index(0), after, 'may not change once set'));
    if (after.length === 1 && svc.spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(fieldErr.invalid(SPEC.child('ipFamilyPolicy'), svc.spec.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (before.length > 0 && after.length > 0 && after[0] !== before[0]) {
    errs.push(fieldErr.invalid(path.index(0), after, 'may not change once set'));
  }
  return errs;
}

/** What an update may not do beyond the create rules (validateService runs too). */
export function validateServiceUpdate(svc: Service, old: Service): FieldError[] {
  const errs = [...validateClusterIPsUpdate(old, svc), ...validateIPFamiliesUpdate(old, svc)];
  if (old.spec.type === 'LoadBalancer' && svc.spec.type === 'LoadBalancer' && old.spec.loadBalancerClass !== svc.spec.loadBalancerClass) {
    errs.push(fieldErr.invalid(SPEC.child('loadBalancerClass'), svc.spec.loadBalancerClass ?? null, 'may not change once set'));
  }
  if (needsHealthCheck(old) && needsHealthCheck(svc) && (svc.spec.healthCheckNodePort ?? 0) !== (old.spec.healthCheckNodePort ?? 0)) {
    errs.push(fieldErr.forbidden(SPEC.child('healthCheckNodePort'), 'field is immutable'));
  }
  return errs;
}

/** `/status`: load balancer ingress points and conditions. */
export function validateServiceStatus(svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  const ingressPath = FieldPath.root('status').child('loadBalancer').child('ingress');
  const ingress = svc.status.loadBalancer.ingress ?? [];
  if (svc.spec.type !== 'LoadBalancer' && ingress.length > 0) {
    errs.push(fieldErr.forbidden(ingressPath, "may only be used when `spec.type` is 'LoadBalancer'"));
  } else {
    ingress.forEach((ing, i) => {
      const p = ingressPath.index(i);
      if (ing.ip) errs.push(...validateIP(ing.ip, p.child('ip')));
      if (ing.hostname) {
        errs.push(...isDns1123Subdomain(ing.hostname).map((m) => fieldErr.invalid(p.child('hostname'), ing.hostname, m)));
        if (parseIP(ing.hostname)) errs.push(fieldErr.invalid(p.child('hostname'), ing.hostname, 'must be a DNS name, not an IP address'));
      }
      (ing.ports ?? []).forEach((ps, j) => {
        const pp = p.child('ports').index(j);
        for (const m of portNumberProblems(ps.port)) errs.push(fieldErr.invalid(pp.child('port'), ps.port, m));
        if (!ps.protocol) errs.push(fieldErr.required(pp.child('protocol')));
        else if (!(PROTOCOLS as readonly string[]).includes(ps.protocol)) errs.push(fieldErr.notSupported(pp.child('protocol'), ps.protocol, PROTOCOLS));
      });
    });
  }
  errs.push(...validateConditions(svc.status.conditions, FieldPath.root('status').child('conditions')));
  return errs;
}
