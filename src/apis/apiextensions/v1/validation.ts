/**
 * Validation of a CustomResourceDefinition as Kubernetes 1.25 does it (v1 rules), with its
 * messages: the name is `<plural>.<group>`, the group a domain with a dot, exactly one storage
 * version, structural schemas for every version, printer columns, subresources and conversion.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { isDns1035Label, isDns1123Subdomain } from '../../../machinery/name-validation.js';
import { validateStructuralSchema } from './schema-validation.js';
import { schemaExtensionKeys, type CrdNames, type CrdVersion, type CustomResourceDefinition, type JSONSchemaProps } from './types.js';

const SCOPES = ['Cluster', 'Namespaced'];
const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const CONVERSION_STRATEGIES = ['None', 'Webhook'];
const REVIEW_VERSIONS = ['v1', 'v1beta1'];
const MAX_DEPRECATION_WARNING = 256;

const spec = FieldPath.root('spec');

export function validateCrd(crd: CustomResourceDefinition, names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  const name = crd.metadata.name ?? '';
  const required = `${crd.spec.names.plural}.${crd.spec.group}`;
  if (name && name !== required) errs.push(fieldErr.invalid(FieldPath.root('metadata').child('name'), name, 'must be spec.names.plural+"."+spec.group'));
  errs.push(...validateSpec(crd, names));
  errs.push(...validateNames(crd.status?.acceptedNames, FieldPath.root('status').child('acceptedNames')));
  return errs;
}

export function validateCrdUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  const errs: FieldError[] = [];
  const established = old.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
  if (established) {
    if (crd.spec.scope !== old.spec.scope) errs.push(fieldErr.immutable(spec.child('scope'), crd.spec.scope));
    if (crd.spec.names.kind !== old.spec.names.kind) errs.push(fieldErr.immutable(spec.child('names').child('kind'), crd.spec.names.kind));
  }
  if (crd.spec.group !== old.spec.group) errs.push(fieldErr.immutable(spec.child('group'), crd.spec.group));
  if (crd.spec.names.plural !== old.spec.names.plural) errs.push(fieldErr.immutable(spec.child('names').child('plural'), crd.spec.names.plural));
  errs.push(...validateStoredVersions(crd));
  return errs;
}

/** Every stored version must still be listed: objects stored in it must stay readable. */
export function validateStoredVersions(crd: CustomResourceDefinition): FieldError[] {
  const listed = new Set(crd.spec.versions.map((v) => v.name));
  const errs: FieldError[] = [];
  (crd.status?.storedVersions ?? []).forEach((v, i) => {
    if (!listed.has(v)) errs.push(fieldErr.invalid(FieldPath.root('status').child('storedVersions').index(i), v, 'must appear in spec.versions'));
  });
  return errs;
}

/** Groups of the API domain itself need the approval annotation, as Kubernetes' own groups do. */
function protectedGroup(group: string, names: ApiNames): boolean {
  return [names.domain, names.labelDomain].some((d) => group === d || group.endsWith(`.${d}`));
}

function validateSpec(crd: CustomResourceDefinition, names: ApiNames): FieldError[] {
  const s = crd.spec;
  const errs: FieldError[] = [];
  if (!s.group) errs.push(fieldErr.required(spec.child('group'), ''));
  else {
    const problems = isDns1123Subdomain(s.group);
    if (problems.length) errs.push(fieldErr.invalid(spec.child('group'), s.group, problems.join(',')));
    else if (s.group.split('.').length < 2) errs.push(fieldErr.invalid(spec.child('group'), s.group, 'should be a domain with at least one dot'));
    else if (protectedGroup(s.group, names)) {
      const key = `api-approved.${names.labelDomain}`;
      if (!crd.metadata.annotations?.[key]) {
        errs.push(fieldErr.required(FieldPath.root('metadata').child('annotations').key(key), `protected groups must have approval annotation "${key}", see https://github.com/kubernetes/enhancements/pull/1111`));
      }
    }
  }
  if (!s.scope) errs.push(fieldErr.required(spec.child('scope'), ''));
  else if (!SCOPES.includes(s.scope)) errs.push(fieldErr.notSupported(spec.child('scope'), s.scope, SCOPES));

  const seen = new Set<string>();
  let unique = true;
  let storage = 0;
  s.versions.forEach((v, i) => {
    if (v.storage) storage++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const problems = isDns1035Label(v.name);
    if (problems.length) errs.push(fieldErr.invalid(spec.child('versions').index(i).child('name'), v.name, problems.join(',')));
    errs.push(...validateVersion(v, spec.child('versions').index(i), names));
  });
  if (!unique) errs.push(fieldErr.invalid(spec.child('versions'), s.versions, 'must contain unique version names'));
  if (storage !== 1) errs.push(fieldErr.invalid(spec.child('versions'), s.versions, 'must have exactly one version marked as storage version'));

  const n = s.names;
  for (const key of ['plural', 'singular', 'kind', 'listKind'] as const) {
    if (!n[key]) errs.push(fieldErr.required(spec.child('names').child(key), ''));
  }
  errs.push(...validateNames(n, spec.child('names')));
  if (s.preserveUnknownFields) {
    errs.push(fieldErr.invalid(spec.child('preserveUnknownFields'), true, `cannot set to true, set ${schemaExtensionKeys(names).preserveUnknownFields} to true in spec.versions[*].schema instead`));
  }
  errs.push(...validateConversion(crd));
  return errs;
}

export function validateNames(n: CrdNames | undefined, path: FieldPath): FieldError[] {
  if (!n) return [];
  const errs: FieldError[] = [];
  const label = (field: string, value: string | undefined, lower: boolean): void => {
    if (!value) return;
    const problems = isDns1035Label(lower ? value.toLowerCase() : value);
    if (problems.length) errs.push(fieldErr.invalid(path.child(field), value, (lower ? 'may have mixed case, but should otherwise match: ' : '') + problems.join(',')));
  };
  label('plural', n.plural, false);
  label('singular', n.singular, false);
  label('kind', n.kind, true);
  label('listKind', n.listKind, true);
  (n.shortNames ?? []).forEach((s, i) => {
    const problems = isDns1035Label(s);
    if (problems.length) errs.push(fieldErr.invalid(path.child('shortNames').index(i), s, problems.join(',')));
  });
  if (n.kind && n.kind === n.listKind) errs.push(fieldErr.invalid(path.child('listKind'), n.listKind, 'kind and listKind may not be the same'));
  (n.categories ?? []).forEach((c, i) => {
    const problems = isDns1035Label(c);
    if (problems.length) errs.push(fieldErr.invalid(path.child('categories').index(i), c, problems.join(',')));
  });
  return errs;
}

function validateVersion(v: CrdVersion, path: FieldPath, names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  if (v.deprecationWarning !== undefined) {
    if (!v.deprecated) errs.push(fieldErr.invalid(path.child('deprecationWarning'), v.deprecationWarning, 'can only be set for deprecated versions'));
    else if (v.deprecationWarning.length > MAX_DEPRECATION_WARNING) errs.push(fieldErr.tooLong(path.child('deprecationWarning'), MAX_DEPRECATION_WARNING));
    // eslint-disable-next-line no-control-regex
    else if (/[\u0000-\u001f\u007f]/.test(v.deprecationWarning)) errs.push(fieldErr.invalid(path.child('deprecationWarning'), v.deprecationWarning, 'must only contain printable UTF-8 characters'));
  }
  const schema = v.schema?.openAPIV3Schema as JSONSchemaProps | undefined;
  const schemaPath = path.child('schema').child('openAPIV3Schema');
  if (!schema) errs.push(fieldErr.required(schemaPath, 'schemas are required'));
  else errs.push(...validateStructuralSchema(schema, schemaPath, schemaExtensionKeys(names)));
  const scale = v.subresources?.scale;
  if (scale) {
    const sp = path.child('subresources').child('scale');
    if (!scale.specReplicasPath) errs.push(fieldErr.required(sp.child('specReplicasPath'), ''));
    else if (!scale.specReplicasPath.startsWith('.spec.')) errs.push(fieldErr.invalid(sp.child('specReplicasPath'), scale.specReplicasPath, 'should be a json path under .spec'));
    if (!scale.statusReplicasPath) errs.push(fieldErr.required(sp.child('statusReplicasPath'), ''));
    else if (!scale.statusReplicasPath.startsWith('.status.')) errs.push(fieldErr.invalid(sp.child('statusReplicasPath'), scale.statusReplicasPath, 'should be a json path under .status'));
    const selector = scale.labelSelectorPath;
    if (selector !== undefined && !selector.startsWith('.spec.') && !selector.startsWith('.status.')) {
      errs.push(fieldErr.invalid(sp.child('labelSelectorPath'), selector, 'should be a json path under either .spec or .status'));
    }
  }
  (v.additionalPrinterColumns ?? []).forEach((c, i) => {
    const cp = path.child('additionalPrinterColumns').index(i);
    if (!c.name) errs.push(fieldErr.required(cp.child('name'), ''));
    if (!c.type) errs.push(fieldErr.required(cp.child('type'), `must be one of ${COLUMN_TYPES.join(',')}`));
    else if (!COLUMN_TYPES.includes(c.type)) errs.push(fieldErr.notSupported(cp.child('type'), c.type, COLUMN_TYPES));
    if (c.format && !COLUMN_FORMATS.includes(c.format)) errs.push(fieldErr.notSupported(cp.child('format'), c.format, COLUMN_FORMATS));
    if (!c.jsonPath) errs.push(fieldErr.required(cp.child('jsonPath'), ''));
    else if (!c.jsonPath.startsWith('.')) errs.push(fieldErr.invalid(cp.child('jsonPath'), c.jsonPath, 'must be a simple json path starting with .'));
    if ((c.priority ?? 0) < 0) errs.push(fieldErr.invalid(cp.child('priority'), c.priority, 'negative priorities are not allowed'));
  });
  return errs;
}

function validateConversion(crd: CustomResourceDefinition): FieldError[] {
  const c = crd.spec.conversion;
  if (!c) return [];
  const path = spec.child('conversion');
  const errs: FieldError[] = [];
  if (!CONVERSION_STRATEGIES.includes(c.strategy)) errs.push(fieldErr.notSupported(path.child('strategy'), c.strategy, CONVERSION_STRATEGIES));
  if (c.strategy === 'None' && c.webhook) errs.push(fieldErr.forbidden(path.child('webhook'), 'should not be set when strategy is not set to Webhook'));
  if (c.strategy === 'Webhook') {
    if (!c.webhook) errs.push(fieldErr.required(path.child('webhook'), 'required when strategy is set to Webhook'));
    else {
      const wp = path.child('webhook');
      const versions = c.webhook.conversionReviewVersions ?? [];
      if (!versions.some((v) => REVIEW_VERSIONS.includes(v))) errs.push(fieldErr.invalid(wp.child('conversionReviewVersions'), versions, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
      const seen = new Set<string>();
      versions.forEach((v, i) => {
        if (seen.has(v)) errs.push(fieldErr.invalid(wp.child('conversionReviewVersions').index(i), v, 'duplicate version'));
        seen.add(v);
      });
      const cc = c.webhook.clientConfig;
      if (!cc) errs.push(fieldErr.required(wp.child('clientConfig'), 'required when strategy is set to Webhook'));
      else if ((cc.url === undefined) === (cc.service === undefined)) {
        errs.push(fieldErr.required(wp.child('clientConfig'), 'exactly one of url or service is required'));
      } else if (cc.url !== undefined) {
        let url: URL | undefined;
        try {
          url = new URL(cc.url);
        } catch {
          errs.push(fieldErr.invalid(wp.child('clientConfig').child('url'), cc.url, 'host must be specified'));
        }
        if (url && url.protocol !== 'https:') errs.push(fieldErr.invalid(wp.child('clientConfig').child('url'), cc.url, `'https' is the only allowed URL scheme`));
      }
    }
  }
  return errs;
}
