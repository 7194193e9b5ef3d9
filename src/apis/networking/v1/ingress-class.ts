/**
 * IngressClass (networking/v1, cluster-scoped): which controller implements a class of ingresses,
 * with an optional link to its configuration. The class annotated as the default
 * (`ingressclass.<domain>/is-default-class: "true"`) is given to new ingresses that name none; the
 * DefaultIngressClass admission plugin does that.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { isDns1123Label, isDns1123Subdomain, isPathSegmentName, nameValidators } from '../../../machinery/name-validation.js';
import type { ApiNames } from '../../../machinery/api-names.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type Infer, type ObjectOf } from '../../../schema/index.js';
import { validateDomainPrefixedPath } from './rules.js';
import { ingressClassTable } from './tables.js';

export const MAX_CONTROLLER_LENGTH = 250;
export const PARAMETERS_SCOPES = ['Cluster', 'Namespace'] as const;

/** The annotation that marks the default class; its value must be exactly "true". */
export function defaultClassAnnotation(names: ApiNames): string {
  return names.labelSubKey('ingressclass', 'is-default-class');
}

export const IngressClassParametersReference = t.struct('networking.v1.IngressClassParametersReference', {
  apiGroup: t.field(1, t.string(), {
    pointer: true,
    description: 'The group of the referenced resource. When unset the kind must be in the core group; third-party types need it.',
  }),
  kind: t.required(2, t.string(), { always: true, description: 'The kind of the referenced resource.' }),
  name: t.required(3, t.string(), { always: true, description: 'The name of the referenced resource.' }),
  scope: t.field(4, t.string(), {
    pointer: true,
    description: 'Whether the reference is to a cluster-scoped (Cluster, the default) or a namespaced (Namespace) resource.',
  }),
  namespace: t.field(5, t.string(), {
    pointer: true,
    description: 'The namespace of the referenced resource: required when scope is Namespace, and must be unset when scope is Cluster.',
  }),
}, { description: 'A reference to a cluster-scoped or namespaced object holding extra configuration for a class.' });
export type IngressClassParametersReference = Infer<typeof IngressClassParametersReference>;

export const IngressClassSpec = t.struct('networking.v1.IngressClassSpec', {
  controller: t.field(1, t.string(), {
    description: 'The controller that handles this class, as a domain-prefixed path of at most 250 characters (acme.io/ingress-controller). Immutable.',
  }),
  parameters: t.field(2, IngressClassParametersReference, {
    pointer: true,
    description: 'A link to a custom resource with extra configuration for the controller; optional.',
  }),
}, { description: 'What the class is: its controller and that controller\'s parameters.' });

export const IngressClassSchema = t.struct('networking.v1.IngressClass', {
  ...objectHeader,
  spec: t.field(2, IngressClassSpec, { description: 'What the class is.' }),
}, {
  description:
    'A class of ingresses, named by an ingress\'s spec.ingressClassName. The class annotated ingressclass.<domain>/is-default-class: "true" is given to new ingresses without a class.',
});
export type IngressClass = ObjectOf<typeof IngressClassSchema>;

function validateParameters(params: IngressClassParametersReference | undefined, path: FieldPath): FieldError[] {
  if (!params) return [];
  const errs: FieldError[] = [];
  if (params.apiGroup !== undefined) {
    for (const m of isDns1123Subdomain(params.apiGroup)) errs.push(fieldErr.invalid(path.child('apiGroup'), params.apiGroup, m));
  }
  for (const key of ['kind', 'name'] as const) {
    const value = params[key];
    if (!value) errs.push(fieldErr.required(path.child(key)));
    else for (const m of isPathSegmentName(value)) errs.push(fieldErr.invalid(path.child(key), value, m));
  }
  // Defaulting fills the scope in; only a client that sends null gets here without one.
  if (params.scope === undefined) {
    errs.push(fieldErr.required(path.child('scope')));
    return errs;
  }
  if (!(PARAMETERS_SCOPES as readonly string[]).includes(params.scope)) {
    errs.push(fieldErr.notSupported(path.child('scope'), params.scope, PARAMETERS_SCOPES));
  } else if (params.scope === 'Namespace') {
    if (params.namespace === undefined) errs.push(fieldErr.required(path.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    else for (const m of isDns1123Label(params.namespace)) errs.push(fieldErr.invalid(path.child('namespace'), params.namespace, m));
  } else if (params.namespace !== undefined) {
    errs.push(fieldErr.forbidden(path.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  }
  return errs;
}

function validateIngressClass(ic: IngressClass): FieldError[] {
  const spec = FieldPath.root('spec');
  const controller = ic.spec.controller ?? '';
  const errs: FieldError[] = [];
  if (controller.length > MAX_CONTROLLER_LENGTH) errs.push(fieldErr.tooLong(spec.child('controller'), MAX_CONTROLLER_LENGTH));
  errs.push(...validateDomainPrefixedPath(spec.child('controller'), controller));
  errs.push(...validateParameters(ic.spec.parameters, spec.child('parameters')));
  return errs;
}

export const ingressClassResource = defineResource<IngressClass>((names) => ({
  group: names.group('networking'),
  version: 'v1',
  kind: 'IngressClass',
  resource: 'ingressclasses',
  singular: 'ingressclass',
  namespaced: false,
  schema: IngressClassSchema,
  table: ingressClassTable,
  fixture: () => ({ spec: { controller: 'example.com/ingress-controller' } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults(ic) {
      const params = ic.spec.parameters;
      if (params && params.scope === undefined) params.scope = 'Cluster';
    },
    validate: validateIngressClass,
    validateUpdate(ic, old) {
      const now = ic.spec.controller ?? '';
      const before = old.spec.controller ?? '';
      return now === before ? [] : [fieldErr.immutable(FieldPath.root('spec').child('controller'), now)];
    },
  },
}));
