/**
 * LimitRange's checks of one resource, in Kubernetes' words: minimum, maximum and the largest
 * limit-to-request ratio, for a Container, a Pod (the sums) or a PersistentVolumeClaim. Amounts
 * are compared in thousandths, rounded up, as Kubernetes compares them. Each returns the problem's
 * message or undefined. Pure.
 */
import { compareQuantities, formatQuantity, roundUpQuantity, type Quantity } from '../../../machinery/quantity.js';
import { quantityOf, type ResourceList } from '../../../machinery/resource-list.js';

const milli = (q: Quantity): Quantity => roundUpQuantity(q, -3);
const text = (s: string): string => {
  const q = quantityOf(s);
  return q ? formatQuantity(q) : s;
};
/** a compared with b, at milli precision. */
const cmp = (a: Quantity, b: Quantity): number => compareQuantities(milli(a), milli(b));

export function minConstraint(type: string, resource: string, enforcedText: string, requests: ResourceList, limits: ResourceList): string | undefined {
  const enforced = quantityOf(enforcedText);
  if (!enforced) return undefined;
  const e = text(enforcedText);
  const reqText = requests[resource];
  if (reqText === undefined) return `minimum ${resource} usage per ${type} is ${e}.  No request is specified`;
  const req = quantityOf(reqText);
  if (req && cmp(req, enforced) < 0) return `minimum ${resource} usage per ${type} is ${e}, but request is ${text(reqText)}`;
  const limText = limits[resource];
  const lim = quantityOf(limText);
  if (limText !== undefined && lim && cmp(lim, enforced) < 0) return `minimum ${resource} usage per ${type} is ${e}, but limit is ${text(limText)}`;
  return undefined;
}

export function maxConstraint(type: string, resource: string, enforcedText: string, requests: ResourceList, limits: ResourceList): string | undefined {
  const enforced = quantityOf(enforcedText);
  if (!enforced) return undefined;
  const e = text(enforcedText);
  const limText = limits[resource];
  if (limText === undefined) return `maximum ${resource} usage per ${type} is ${e}.  No limit is specified`;
  const lim = quantityOf(limText);
  if (lim && cmp(lim, enforced) > 0) return `maximum ${resource} usage per ${type} is ${e}, but limit is ${text(limText)}`;
  const reqText = requests[resource];
  const req = quantityOf(reqText);
  if (reqText !== undefined && req && cmp(req, enforced) > 0) return `maximum ${resource} usage per ${type} is ${e}, but request is ${text(reqText)}`;
  return undefined;
}

/** A claim's maximum applies to what it requests (a claim's limits are not the user's ask). */
export function maxRequestConstraint(type: string, resource: string, enforcedText: string, requests: ResourceList): string | undefined {
  const enforced = quantityOf(enforcedText);
  if (!enforced) return undefined;
  const e = text(enforcedText);
  const reqText = requests[resource];
  if (reqText === undefined) return `maximum ${resource} usage per ${type} is ${e}.  No request is specified`;
  const req = quantityOf(reqText);
  if (req && cmp(req, enforced) > 0) return `maximum ${resource} usage per ${type} is ${e}, but request is ${text(reqText)}`;
  return undefined;
}

/** The value in thousandths as a number (exact enough for a ratio). */
const milliNumber = (q: Quantity): number => {
  const m = milli(q);
  return Number(m.mantissa) * 10 ** (m.exponent + 3);
};

export function limitRequestRatioConstraint(type: string, resource: string, enforcedText: string, requests: ResourceList, limits: ResourceList): string | undefined {
  const enforced = quantityOf(enforcedText);
  if (!enforced) return undefined;
  const e = text(enforcedText);
  const req = quantityOf(requests[resource]);
  if (!req || milliNumber(req) === 0) return `${resource} max limit to request ratio per ${type} is ${e}, but no request is specified or request is 0`;
  const lim = quantityOf(limits[resource]);
  if (!lim || milliNumber(lim) === 0) return `${resource} max limit to request ratio per ${type} is ${e}, but no limit is specified or limit is 0`;
  const ratio = milliNumber(lim) / milliNumber(req);
  if (ratio * 1000 > milliNumber(enforced)) return `${resource} max limit to request ratio per ${type} is ${e}, but provided ratio is ${ratio.toFixed(6)}`;
  return undefined;
}
