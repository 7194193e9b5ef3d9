/**
 * LimitRange (core/v1): the bounds and defaults of compute and storage requests in a namespace,
 * per pod, container or claim. Container items get their defaults filled from max and min, as
 * Kubernetes does; the LimitRanger admission plugin applies them to pods.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { compareQuantities, roundUpQuantity, type Quantity } from '../../../machinery/quantity.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { validateContainerResourceName, validateResourceName } from './pod/validation/resources.js';
import { ResourceList, validateQualifiedName } from './types/index.js';
import { isOvercommitAllowed, quantityOf } from './validation/resources.js';

const STANDARD_LIMIT_TYPES = ['Pod', 'Container', 'PersistentVolumeClaim'];

export const LimitRangeItem = t.struct('core.v1.LimitRangeItem', {
  type: t.required(1, t.string(), { always: true, description: 'What the limits apply to: Pod, Container or PersistentVolumeClaim.' }),
  max: t.field(2, ResourceList, { description: 'The most of each resource one object may ask for.' }),
  min: t.field(3, ResourceList, { description: 'The least of each resource one object may ask for.' }),
  default: t.field(4, ResourceList, { description: 'The limits given to a container that sets none.' }),
  defaultRequest: t.field(5, ResourceList, { description: 'The requests given to a container that sets none.' }),
  maxLimitRequestRatio: t.field(6, ResourceList, { description: 'The largest limit-to-request ratio allowed.' }),
}, { description: 'Bounds and defaults for one kind of object.' });

export const LimitRangeSpec = t.struct('core.v1.LimitRangeSpec', {
  limits: t.required(1, t.list(LimitRangeItem), { always: true, description: 'The bounds, one item per type.' }),
}, { description: 'The bounds and defaults of a limit range.' });

export const LimitRangeSchema = t.struct('core.v1.LimitRange', {
  ...objectHeader,
  spec: t.field(2, LimitRangeSpec, { description: 'The bounds and defaults.' }),
}, { description: 'A limit range: bounds and defaults of resource requests and limits in a namespace.' });
export type LimitRange = ObjectOf<typeof LimitRangeSchema>;
type Item = LimitRange['spec']['limits'][number];

function validateTypeName(type: string, path: FieldPath): FieldError[] {
  const errs = validateQualifiedName(type, path);
  if (errs.length) return errs;
  if (!type.includes('/') && !STANDARD_LIMIT_TYPES.includes(type)) return [fieldErr.invalid(path, type, 'must be a standard limit type or fully qualified')];
  return [];
}

function validateResourceNameFor(type: string, name: string, path: FieldPath, names: ApiNames): FieldError[] {
  return type === 'Pod' || type === 'Container' ? validateContainerResourceName(name, path, names) : validateResourceName(name, path);
}

/** Go's Quantity.MilliValue / Value, as floats: enough for the ratio check. */
const milli = (q: Quantity): number => Number(roundUpQuantity(q, -3).mantissa) * 10 ** (roundUpQuantity(q, -3).exponent + 3);
const whole = (q: Quantity): number => Number(roundUpQuantity(q, 0).mantissa) * 10 ** roundUpQuantity(q, 0).exponent;
const MAX_MILLI_VALUE = Number(2n ** 63n - 1n) / 1000;

function validateItem(item: Item, path: FieldPath, names: ApiNames): FieldError[] {
  const errs = validateTypeName(item.type, path.child('type'));
  const keys = new Set<string>();
  const lists = {} as Record<'max' | 'min' | 'default' | 'defaultRequest' | 'maxLimitRequestRatio', Map<string, string>>;
  const collect = (field: keyof typeof lists): void => {
    lists[field] = new Map();
    for (const [k, q] of Object.entries(item[field] ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
      errs.push(...validateResourceNameFor(item.type, k, path.child(field).key(k), names));
      keys.add(k);
      lists[field].set(k, q);
    }
  };
  collect('max');
  collect('min');
  if (item.type === 'Pod') {
    lists.default = new Map();
    lists.defaultRequest = new Map();
    if (Object.keys(item.default ?? {}).length) errs.push(fieldErr.forbidden(path.child('default'), "may not be specified when `type` is 'Pod'"));
    if (Object.keys(item.defaultRequest ?? {}).length) errs.push(fieldErr.forbidden(path.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
  } else {
    collect('default');
    collect('defaultRequest');
  }
  if (item.type === 'PersistentVolumeClaim' && item.min?.storage === undefined && item.max?.storage === undefined) {
    errs.push(fieldErr.required(path.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
  }
  collect('maxLimitRequestRatio');
  for (const k of [...keys].sort()) {
    const get = (field: keyof typeof lists): { text: string; q: Quantity } | undefined => {
      const text = lists[field].get(k);
      const q = text === undefined ? undefined : quantityOf(text);
      return text !== undefined && q ? { text, q } : undefined;
    };
    const min = get('min');
    const max = get('max');
    const def = get('default');
    const req = get('defaultRequest');
    const ratio = get('maxLimitRequestRatio');
    const gt = (a: { q: Quantity }, b: { q: Quantity }): boolean => compareQuantities(a.q, b.q) > 0;
    if (min && max && gt(min, max)) errs.push(fieldErr.invalid(path.child('min').key(k), min.text, `min value ${min.text} is greater than max value ${max.text}`));
    if (req && min && gt(min, req)) errs.push(fieldErr.invalid(path.child('defaultRequest').key(k), req.text, `min value ${min.text} is greater than default request value ${req.text}`));
    if (req && max && gt(req, max)) errs.push(fieldErr.invalid(path.child('defaultRequest').key(k), req.text, `default request value ${req.text} is greater than max value ${max.text}`));
    if (req && def && gt(req, def)) errs.push(fieldErr.invalid(path.child('defaultRequest').key(k), req.text, `default request value ${req.text} is greater than default limit value ${def.text}`));
    if (def && min && gt(min, def)) errs.push(fieldErr.invalid(path.child('default').key(k), min.text, `min value ${min.text} is greater than default value ${def.text}`));
    if (def && max && gt(def, max)) errs.push(fieldErr.invalid(path.child('default').key(k), max.text, `default value ${def.text} is greater than max value ${max.text}`));
    if (ratio && compareQuantities(ratio.q, { mantissa: 1n, exponent: 0, format: 'DecimalSI' }) < 0) {
      errs.push(fieldErr.invalid(path.child('maxLimitRequestRatio').key(k), ratio.text, `ratio ${ratio.text} is less than 1`));
    }
    if (ratio && min && max) {
      const useMilli = whole(ratio.q) < MAX_MILLI_VALUE && whole(min.q) < MAX_MILLI_VALUE && whole(max.q) < MAX_MILLI_VALUE;
      const ratioValue = useMilli ? milli(ratio.q) / 1000 : whole(ratio.q);
      const limit = useMilli ? milli(max.q) / milli(min.q) : whole(max.q) / whole(min.q);
      if (ratioValue > limit) errs.push(fieldErr.invalid(path.child('maxLimitRequestRatio').key(k), ratio.text, `ratio ${ratio.text} is greater than max/min = ${limit.toFixed(6)}`));
    }
    if (!isOvercommitAllowed(names, k) && def && req && compareQuantities(def.q, req.q) !== 0) {
      errs.push(fieldErr.invalid(path.child('defaultRequest').key(k), req.text, `default value ${def.text} must equal to defaultRequest value ${req.text} in ${k}`));
    }
  }
  return errs;
}

function validateLimitRange(lr: LimitRange, names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  (lr.spec.limits ?? []).forEach((item, i) => {
    const path = FieldPath.root('spec').child('limits').index(i);
    errs.push(...validateItem(item, path, names));
    if (types.has(item.type)) errs.push(fieldErr.duplicate(path.child('type'), item.type));
    types.add(item.type);
  });
  return errs;
}

/** Kubernetes' SetDefaults_LimitRangeItem: a container's default limit from max, its default request from the default limit, else from min. */
function defaultItem(item: Item): void {
  if (item.type !== 'Container') return;
  const def = (item.default ??= {});
  const req = (item.defaultRequest ??= {});
  for (const [k, v] of Object.entries(item.max ?? {})) def[k] ??= v;
  for (const [k, v] of Object.entries(def)) req[k] ??= v;
  for (const [k, v] of Object.entries(item.min ?? {})) req[k] ??= v;
}

export const limitRangeResource = defineResource<LimitRange>((names) => ({
  group: '',
  version: 'v1',
  kind: 'LimitRange',
  resource: 'limitranges',
  singular: 'limitrange',
  namespaced: true,
  shortNames: ['limits'],
  schema: LimitRangeSchema,
  fixture: () => ({ spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { cpu: '100m' } }] } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    defaults(lr) {
      for (const item of lr.spec.limits ?? []) defaultItem(item);
    },
    validate: (lr) => validateLimitRange(lr, names),
  },
}));
