/**
 * Small rules the pod validators share, each in Kubernetes' words: numeric ranges, port numbers and
 * names, environment variable names, paths inside a volume, file modes, IP addresses, qualified
 * names and structured label selectors.
 */
import { isIP } from 'node:net';
import { fieldErr, type FieldError, type FieldPath } from '../../../../../machinery/field-errors.js';
import { isDns1123Label, isDns1123Subdomain, isQualifiedName, isValidLabelValue } from '../../../../../machinery/name-validation.js';
import type { LabelSelector } from '../../../../../schema/index.js';

export const NEGATIVE_MSG = 'must be greater than or equal to 0';
export const NOT_POSITIVE_MSG = 'must be greater than zero';
export const FILE_MODE_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';
export const INT32_MAX = 2147483647;

export const inclusiveRange = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

export function nonNegative(value: number | undefined, path: FieldPath): FieldError[] {
  return value !== undefined && value < 0 ? [fieldErr.invalid(path, value, NEGATIVE_MSG)] : [];
}

export function portNumberMessages(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRange(1, 65535)];
}

/** IANA_SVC_NAME: what a named port may be called. */
export function portNameMessages(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** A probe or hook port: a number in range or a valid port name. */
export function validatePortNumOrName(port: number | string, path: FieldPath): FieldError[] {
  const msgs = typeof port === 'number' ? portNumberMessages(port) : portNameMessages(port);
  return msgs.map((m) => fieldErr.invalid(path, port, m));
}

const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

export function envVarNameMessages(name: string): string[] {
  const errs: string[] = [];
  if (!ENV_VAR_NAME.test(name)) {
    errs.push(
      "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
    );
  }
  if (name === '.') errs.push("must not be '.'");
  else if (name === '..') errs.push("must not be '..'");
  else if (name.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

export function validatePathNoBacksteps(target: string, path: FieldPath): FieldError[] {
  return target.split('/').includes('..') ? [fieldErr.invalid(path, target, "must not contain '..'")] : [];
}

/** A path inside a volume: relative and never climbing out of it. */
export function validateLocalDescendingPath(target: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(fieldErr.invalid(path, target, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(target, path));
  return errs;
}

/** A file path in a projected volume, which may not start with `..` (the kubelet's own names). */
export function validateLocalNonReservedPath(target: string, path: FieldPath): FieldError[] {
  const errs = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(fieldErr.invalid(path, target, "must not start with '..'"));
  return errs;
}

export function validateFileMode(mode: number | undefined, path: FieldPath): FieldError[] {
  return mode !== undefined && (mode < 0 || mode > 0o777) ? [fieldErr.invalid(path, mode, FILE_MODE_MSG)] : [];
}

export const isValidIP = (ip: string): boolean => isIP(ip) !== 0;

export const IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

export function validateQualifiedName(value: string, path: FieldPath): FieldError[] {
  return isQualifiedName(value).map((m) => fieldErr.invalid(path, value, m));
}

export function validateDns1123Label(value: string, path: FieldPath): FieldError[] {
  return isDns1123Label(value).map((m) => fieldErr.invalid(path, value, m));
}

export function validateDns1123Subdomain(value: string, path: FieldPath): FieldError[] {
  return isDns1123Subdomain(value).map((m) => fieldErr.invalid(path, value, m));
}

export function validateLabelMap(labels: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    errs.push(...validateQualifiedName(k, path));
    for (const m of isValidLabelValue(v)) errs.push(fieldErr.invalid(path, v, m));
  }
  return errs;
}

/** A structured label selector (matchLabels, matchExpressions), as metav1 validation checks it. */
export function validateLabelSelector(sel: LabelSelector | undefined, path: FieldPath): FieldError[] {
  if (!sel) return [];
  const errs: FieldError[] = [];
  (sel.matchExpressions ?? []).forEach((req, i) => {
    const p = path.child('matchExpressions').index(i);
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(fieldErr.required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(fieldErr.forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(fieldErr.invalid(p.child('operator'), req.operator, 'not a valid selector operator'));
    }
    errs.push(...validateQualifiedName(req.key, p.child('key')));
  });
  errs.push(...validateLabelMap(sel.matchLabels, path.child('matchLabels')));
  return errs;
}

/** Whether a selector has nothing in it (which selects everything, or nothing for workloads). */
export function isEmptySelector(sel: LabelSelector | undefined): boolean {
  return Object.keys(sel?.matchLabels ?? {}).length + (sel?.matchExpressions ?? []).length === 0;
}
