/**
 * ResourceQuota (core/v1): limits on what a namespace may consume, optionally only for pods in
 * some scopes. Its status (hard and used) is written through /status by the quota controller; a
 * create starts with an empty status. Scopes never change.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { age, ageColumn, column, defineResource, defineTable, nameColumn, statusSubresource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { validateResourceName } from './pod/validation/resources.js';
import { ResourceList } from './types/index.js';
import { validateResourceQuantityValue } from './validation/resources.js';

export const QUOTA_SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'] as const;
const SCOPE_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

const STANDARD_QUOTA_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);
const POD_COUNT_RESOURCES = new Set(['pods']);
const POD_COMPUTE_RESOURCES = new Set(['cpu', 'limits.cpu', 'limits.memory', 'memory', 'requests.cpu', 'requests.memory']);

export const ScopedResourceSelectorRequirement = t.struct('core.v1.ScopedResourceSelectorRequirement', {
  scopeName: t.required(1, t.string({ enum: QUOTA_SCOPES }), { always: true, description: 'The scope the selector applies to.' }),
  operator: t.required(2, t.string({ enum: SCOPE_OPERATORS }), { always: true, description: 'In, NotIn, Exists or DoesNotExist.' }),
  values: t.field(3, t.list(t.string()), { description: 'The values of In and NotIn; none for Exists and DoesNotExist.' }),
}, { description: 'A scope, an operator and values.' });

export const ScopeSelector = t.struct('core.v1.ScopeSelector', {
  matchExpressions: t.field(1, t.list(ScopedResourceSelectorRequirement), { description: 'Requirements that must all hold.' }),
}, { structType: 'atomic', description: 'Scopes selected by requirements that must all hold.' });

export const ResourceQuotaSpec = t.struct('core.v1.ResourceQuotaSpec', {
  hard: t.field(1, ResourceList, { description: 'The most of each named resource the namespace may use.' }),
  scopes: t.field(2, t.list(t.string({ enum: QUOTA_SCOPES })), { description: 'Only objects in all these scopes count. Immutable.' }),
  scopeSelector: t.field(3, ScopeSelector, { pointer: true, description: 'Only objects the selector selects count.' }),
}, { description: 'What a quota allows.' });

export const ResourceQuotaStatus = t.struct('core.v1.ResourceQuotaStatus', {
  hard: t.field(1, ResourceList, { description: 'The limits enforced.' }),
  used: t.field(2, ResourceList, { description: 'What the namespace uses now.' }),
}, { description: 'What a quota enforces and what is used.' });

export const ResourceQuotaSchema = t.struct('core.v1.ResourceQuota', {
  ...objectHeader,
  spec: t.field(2, ResourceQuotaSpec, { description: 'What the quota allows.' }),
  status: t.field(3, ResourceQuotaStatus, { description: 'What is enforced and used; written by the quota controller.' }),
}, { description: 'A resource quota: limits on what one namespace may consume.' });
export type ResourceQuota = ObjectOf<typeof ResourceQuotaSchema>;

const isStandardQuotaResource = (name: string): boolean => STANDARD_QUOTA_RESOURCES.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');

function scopeValidFor(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return POD_COUNT_RESOURCES.has(resource) || POD_COMPUTE_RESOURCES.has(resource);
    case 'BestEffort':
      return POD_COUNT_RESOURCES.has(resource);
    default:
      return true;
  }
}

function validateQuotaResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/') && !isStandardQuotaResource(name)) errs.push(fieldErr.invalid(path, name, 'must be a standard resource for quota'));
  return errs;
}

function validateResourceList(list: Record<string, string> | undefined, path: FieldPath, names: ApiNames): FieldError[] {
  return Object.entries(list ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([k, v]) => [...validateQuotaResourceName(k, path.key(k)), ...validateResourceQuantityValue(names, k, v, path.key(k))]);
}

const CONFLICTING_SCOPES = [['BestEffort', 'NotBestEffort'], ['NotTerminating', 'Terminating']];

function validateSpec(spec: ResourceQuota['spec'], names: ApiNames): FieldError[] {
  const path = FieldPath.root('spec');
  const errs = validateResourceList(spec.hard, path.child('hard'), names);
  const hard = Object.keys(spec.hard ?? {}).sort();
  const scopes = spec.scopes ?? [];
  if (scopes.length) {
    const p = path.child('scopes');
    for (const scope of scopes) {
      if (!(QUOTA_SCOPES as readonly string[]).includes(scope)) errs.push(fieldErr.invalid(p, scopes, 'unsupported scope'));
      for (const k of hard) if (isStandardQuotaResource(k) && !scopeValidFor(scope, k)) errs.push(fieldErr.invalid(p, scopes, 'unsupported scope applied to resource'));
    }
    for (const pair of CONFLICTING_SCOPES) if (pair.every((s) => (scopes as string[]).includes(s))) errs.push(fieldErr.invalid(p, scopes, 'conflicting scopes'));
  }
  if (spec.scopeSelector) {
    const p = path.child('scopeSelector').child('matchExpressions');
    const seen = new Set<string>();
    for (const req of spec.scopeSelector.matchExpressions ?? []) {
      if (!(QUOTA_SCOPES as readonly string[]).includes(req.scopeName)) errs.push(fieldErr.invalid(p.child('scopeName'), req.scopeName, 'unsupported scope'));
      for (const k of hard) if (isStandardQuotaResource(k) && !scopeValidFor(req.scopeName, k)) errs.push(fieldErr.invalid(p, spec.scopeSelector, 'unsupported scope applied to resource'));
      if (['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'].includes(req.scopeName) && req.operator !== 'Exists') {
        errs.push(
          fieldErr.invalid(
            p.child('operator'),
            req.operator,
            "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
          ),
        );
      }
      const values = req.values ?? [];
      switch (req.operator) {
        case 'In':
        case 'NotIn':
          if (values.length === 0) errs.push(fieldErr.required(p.child('values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
          break;
        case 'Exists':
        case 'DoesNotExist':
          if (values.length) errs.push(fieldErr.invalid(p.child('values'), values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
          break;
        default:
          errs.push(fieldErr.invalid(p.child('operator'), req.operator, 'not a valid selector operator'));
      }
      seen.add(req.scopeName);
    }
    for (const pair of CONFLICTING_SCOPES) if (pair.every((s) => seen.has(s))) errs.push(fieldErr.invalid(p, spec.scopes ?? null, 'conflicting scopes'));
  }
  return errs;
}

function validateStatus(rq: ResourceQuota, names: ApiNames): FieldError[] {
  const path = FieldPath.root('status');
  return [...validateResourceList(rq.status.hard, path.child('hard'), names), ...validateResourceList(rq.status.used, path.child('used'), names)];
}

function validateScopesUnchanged(rq: ResourceQuota, old: ResourceQuota): FieldError[] {
  const set = (q: ResourceQuota): string[] => [...new Set(q.spec.scopes ?? [])].sort();
  return isDeepStrictEqual(set(rq), set(old)) ? [] : [fieldErr.invalid(FieldPath.root('spec').child('scopes'), rq.spec.scopes ?? null, 'field is immutable')];
}

/** `kubectl get quota`: `resource: used/hard` pairs, limits.* in their own column. */
export const resourceQuotaTable = defineTable<ResourceQuota>({
  columns: [
    nameColumn,
    ageColumn,
    column('Request', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  cells: (rq, ctx) => {
    const request: string[] = [];
    const limit: string[] = [];
    const hard = rq.status?.hard ?? {};
    for (const name of Object.keys(hard).sort()) {
      const cell = `${name}: ${rq.status?.used?.[name] ?? '0'}/${hard[name]}`;
      (name.split('.')[0] === 'limits' && name.includes('.') ? limit : request).push(cell);
    }
    return [rq.metadata.name ?? '', age(rq, ctx), request.join(', '), limit.join(', ')];
  },
});

export const resourceQuotaResource = defineResource<ResourceQuota>((names) => ({
  group: '',
  version: 'v1',
  kind: 'ResourceQuota',
  resource: 'resourcequotas',
  singular: 'resourcequota',
  namespaced: true,
  shortNames: ['quota'],
  schema: ResourceQuotaSchema,
  table: resourceQuotaTable,
  fixture: () => ({ spec: { hard: { pods: '10', 'requests.cpu': '4', 'limits.memory': '8Gi' } } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    prepareForCreate(rq) {
      rq.status = {};
    },
    validate: (rq) => [...validateSpec(rq.spec, names), ...validateStatus(rq, names)],
    validateUpdate: validateScopesUnchanged,
  },
  subresources: {
    status: statusSubresource<ResourceQuota>({ validateUpdate: (rq) => validateStatus(rq, names) }),
  },
}));
