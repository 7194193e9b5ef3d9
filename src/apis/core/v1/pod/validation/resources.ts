/**
 * Compute resources of containers (and pod overhead): which names are allowed, that amounts are
 * not negative (and whole where counted in units), and that a request never exceeds its limit.
 */
import type { ApiNames } from '../../../../../machinery/api-names.js';
import { fieldErr, type FieldError, type FieldPath } from '../../../../../machinery/field-errors.js';
import { compareQuantities } from '../../../../../machinery/quantity.js';
import { validateQualifiedName, type ResourceRequirements } from '../../types/index.js';
import {
  isExtendedResourceName,
  isHugePagesResourceName,
  isNativeResource,
  isOvercommitAllowed,
  quantityOf,
  validateResourceQuantityValue,
} from '../../validation/resources.js';

const CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
export const STANDARD_RESOURCES: ReadonlySet<string> = new Set([
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

/** A resource name of any kind (Kubernetes' validateResourceName): a qualified name, standard when unprefixed. */
export function validateResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateQualifiedName(name, path);
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !isHugePagesResourceName(name)) {
    errs.push(fieldErr.invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

export function validateContainerResourceName(name: string, path: FieldPath, names: ApiNames): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!CONTAINER_RESOURCES.has(name) && !isHugePagesResourceName(name)) errs.push(fieldErr.invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(names, name) && !isExtendedResourceName(names, name)) {
    errs.push(fieldErr.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

export function validateResourceRequirements(req: ResourceRequirements, path: FieldPath, names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  const limits = req.limits ?? {};
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, value] of Object.entries(limits)) {
    const p = limPath.key(name);
    errs.push(...validateContainerResourceName(name, p, names), ...validateResourceQuantityValue(names, name, value, p));
    if (isHugePagesResourceName(name)) hugePages = true;
    if (QOS_RESOURCES.has(name)) cpuOrMemory = true;
  }
  for (const [name, value] of Object.entries(req.requests ?? {})) {
    const p = reqPath.key(name);
    errs.push(...validateContainerResourceName(name, p, names), ...validateResourceQuantityValue(names, name, value, p));
    const limit = limits[name];
    const requested = quantityOf(value);
    const limited = limit === undefined ? undefined : quantityOf(limit);
    if (limit !== undefined) {
      const cmp = requested && limited ? compareQuantities(requested, limited) : 0;
      if (cmp !== 0 && !isOvercommitAllowed(names, name)) errs.push(fieldErr.invalid(reqPath, value, `must be equal to ${name} limit`));
      else if (cmp > 0) errs.push(fieldErr.invalid(reqPath, value, `must be less than or equal to ${name} limit`));
    } else if (!isOvercommitAllowed(names, name)) {
      errs.push(fieldErr.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePagesResourceName(name)) hugePages = true;
    if (QOS_RESOURCES.has(name)) cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory) errs.push(fieldErr.forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}

/** Pod overhead: resource names and non-negative amounts. */
export function validateOverhead(overhead: Record<string, string> | undefined, path: FieldPath, names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, value] of Object.entries(overhead ?? {})) {
    errs.push(...validateContainerResourceName(name, path.key(name), names), ...validateResourceQuantityValue(names, name, value, path.key(name)));
  }
  return errs;
}
