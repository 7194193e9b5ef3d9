/**
 * resource.Quantity: parsing, comparison and the canonical text Kubernetes prints. A quantity is a
 * decimal number (kept exactly, as a bigint mantissa and a power-of-ten exponent) with the format
 * its suffix chose: DecimalSI (`500m`, `2k`), BinarySI (`1Gi`) or DecimalExponent (`1e3`). The
 * canonical text depends on the format, so `0.5` reads back as `500m` and `1024Mi` as `1Gi`.
 * Pure functions; parseQuantity throws QuantityError for text that is not a quantity.
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** value = mantissa × 10^exponent */
  readonly mantissa: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;
}

export class QuantityError extends Error {}

export const QUANTITY_FORMAT_MESSAGE = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const NUMERIC_MESSAGE = "unable to parse quantity's numeric value";
export const QUANTITY_SUFFIX_MESSAGE = "unable to parse quantity's suffix";

const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const SUFFIX_CHARS = 'eEinumkKMGTP';
/** Kubernetes keeps no more precision than nano units; smaller amounts round up to 1n. */
const NANO = -9;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

interface Parts {
  negative: boolean;
  whole: string;
  fraction: string;
  suffix: string;
}

/** Splits the text as Kubernetes' parser does: sign, digits, optional fraction, suffix. */
function split(text: string): Parts {
  let pos = 0;
  const end = text.length;
  let negative = false;
  if (text[0] === '-') {
    negative = true;
    pos++;
  } else if (text[0] === '+') {
    pos++;
  }
  const digitsStart = pos;
  while (pos < end && text[pos] === '0') pos++;
  if (pos >= end) return { negative, whole: '0', fraction: '', suffix: '' };
  let start = pos;
  while (pos < end && isDigit(text[pos])) pos++;
  const whole = text.slice(start, pos) || '0';
  let sawDigit = pos > digitsStart;
  let fraction = '';
  if (text[pos] === '.') {
    pos++;
    start = pos;
    while (pos < end && isDigit(text[pos])) pos++;
    fraction = text.slice(start, pos);
    sawDigit ||= fraction.length > 0;
  }
  // "." or "-.5"-less text such as "-.G" has no digits at all: not a number.
  if (!sawDigit) throw new QuantityError(pos === digitsStart ? QUANTITY_FORMAT_MESSAGE : NUMERIC_MESSAGE);
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(text[pos] as string)) pos++;
  if (text[pos] === '-' || text[pos] === '+') pos++;
  while (pos < end && isDigit(text[pos])) pos++;
  if (pos < end) throw new QuantityError(QUANTITY_FORMAT_MESSAGE);
  return { negative, whole, fraction, suffix: text.slice(suffixStart) };
}

function interpretSuffix(suffix: string): { base: 10 | 2; exponent: number; format: QuantityFormat } {
  const dec = DECIMAL_SUFFIXES[suffix];
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = BINARY_SUFFIXES[suffix];
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (/^[eE][-+]?[0-9]+$/.test(suffix)) return { base: 10, exponent: Number(suffix.slice(1)), format: 'DecimalExponent' };
  throw new QuantityError(QUANTITY_SUFFIX_MESSAGE);
}

const TEN = 10n;
const pow10 = (n: number): bigint => TEN ** BigInt(n);
const abs = (v: bigint): bigint => (v < 0n ? -v : v);

/** Rounds |value| up (away from zero) to the given exponent when it is finer than that. */
function roundAwayFromZero(mantissa: bigint, exponent: number, to: number): { mantissa: bigint; exponent: number } {
  if (exponent >= to || mantissa === 0n) return { mantissa, exponent };
  const div = pow10(to - exponent);
  const magnitude = abs(mantissa);
  let q = magnitude / div;
  if (magnitude % div !== 0n) q += 1n;
  return { mantissa: mantissa < 0n ? -q : q, exponent: to };
}

export function parseQuantity(input: string): Quantity {
  const text = input.trim();
  if (text.length === 0) throw new QuantityError(QUANTITY_FORMAT_MESSAGE);
  const parts = split(text);
  const { base, exponent, format: parsedFormat } = interpretSuffix(parts.suffix);
  let mantissa = BigInt(parts.whole + parts.fraction);
  let exp = -parts.fraction.length;
  if (base === 10) exp += exponent;
  else mantissa *= 2n ** BigInt(exponent);
  if (parts.negative) mantissa = -mantissa;
  ({ mantissa, exponent: exp } = roundAwayFromZero(mantissa, exp, NANO));
  let format = parsedFormat;
  // A binary amount below one is shown in decimal units (0.5Ki is 512, but 0.0001Ki is 102400u).
  if (format === 'BinarySI' && mantissa > 0n && compare({ mantissa, exponent: exp }, { mantissa: 1n, exponent: 0 }) < 0) format = 'DecimalSI';
  return { mantissa, exponent: exp, format };
}

/** Whether the text parses as a quantity. */
export function isQuantity(text: string): boolean {
  try {
    parseQuantity(text);
    return true;
  } catch {
    return false;
  }
}

function compare(a: { mantissa: bigint; exponent: number }, b: { mantissa: bigint; exponent: number }): number {
  const e = Math.min(a.exponent, b.exponent);
  const x = a.mantissa * pow10(a.exponent - e);
  const y = b.mantissa * pow10(b.exponent - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  return compare(a, b);
}

export function quantitySign(q: Quantity): number {
  return q.mantissa < 0n ? -1 : q.mantissa > 0n ? 1 : 0;
}

/** Rounds away from zero to 10^exponent (Kubernetes' RoundUp; ResourceList defaulting uses milli). */
export function roundUpQuantity(q: Quantity, exponent: number): Quantity {
  const r = roundAwayFromZero(q.mantissa, q.exponent, exponent);
  return { ...q, mantissa: r.mantissa, exponent: r.exponent };
}

/** Whether the quantity is a whole number (Kubernetes' `MilliValue() % 1000 == 0` for integer resources). */
export function isWholeQuantity(q: Quantity): boolean {
  return asInteger(q) !== undefined;
}

/** The value as an integer when it is one exactly (no fractional part). */
function asInteger(q: Quantity): bigint | undefined {
  if (q.exponent >= 0) return q.mantissa * pow10(q.exponent);
  const div = pow10(-q.exponent);
  return q.mantissa % div === 0n ? q.mantissa / div : undefined;
}

/** Kubernetes' `Quantity.Value()`: the amount in whole units, rounded away from zero (approximate beyond 2^53). */
export function wholeValue(q: Quantity): number {
  const r = roundAwayFromZero(q.mantissa, q.exponent, 0);
  return Number(r.mantissa * pow10(r.exponent));
}

const DECIMAL_SUFFIX_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));
const BINARY_SUFFIX_BY_EXPONENT = new Map(Object.entries(BINARY_SUFFIXES).map(([s, e]) => [e, s]));

/** The text Kubernetes prints for a quantity. */
export function formatQuantity(q: Quantity): string {
  if (q.mantissa === 0n) return '0';
  let format = q.format;
  let integer: bigint | undefined;
  if (format === 'BinarySI') {
    integer = asInteger(q);
    const small = compare(q, { mantissa: -1024n, exponent: 0 }) > 0 && compare(q, { mantissa: 1024n, exponent: 0 }) < 0;
    // Small amounts and fractions would lose precision or read oddly in binary units.
    if (small || integer === undefined) format = 'DecimalSI';
  }
  if (format === 'BinarySI' && integer !== undefined) {
    let amount = integer;
    let steps = 0;
    while (amount % 1024n === 0n && steps < 6) {
      amount /= 1024n;
      steps++;
    }
    return `${amount}${BINARY_SUFFIX_BY_EXPONENT.get(steps * 10) ?? ''}`;
  }
  // Move factors of ten into the exponent, then lower it to a multiple of three.
  let mantissa = q.mantissa;
  let exponent = q.exponent;
  while (mantissa % TEN === 0n) {
    mantissa /= TEN;
    exponent++;
  }
  while (((exponent % 3) + 3) % 3 !== 0) {
    mantissa *= TEN;
    exponent--;
  }
  if (format === 'DecimalExponent') return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  if (exponent > 18) {
    mantissa *= pow10(exponent - 18);
    exponent = 18;
  }
  return `${mantissa}${DECIMAL_SUFFIX_BY_EXPONENT.get(exponent) ?? ''}`;
}

/** Parses and prints back: the canonical text of a quantity. Throws QuantityError. */
export function canonicalQuantity(text: string): string {
  return formatQuantity(parseQuantity(text));
}

/** a + b, keeping a's format (Kubernetes' Quantity.Add). */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const e = Math.min(a.exponent, b.exponent);
  return { mantissa: a.mantissa * pow10(a.exponent - e) + b.mantissa * pow10(b.exponent - e), exponent: e, format: a.format };
}
