/**
 * Ingress (networking/v1, namespaced, `/status`): HTTP routing from hosts and paths to Service
 * ports or other backends, with TLS. A create without a class gets the default IngressClass from
 * the DefaultIngressClass admission plugin.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { isDns1035Label, isDns1123Subdomain, isPathSegmentName, nameValidators } from '../../../machinery/name-validation.js';
import type { ApiNames } from '../../../machinery/api-names.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import type { TypedLocalObjectReference } from '../../core/v1/types/index.js';
import {
  IngressSchema,
  PATH_TYPES,
  type HTTPIngressPath,
  type Ingress,
  type IngressBackend,
  type IngressLoadBalancerStatus,
  type IngressRule,
  type IngressSpec,
} from './ingress-types.js';
import { isIpSloppy, isValidPortName, isValidPortNum, isWildcardDns1123Subdomain } from './rules.js';
import { ingressTable } from './tables.js';

export * from './ingress-types.js';

/** The annotation that named the class before spec.ingressClassName existed. */
export function legacyClassAnnotation(names: ApiNames): string {
  return names.labelKey('ingress.class');
}

const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];

function validateResourceBackend(ref: TypedLocalObjectReference, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (ref.apiGroup !== undefined) {
    for (const m of isDns1123Subdomain(ref.apiGroup)) errs.push(fieldErr.invalid(path.child('apiGroup'), ref.apiGroup, m));
  }
  for (const key of ['kind', 'name'] as const) {
    const value = ref[key];
    if (!value) errs.push(fieldErr.required(path.child(key)));
    else for (const m of isPathSegmentName(value)) errs.push(fieldErr.invalid(path.child(key), value, m));
  }
  return errs;
}

function validateBackend(backend: IngressBackend, path: FieldPath): FieldError[] {
  const { service, resource } = backend;
  if (service && resource) return [fieldErr.invalid(path, '', 'cannot set both resource and service backends')];
  if (resource) return validateResourceBackend(resource, path.child('resource'));
  if (!service) return [fieldErr.invalid(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const svc = path.child('service');
  if (!service.name) errs.push(fieldErr.required(svc.child('name')));
  else for (const m of isDns1035Label(service.name)) errs.push(fieldErr.invalid(svc.child('name'), service.name, m));
  const portName = service.port.name ?? '';
  const portNumber = service.port.number ?? 0;
  if (portName && portNumber) {
    errs.push(fieldErr.invalid(path, '', 'cannot set both port name & port number'));
  } else if (portName) {
    for (const m of isValidPortName(portName)) errs.push(fieldErr.invalid(svc.child('port').child('name'), portName, m));
  } else if (portNumber) {
    for (const m of isValidPortNum(portNumber)) errs.push(fieldErr.invalid(svc.child('port').child('number'), portNumber, m));
  } else {
    errs.push(fieldErr.required(path, 'port name or number is required'));
  }
  return errs;
}

function validatePath(p: HTTPIngressPath, path: FieldPath): FieldError[] {
  if (p.pathType === undefined) return [fieldErr.required(path.child('pathType'), 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = p.path ?? '';
  const at = path.child('path');
  switch (p.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errs.push(fieldErr.invalid(at, value, 'must be an absolute path'));
      for (const seq of INVALID_PATH_SEQUENCES) if (value.includes(seq)) errs.push(fieldErr.invalid(at, value, `must not contain '${seq}'`));
      for (const suffix of INVALID_PATH_SUFFIXES) if (value.endsWith(suffix)) errs.push(fieldErr.invalid(at, value, `cannot end with '${suffix}'`));
      break;
    case 'ImplementationSpecific':
      if (value && !value.startsWith('/')) errs.push(fieldErr.invalid(at, value, 'must be an absolute path'));
      break;
    default:
      errs.push(fieldErr.notSupported(path.child('pathType'), p.pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(p.backend, path.child('backend')));
  return errs;
}

function validateRule(rule: IngressRule, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const host = rule.host ?? '';
  if (host) {
    const at = path.child('host');
    if (isIpSloppy(host)) errs.push(fieldErr.invalid(at, host, 'must be a DNS name, not an IP address'));
    const problems = host.includes('*') ? isWildcardDns1123Subdomain(host) : isDns1123Subdomain(host);
    for (const m of problems) errs.push(fieldErr.invalid(at, host, m));
  }
  if (rule.http) {
    const http = path.child('http');
    const paths = rule.http.paths ?? [];
    if (paths.length === 0) errs.push(fieldErr.required(http.child('paths')));
    paths.forEach((p, i) => errs.push(...validatePath(p, http.child('paths').index(i))));
  }
  return errs;
}

function validateSpec(spec: IngressSpec): FieldError[] {
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const rules = spec.rules ?? [];
  if (rules.length === 0 && !spec.defaultBackend) errs.push(fieldErr.invalid(path, null, 'either `defaultBackend` or `rules` must be specified'));
  if (spec.defaultBackend) errs.push(...validateBackend(spec.defaultBackend, path.child('defaultBackend')));
  rules.forEach((r, i) => errs.push(...validateRule(r, path.child('rules').index(i))));
  (spec.tls ?? []).forEach((tls, i) => {
    const at = path.child('tls').index(i);
    (tls.hosts ?? []).forEach((host, j) => {
      const problems = host.includes('*') ? isWildcardDns1123Subdomain(host) : isDns1123Subdomain(host);
      for (const m of problems) errs.push(fieldErr.invalid(at.child('hosts').index(j), host, m));
    });
    if (tls.secretName) for (const m of isDns1123Subdomain(tls.secretName)) errs.push(fieldErr.invalid(at.child('secretName'), tls.secretName, m));
  });
  if (spec.ingressClassName !== undefined) {
    for (const m of isDns1123Subdomain(spec.ingressClassName)) errs.push(fieldErr.invalid(path.child('ingressClassName'), spec.ingressClassName, m));
  }
  return errs;
}

function validateLoadBalancerStatus(lb: IngressLoadBalancerStatus): FieldError[] {
  const errs: FieldError[] = [];
  (lb.ingress ?? []).forEach((ing, i) => {
    const at = FieldPath.root('status').child('loadBalancer').child('ingress').index(i);
    if (ing.ip && !isIpSloppy(ing.ip)) errs.push(fieldErr.invalid(at.child('ip'), ing.ip, 'must be a valid IP address'));
    if (ing.hostname) {
      for (const m of isDns1123Subdomain(ing.hostname)) errs.push(fieldErr.invalid(at.child('hostname'), ing.hostname, m));
      if (isIpSloppy(ing.hostname)) errs.push(fieldErr.invalid(at.child('hostname'), ing.hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

/**
 * On create only: when both the legacy annotation and spec.ingressClassName are set they must
 * agree. Updates may keep an old disagreement.
 */
export function validateClassAgreement(ing: Ingress, names: ApiNames): FieldError[] {
  const key = legacyClassAnnotation(names);
  const annotation = ing.metadata.annotations?.[key];
  const className = ing.spec.ingressClassName;
  if (annotation === undefined || className === undefined || annotation === className) return [];
  return [fieldErr.invalid(FieldPath.root('annotations').child(key), annotation, 'must match `ingressClassName` when both are specified')];
}

export const ingressResource = defineResource<Ingress>((names) => ({
  group: names.group('networking'),
  version: 'v1',
  kind: 'Ingress',
  resource: 'ingresses',
  singular: 'ingress',
  namespaced: true,
  shortNames: ['ing'],
  schema: IngressSchema,
  table: ingressTable,
  fixture: () => ({ spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    validate: (ing) => validateSpec(ing.spec),
    validateCreate: (ing) => validateClassAgreement(ing, names),
  },
  subresources: {
    status: statusSubresource<Ingress>({ validateUpdate: (ing) => validateLoadBalancerStatus(ing.status.loadBalancer) }),
  },
}));
