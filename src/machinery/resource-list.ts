/** Resource lists (`{cpu: "500m", memory: "1Gi"}`) as admission plugins and the quota code read them. Pure. */
import { compareQuantities, parseQuantity, QuantityError, type Quantity } from './quantity.js';

export type ResourceList = Record<string, string>;

/** The quantity, or undefined for text that is not one (validation refuses that with its own message). */
export function quantityOf(text: string | undefined): Quantity | undefined {
  if (text === undefined) return undefined;
  try {
    return parseQuantity(text);
  } catch (e) {
    if (e instanceof QuantityError) return undefined;
    throw e;
  }
}

/** Semantic equality: the same names with equal amounts (`1Gi` equals `1024Mi`). */
export function sameResources(a: ResourceList | undefined | null, b: ResourceList | undefined | null): boolean {
  const x = a ?? {};
  const y = b ?? {};
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => {
    const p = quantityOf(x[k]);
    const q = quantityOf(y[k]);
    return p && q ? compareQuantities(p, q) === 0 : x[k] === y[k];
  });
}
