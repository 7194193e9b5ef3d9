/**
 * Resource quantities (`resource.Quantity`): `128Mi`, `500m`, `1e3`, `2`. Parsed into an exact
 * rational so they compare without rounding; printed in the canonical form Kubernetes stores and
 * returns (`1024Mi` → `1Gi`, `1000` → `1k`, `0.5` → `500m`). Pure.
 */

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

type Format = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

export interface Quantity {
  /** The value is `num / den`, with `den` a positive power of ten. */
  readonly num: bigint;
  readonly den: bigint;
  readonly format: Format;
}

export class QuantityParseError extends Error {}

const SHAPE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*)([-+]?[0-9]*)$/;
const BINARY: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const NANO = 10n ** 9n;

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Parses a quantity; throws QuantityParseError with Kubernetes' message when it is not one. */
export function parseQuantity(text: string): Quantity {
  const m = SHAPE.exec(text);
  if (!m || text.length === 0) throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
  const [, sign = '', whole = '', frac = '', letters = '', exponent = ''] = m;
  if (whole === '' && frac === '') throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
  let num = BigInt(`${whole}${frac}` || '0');
  let den = pow10(frac.length);
  if (sign === '-') num = -num;
  let format: Format;
  if (exponent !== '') {
    // A decimal exponent: `e3`, `E-2`; any other letters before digits are not a suffix.
    if (letters !== 'e' && letters !== 'E') throw new QuantityParseError(QUANTITY_SUFFIX_ERROR);
    const e = Number(exponent);
    if (!/^[-+]?[0-9]+$/.test(exponent) || !Number.isSafeInteger(e)) throw new QuantityParseError(QUANTITY_SUFFIX_ERROR);
    if (e >= 0) num *= pow10(e);
    else den *= pow10(-e);
    format = 'DecimalExponent';
  } else if (letters in BINARY) {
    num *= 1024n ** BigInt(BINARY[letters] as number);
    format = 'BinarySI';
  } else if (letters in DECIMAL) {
    const e = DECIMAL[letters] as number;
    if (e >= 0) num *= pow10(e);
    else den *= pow10(-e);
    format = 'DecimalSI';
  } else {
    throw new QuantityParseError(QUANTITY_SUFFIX_ERROR);
  }
  return roundToNano(reduce({ num, den, format }));
}

/** Whether `text` is a quantity. */
export function isQuantity(text: string): boolean {
  try {
    parseQuantity(text);
    return true;
  } catch {
    return false;
  }
}

function reduce(q: Quantity): Quantity {
  let { num, den } = q;
  while (den > 1n && num % 10n === 0n) {
    num /= 10n;
    den /= 10n;
  }
  return { num, den, format: q.format };
}

/** Kubernetes keeps nine decimal places, rounding what is finer away from zero. */
function roundToNano(q: Quantity): Quantity {
  if (q.den <= NANO) return q;
  const factor = q.den / NANO;
  let num = q.num / factor;
  if (q.num % factor !== 0n) num += q.num < 0n ? -1n : 1n;
  return reduce({ num, den: NANO, format: q.format });
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

export function quantitySign(q: Quantity): number {
  return q.num < 0n ? -1 : q.num > 0n ? 1 : 0;
}

/** Whether the quantity is a whole number (Kubernetes' `MilliValue() % 1000 == 0`). */
export function isWholeQuantity(q: Quantity): boolean {
  return q.den === 1n;
}

/** Canonical text, as Kubernetes prints a Quantity it decoded (its String()). */
export function formatQuantity(q: Quantity): string {
  if (q.num === 0n) return '0';
  if (q.format === 'BinarySI' && q.den === 1n && (q.num >= 1024n || q.num <= -1024n)) {
    let num = q.num;
    let k = 0;
    while (k < 6 && num % 1024n === 0n) {
      num /= 1024n;
      k++;
    }
    return `${num}${['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][k]}`;
  }
  // Decimal: mantissa × 10^exponent with the exponent a multiple of three, mantissa whole.
  let mantissa = q.num;
  let exponent = -(q.den.toString().length - 1);
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  while (((exponent % 3) + 3) % 3 !== 0) {
    mantissa *= 10n;
    exponent--;
  }
  if (q.format === 'DecimalExponent') return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  // The SI prefixes end at E (10^18); larger values keep E with a longer mantissa.
  while (exponent > 18) {
    mantissa *= 1000n;
    exponent -= 3;
  }
  const suffix = Object.entries(DECIMAL).find(([, e]) => e === exponent)?.[0] ?? '';
  return `${mantissa}${suffix}`;
}

/** Parses and re-prints: the form a decoded Quantity is stored and returned in. */
export function canonicalQuantity(text: string): string {
  return formatQuantity(parseQuantity(text));
}
