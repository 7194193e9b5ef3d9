/**
 * Small rules only the pod validators use, each in Kubernetes' words: environment variable names,
 * paths inside a volume, file modes and empty selectors. The checks pods share with other kinds
 * (names, ports, IPs, label maps, selectors) live in types/field-checks.ts and machinery.
 */
import type { LabelSelector } from '../../../../../schema/index.js';
import { fieldErr, type FieldError, type FieldPath } from '../../../../../machinery/field-errors.js';
import { validatePathNoBacksteps } from '../../types/index.js';

export const FILE_MODE_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';
export const INT32_MAX = 2147483647;

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

/** Whether a selector has nothing in it (which selects everything, or nothing for workloads). */
export function isEmptySelector(sel: LabelSelector | undefined): boolean {
  return Object.keys(sel?.matchLabels ?? {}).length + (sel?.matchExpressions ?? []).length === 0;
}
