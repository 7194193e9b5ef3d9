/**
 * Compute resources of containers (and pod overhead): which names are allowed, that amounts are
 * not negative (and whole for extended resources), and that a request never exceeds its limit.
 */
import type { ApiNames } from '../../../../../machinery/api-names.js';
import { fieldErr, type FieldError, type FieldPath } from '../../../../../machinery/field-errors.js';
import { isQualifiedName } from '../../../../../machinery/name-validation.js';
import { compareQuantities, formatQuantity, parseQuantity, quantitySign, type Quantity } from '../../../../../machinery/quantity.js';
import type { ResourceRequirements } from '../../types/index.js';
import { NEGATIVE_MSG, validateQualifiedName } from './common.js';

const CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
  'configmaps',
]);
const QOS_RESOURCES = new Set(['cpu', 'memory']);

const isHugePages = (name: string): boolean => name.startsWith('hugepages-');

export class ResourceNames {
  constructor(private readonly names: ApiNames) {}

  /** Native resources have no domain, or the API's own label domain. */
  isNative(name: string): boolean {
    return !name.includes('/') || name.includes(`${this.names.labelDomain}/`);
  }

  isExtended(name: string): boolean {
    if (this.isNative(name) || name.startsWith('requests.')) return false;
    return isQualifiedName(`requests.${name}`).length === 0;
  }

  /** Requests below limits are allowed only for native resources other than huge pages. */
  isOvercommitAllowed(name: string): boolean {
    return this.isNative(name) && !isHugePages(name);
  }
}

function validateResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateQualifiedName(name, path);
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !isHugePages(name)) {
    errs.push(fieldErr.invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

export function validateContainerResourceName(name: string, path: FieldPath, rn: ResourceNames): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!CONTAINER_RESOURCES.has(name) && !isHugePages(name)) errs.push(fieldErr.invalid(path, name, 'must be a standard resource for containers'));
  } else if (!rn.isNative(name) && !rn.isExtended(name)) {
    errs.push(fieldErr.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** Parses a stored quantity; decoding already refused bad text, so this does not fail. */
export function quantity(text: string): Quantity {
  return parseQuantity(text);
}

export function validateResourceQuantity(name: string, text: string, path: FieldPath, rn: ResourceNames): FieldError[] {
  const q = quantity(text);
  const errs: FieldError[] = [];
  if (quantitySign(q) < 0) errs.push(fieldErr.invalid(path, formatQuantity(q), NEGATIVE_MSG));
  if (rn.isExtended(name) && compareQuantities(q, roundToInteger(q)) !== 0) {
    errs.push(fieldErr.invalid(path, text, 'must be an integer'));
  }
  return errs;
}

function roundToInteger(q: Quantity): Quantity {
  if (q.exponent >= 0) return q;
  const div = 10n ** BigInt(-q.exponent);
  return { ...q, mantissa: q.mantissa / div, exponent: 0 };
}

export function validateResourceRequirements(req: ResourceRequirements, path: FieldPath, rn: ResourceNames): FieldError[] {
  const errs: FieldError[] = [];
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  const limits = req.limits ?? {};
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, value] of Object.entries(limits)) {
    const p = limPath.key(name);
    errs.push(...validateContainerResourceName(name, p, rn), ...validateResourceQuantity(name, value, p, rn));
    if (isHugePages(name)) hugePages = true;
    if (QOS_RESOURCES.has(name)) cpuOrMemory = true;
  }
  for (const [name, value] of Object.entries(req.requests ?? {})) {
    const p = reqPath.key(name);
    errs.push(...validateContainerResourceName(name, p, rn), ...validateResourceQuantity(name, value, p, rn));
    const limit = limits[name];
    if (limit !== undefined) {
      const cmp = compareQuantities(quantity(value), quantity(limit));
      if (cmp !== 0 && !rn.isOvercommitAllowed(name)) errs.push(fieldErr.invalid(reqPath, value, `must be equal to ${name} limit`));
      else if (cmp > 0) errs.push(fieldErr.invalid(reqPath, value, `must be less than or equal to ${name} limit`));
    } else if (!rn.isOvercommitAllowed(name)) {
      errs.push(fieldErr.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) hugePages = true;
    if (QOS_RESOURCES.has(name)) cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory) errs.push(fieldErr.forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}

/** Pod overhead: resource names and non-negative amounts. */
export function validateOverhead(overhead: Record<string, string> | undefined, path: FieldPath, rn: ResourceNames): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, value] of Object.entries(overhead ?? {})) {
    errs.push(...validateContainerResourceName(name, path.key(name), rn), ...validateResourceQuantity(name, value, path.key(name), rn));
  }
  return errs;
}
