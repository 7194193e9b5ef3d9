/** IntOrString fields of the workload strategies (maxSurge, maxUnavailable): a count, or a percentage such as "25%". */
import { fieldErr, type FieldError, type FieldPath } from '../../../machinery/field-errors.js';
import { validateNonNegative } from '../../core/v1/types/index.js';

export type IntOrString = number | string;
const PERCENT = /^[0-9]+%$/;
const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

export function percentValue(v: IntOrString | undefined): number | undefined {
  return typeof v === 'string' && PERCENT.test(v) ? Number.parseInt(v.slice(0, -1), 10) : undefined;
}

/** Go's IntOrString.IntValue: a string that is not a number reads as 0. */
export function intOrPercentValue(v: IntOrString | undefined): number {
  const pct = percentValue(v);
  if (pct !== undefined) return pct;
  if (typeof v === 'number') return v;
  return v !== undefined && /^[+-]?[0-9]+$/.test(v) ? Number.parseInt(v, 10) : 0;
}

export function validateIntOrPercent(v: IntOrString | undefined, path: FieldPath): FieldError[] {
  if (v === undefined) return [];
  if (typeof v === 'string') return PERCENT.test(v) ? [] : [fieldErr.invalid(path, v, PERCENT_MSG)];
  return validateNonNegative(v, path);
}

/** A percentage above 100% (IsNotMoreThan100Percent). */
export function validateNotMoreThan100Percent(v: IntOrString | undefined, path: FieldPath): FieldError[] {
  const pct = percentValue(v);
  return pct !== undefined && pct > 100 ? [fieldErr.invalid(path, v, 'must not be greater than 100%')] : [];
}
