/**
 * The schema of Ingress (networking/v1). Protobuf numbers follow Kubernetes' networking/v1
 * generated.proto.
 */
import { objectHeader, t, type Infer, type ObjectOf } from '../../../schema/index.js';
import { LoadBalancerStatus } from '../../core/v1/service/schema.js';
import { TypedLocalObjectReference } from '../../core/v1/types/index.js';

export const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'] as const;

export const ServiceBackendPort = t.struct('networking.v1.ServiceBackendPort', {
  name: t.field(1, t.string(), { description: 'The name of the port on the Service; excludes number.' }),
  number: t.field(2, t.int32(), { description: 'The number of the port on the Service (e.g. 80); excludes name.' }),
}, { description: 'A port of a Service, by name or by number.' });

export const IngressServiceBackend = t.struct('networking.v1.IngressServiceBackend', {
  name: t.required(1, t.string(), { always: true, description: "The Service, in the ingress's namespace." }),
  port: t.field(2, ServiceBackendPort, { description: 'The port of the Service: a name or a number is required.' }),
}, { description: 'A Service as a backend.' });

export const IngressBackend = t.struct('networking.v1.IngressBackend', {
  service: t.field(4, IngressServiceBackend, { pointer: true, description: 'A Service as the backend; excludes resource.' }),
  resource: t.field(3, TypedLocalObjectReference, {
    pointer: true,
    description: "Another object in the ingress's namespace as the backend; excludes service.",
  }),
}, { description: 'Where matching traffic goes: a Service port, or another resource.' });
export type IngressBackend = Infer<typeof IngressBackend>;

export const HTTPIngressPath = t.struct('networking.v1.HTTPIngressPath', {
  path: t.field(1, t.string(), {
    description: "Matched against the path of a request. Must start with '/' and is required for the Exact and Prefix path types.",
  }),
  pathType: t.required(3, t.string({ enum: PATH_TYPES }), {
    pointer: true,
    description:
      'How path matches: Exact (the whole path), Prefix (element by element, split on /) or ImplementationSpecific (up to the IngressClass).',
  }),
  backend: t.required(2, IngressBackend, { description: 'Where traffic matching the path goes.' }),
}, { description: 'A path and the backend its traffic goes to.' });
export type HTTPIngressPath = Infer<typeof HTTPIngressPath>;

export const HTTPIngressRuleValue = t.struct('networking.v1.HTTPIngressRuleValue', {
  paths: t.required(1, t.list(HTTPIngressPath, { listType: 'atomic' }), { always: true, description: 'Paths and their backends.' }),
}, { description: 'HTTP paths mapped to backends.' });

export const IngressRuleValue = t.struct('networking.v1.IngressRuleValue', {
  http: t.field(1, HTTPIngressRuleValue, { pointer: true, description: 'The HTTP paths of the rule.' }),
});

export const IngressRule = t.struct('networking.v1.IngressRule', {
  host: t.field(1, t.string(), {
    description:
      'The fully qualified domain name the rule applies to ("foo.bar.com"), or a wildcard one ("*.foo.com", one label). Not an IP. Unset: every host.',
  }),
  // Go embeds IngressRuleValue inline; in protobuf `http` sits in that message, field 2 of the rule.
  ...t.inline(2, 'ingressRuleValue', IngressRuleValue),
}, { description: "Rules mapping the paths of a host to backends. A request's host is matched first, then its path." });
export type IngressRule = Infer<typeof IngressRule>;

export const IngressTLS = t.struct('networking.v1.IngressTLS', {
  hosts: t.field(1, t.list(t.string(), { listType: 'atomic' }), {
    description: 'The hosts the certificate covers; unset means the wildcard host of the load balancer.',
  }),
  secretName: t.field(2, t.string(), { description: 'The Secret terminating TLS on port 443; optional for SNI-only routing.' }),
}, { description: 'TLS for some hosts of an ingress.' });

/**
 * Kubernetes 1.25 gives an Ingress the Service's load-balancer status type (core/v1); the
 * networking-specific copies with the same fields arrived in 1.26.
 */
export type IngressLoadBalancerStatus = Infer<typeof LoadBalancerStatus>;

export const IngressSpec = t.struct('networking.v1.IngressSpec', {
  ingressClassName: t.field(4, t.string(), {
    pointer: true,
    description:
      'The IngressClass of the ingress. When unset on create, the default IngressClass is filled in (unless the legacy ingress.class annotation is set).',
  }),
  defaultBackend: t.field(1, IngressBackend, {
    pointer: true,
    description: 'Where requests that match no rule go. Required when there are no rules.',
  }),
  tls: t.field(2, t.list(IngressTLS, { listType: 'atomic' }), { description: 'TLS termination, on port 443 only; hosts are told apart by SNI.' }),
  rules: t.field(3, t.list(IngressRule, { listType: 'atomic' }), { description: 'Host rules; traffic no rule matches goes to the default backend.' }),
}, { description: 'What the ingress should route.' });
export type IngressSpec = Infer<typeof IngressSpec>;

export const IngressStatus = t.struct('networking.v1.IngressStatus', {
  loadBalancer: t.field(1, LoadBalancerStatus, { description: 'The state of the load balancer.' }),
}, { description: 'What the ingress is, as last observed.' });

export const IngressSchema = t.struct('networking.v1.Ingress', {
  ...objectHeader,
  spec: t.field(2, IngressSpec, { description: 'What the ingress should route.' }),
  status: t.field(3, IngressStatus, { description: 'What the ingress is, as last observed. Read-only here; written through /status.' }),
}, {
  description:
    'Rules that let inbound connections reach Services: externally reachable URLs, load balancing, TLS termination and name-based virtual hosting.',
});
export type Ingress = ObjectOf<typeof IngressSchema>;
