/**
 * Resource names and amounts (ResourceList keys and values), in Kubernetes' words: which names are
 * native or extended, which count in whole units, and the signs amounts may have. Shared by
 * containers, pod overhead, claims, volumes and nodes.
 */
import type { ApiNames } from '../../../../machinery/api-names.js';
import { fieldErr, type FieldError, type FieldPath } from '../../../../machinery/field-errors.js';
import { isQualifiedName } from '../../../../machinery/name-validation.js';
import { isWholeQuantity, parseQuantity, quantitySign, wholeValue, type Quantity } from '../../../../machinery/quantity.js';
import { IS_NEGATIVE, IS_NOT_INTEGER, IS_NOT_POSITIVE } from '../types/field-checks.js';


/** Resources counted in whole units (quota objects, extended resources). */
const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

/** A stored quantity, or undefined when the text is none (decoding refuses those, so rarely). Callers skip checks on undefined. */
export function quantityOf(text: string): Quantity | undefined {
  try {
    return parseQuantity(text);
  } catch {
    return undefined;
  }
}

/** Unprefixed names and names under the label domain are the system's own resources. */
export function isNativeResource(names: ApiNames, name: string): boolean {
  return !name.includes('/') || name.includes(`${names.labelDomain}/`);
}

/** `example.com/gpu`: a fully qualified name outside the system's domain, not a quota name. */
export function isExtendedResourceName(names: ApiNames, name: string): boolean {
  if (isNativeResource(names, name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

export const isHugePagesResourceName = (name: string): boolean => name.startsWith('hugepages-');

/** Requests below limits are allowed only for native resources other than huge pages. */
export function isOvercommitAllowed(names: ApiNames, name: string): boolean {
  return isNativeResource(names, name) && !isHugePagesResourceName(name);
}

export function isIntegerResourceName(names: ApiNames, name: string): boolean {
  return INTEGER_RESOURCES.has(name) || isExtendedResourceName(names, name);
}

export function validateNonnegativeQuantity(text: string, path: FieldPath): FieldError[] {
  const q = quantityOf(text);
  return q && quantitySign(q) < 0 ? [fieldErr.invalid(path, text, IS_NEGATIVE)] : [];
}

export function validatePositiveQuantity(text: string, path: FieldPath): FieldError[] {
  const q = quantityOf(text);
  return q && quantitySign(q) <= 0 ? [fieldErr.invalid(path, text, IS_NOT_POSITIVE)] : [];
}

/** Non-negative, and whole for resources counted in units (Kubernetes' ValidateResourceQuantityValue). */
export function validateResourceQuantityValue(names: ApiNames, resource: string, text: string, path: FieldPath): FieldError[] {
  const errs = validateNonnegativeQuantity(text, path);
  const q = quantityOf(text);
  if (q && isIntegerResourceName(names, resource) && !isWholeQuantity(q)) errs.push(fieldErr.invalid(path, text, IS_NOT_INTEGER));
  return errs;
}

/** A capacity amount must not be negative (its whole value is shown, as Kubernetes does). */
export function validateBasicResource(text: string, path: FieldPath): FieldError[] {
  const q = quantityOf(text);
  return q && wholeValue(q) < 0 ? [fieldErr.invalid(path, wholeValue(q), 'must be a valid resource quantity')] : [];
}
