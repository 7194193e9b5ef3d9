/**
 * FlowSchema (flowcontrol.apiserver/v1beta2, cluster-scoped, `/status`): which requests go to which
 * priority level, and how they split into flows. The storage version; v1beta1 converts to it.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { isDns1123Label, isDns1123Subdomain, nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { DISTINGUISHER_METHODS, flowcontrolSchemas, SUBJECT_KINDS, type FlowSchema, type FlowSchemaSpec } from '../types.js';
import { flowcontrolStatus, validateConditions } from './conditions.js';
import { MANDATORY_FLOW_SCHEMAS, semanticallyEqual } from './mandatory.js';
import { flowSchemaTable } from './tables.js';

export const DEFAULT_MATCHING_PRECEDENCE = 1000;
export const MAX_MATCHING_PRECEDENCE = 10000;
const SUPPORTED_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const NAMESPACE_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

type Rule = NonNullable<FlowSchemaSpec['rules']>[number];
type Subject = Rule['subjects'][number];
type ResourceRule = NonNullable<Rule['resourceRules']>[number];
type NonResourceRule = NonNullable<Rule['nonResourceRules']>[number];

const hasWildcard = (list: readonly string[]): boolean => list.includes('*');

function validateVerbs(verbs: readonly string[], path: FieldPath): FieldError[] {
  if (verbs.length === 0) return [fieldErr.required(path, 'verbs must contain at least one value')];
  if (hasWildcard(verbs)) return verbs.length > 1 ? [fieldErr.invalid(path, verbs, "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((v) => SUPPORTED_VERBS.includes(v)) ? [] : [fieldErr.notSupported(path, verbs, SUPPORTED_VERBS)];
}

/** A non-resource URL: absolute, no spaces or `//`, and `*` only as a final `/*`. */
export function nonResourceUrlProblem(url: string): string | undefined {
  if (url === '') return 'must not be empty';
  if (url === '/') return undefined;
  if (!url.startsWith('/')) return 'must start with slash';
  if (url.includes(' ')) return 'must not contain white-space';
  if (url.includes('//')) return 'must not contain double slash';
  const stars = url.split('*').length - 1;
  if (stars > 1 || (stars === 1 && !url.endsWith('/*'))) return 'wildcard can only do suffix matching';
  return undefined;
}

function validateResourceRule(r: ResourceRule, path: FieldPath): FieldError[] {
  const errs = validateVerbs(r.verbs ?? [], path.child('verbs'));
  const apiGroups = r.apiGroups ?? [];
  if (apiGroups.length === 0) errs.push(fieldErr.required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  else if (apiGroups.length > 1 && hasWildcard(apiGroups)) errs.push(fieldErr.invalid(path.child('apiGroups'), apiGroups, "if '*' is present, must not specify other api groups"));
  const resources = r.resources ?? [];
  if (resources.length === 0) errs.push(fieldErr.required(path.child('resources'), 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && hasWildcard(resources)) errs.push(fieldErr.invalid(path.child('resources'), resources, "if '*' is present, must not specify other resources"));
  const namespaces = r.namespaces ?? [];
  if (namespaces.length === 0 && !r.clusterScope) {
    errs.push(fieldErr.required(path.child('namespaces'), 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1) errs.push(fieldErr.invalid(path.child('namespaces'), namespaces, "if '*' is present, must not specify other namespaces"));
  } else {
    namespaces.forEach((ns, i) => {
      for (const m of isDns1123Label(ns)) errs.push(fieldErr.invalid(path.child('namespaces').index(i), ns, NAMESPACE_INTRO + m));
    });
  }
  return errs;
}

function validateNonResourceRule(r: NonResourceRule, path: FieldPath): FieldError[] {
  const errs = validateVerbs(r.verbs ?? [], path.child('verbs'));
  const urls = r.nonResourceURLs ?? [];
  const at = path.child('nonResourceURLs');
  if (urls.length === 0) errs.push(fieldErr.required(at, 'nonResourceURLs must contain at least one value'));
  else if (hasWildcard(urls)) {
    if (urls.length > 1) errs.push(fieldErr.invalid(at, urls, "if '*' is present, must not specify other non-resource URLs"));
  } else {
    urls.forEach((url, i) => {
      const problem = nonResourceUrlProblem(url);
      if (problem) errs.push(fieldErr.invalid(at.index(i), url, problem));
    });
  }
  return errs;
}

const SUBJECT_FIELDS = { User: 'user', Group: 'group', ServiceAccount: 'serviceAccount' } as const;

function validateSubject(s: Subject, path: FieldPath): FieldError[] {
  if (!(SUBJECT_KINDS as readonly string[]).includes(s.kind)) return [fieldErr.notSupported(path.child('kind'), s.kind, SUBJECT_KINDS)];
  const kind = s.kind as keyof typeof SUBJECT_FIELDS;
  const errs: FieldError[] = [];
  if (kind === 'ServiceAccount') {
    const sa = s.serviceAccount;
    const at = path.child('serviceAccount');
    if (!sa) errs.push(fieldErr.required(at, "serviceAccount is required when subject kind is 'ServiceAccount'"));
    else {
      if (!sa.name) errs.push(fieldErr.required(at.child('name')));
      else if (sa.name !== '*') for (const m of isDns1123Subdomain(sa.name)) errs.push(fieldErr.invalid(at.child('name'), sa.name, m));
      if (!sa.namespace) errs.push(fieldErr.required(at.child('namespace'), 'must specify namespace for service account'));
      else for (const m of isDns1123Label(sa.namespace)) errs.push(fieldErr.invalid(at.child('namespace'), sa.namespace, m));
    }
  } else {
    const field = SUBJECT_FIELDS[kind];
    const named = kind === 'User' ? s.user : s.group;
    if (!named) errs.push(fieldErr.required(path.child(field), `${field} is required when subject kind is '${kind}'`));
    else if (!named.name) errs.push(fieldErr.required(path.child(field).child('name')));
  }
  // The other two members of the union must be unset, reported in Kubernetes' order.
  const others: (keyof typeof SUBJECT_FIELDS)[] = kind === 'ServiceAccount' ? ['User', 'Group'] : kind === 'User' ? ['ServiceAccount', 'Group'] : ['ServiceAccount', 'User'];
  for (const other of others) {
    const field = SUBJECT_FIELDS[other];
    if (s[field]) errs.push(fieldErr.forbidden(path.child(field), `${field} is forbidden when subject kind is not '${other}'`));
  }
  return errs;
}

function validateRule(rule: Rule, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = rule.subjects ?? [];
  if (subjects.length === 0) errs.push(fieldErr.required(path.child('subjects'), 'subjects must contain at least one value'));
  subjects.forEach((s, i) => errs.push(...validateSubject(s, path.child('subjects').index(i))));
  const resourceRules = rule.resourceRules ?? [];
  const nonResourceRules = rule.nonResourceRules ?? [];
  if (resourceRules.length === 0 && nonResourceRules.length === 0) {
    errs.push(fieldErr.required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  }
  resourceRules.forEach((r, i) => errs.push(...validateResourceRule(r, path.child('resourceRules').index(i))));
  nonResourceRules.forEach((r, i) => errs.push(...validateNonResourceRule(r, path.child('nonResourceRules').index(i))));
  return errs;
}

export function validateFlowSchema(fs: FlowSchema): FieldError[] {
  const spec = FieldPath.root('spec');
  const name = fs.metadata.name ?? '';
  const precedence = fs.spec.matchingPrecedence ?? 0;
  const errs: FieldError[] = [];
  const at = spec.child('matchingPrecedence');
  if (precedence <= 0) errs.push(fieldErr.invalid(at, precedence, 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE) errs.push(fieldErr.invalid(at, precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  if (precedence === 1 && name !== 'exempt') errs.push(fieldErr.invalid(at, precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const dm = fs.spec.distinguisherMethod;
  if (dm && !(DISTINGUISHER_METHODS as readonly string[]).includes(dm.type)) {
    errs.push(fieldErr.notSupported(spec.child('distinguisherMethod').child('type'), dm, DISTINGUISHER_METHODS));
  }
  const level = fs.spec.priorityLevelConfiguration.name;
  const levelPath = spec.child('priorityLevelConfiguration').child('name');
  if (!level) errs.push(fieldErr.required(levelPath, 'must reference a priority level'));
  else for (const m of isDns1123Subdomain(level)) errs.push(fieldErr.invalid(levelPath, level, m));
  (fs.spec.rules ?? []).forEach((r, i) => errs.push(...validateRule(r, spec.child('rules').index(i))));
  const mandatory = MANDATORY_FLOW_SCHEMAS[name];
  if (mandatory && !semanticallyEqual(fs.spec, mandatory)) {
    errs.push(fieldErr.invalid(spec, fs.spec, `spec of '${name}' must equal the fixed value`));
  }
  errs.push(...validateConditions(fs.status.conditions));
  return errs;
}

export const flowSchemaResource = defineResource<FlowSchema>((names) => ({
  group: names.group('flowcontrol.apiserver'),
  version: 'v1beta2',
  kind: 'FlowSchema',
  resource: 'flowschemas',
  singular: 'flowschema',
  namespaced: false,
  schema: flowcontrolSchemas('v1beta2').FlowSchema,
  table: flowSchemaTable,
  fixture: () => ({
    spec: {
      priorityLevelConfiguration: { name: 'global-default' },
      rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }],
    },
  }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults(fs) {
      if (!fs.spec.matchingPrecedence) fs.spec.matchingPrecedence = DEFAULT_MATCHING_PRECEDENCE;
    },
    validate: validateFlowSchema,
  },
  subresources: {
    status: flowcontrolStatus<FlowSchema>(),
  },
}));
