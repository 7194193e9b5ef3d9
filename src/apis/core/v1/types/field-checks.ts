/**
 * Small field checks shared by the core/v1 kinds and the kinds built on them (Service,
 * EndpointSlice, Pod and its templates, volumes, nodes), in Kubernetes' words: IPs, CIDRs, port
 * numbers and names, DNS names, qualified names, numeric signs, paths, and metav1 Conditions.
 */
import { fieldErr, type FieldError, type FieldPath } from '../../../../machinery/field-errors.js';
import { parseCIDR, parseIP, specialIPProblems } from '../../../../machinery/ip.js';
import { isDns1123Label, isDns1123Subdomain, isQualifiedName } from '../../../../machinery/name-validation.js';
import type { Condition } from '../../../../schema/index.js';

export const INVALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
export const INVALID_CIDR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
export const INVALID_PORT = 'must be between 1 and 65535, inclusive';
export const IS_NEGATIVE = 'must be greater than or equal to 0';
export const IS_NOT_POSITIVE = 'must be greater than zero';
export const IS_NOT_INTEGER = 'must be an integer';

export const inclusiveRange = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

/** A count or duration that may be zero but not negative. */
export function validateNonNegative(value: number | undefined, path: FieldPath): FieldError[] {
  return value !== undefined && value < 0 ? [fieldErr.invalid(path, value, IS_NEGATIVE)] : [];
}

/** No `..` element anywhere in the path (host paths, mount paths, sub-paths). */
export function validatePathNoBacksteps(target: string, path: FieldPath): FieldError[] {
  return target.split('/').includes('..') ? [fieldErr.invalid(path, target, "must not contain '..'")] : [];
}

export function validateIP(value: string, path: FieldPath | string): FieldError[] {
  return parseIP(value) ? [] : [fieldErr.invalid(path, value, INVALID_IP)];
}

export function validateCIDR(value: string, path: FieldPath | string): FieldError[] {
  return parseCIDR(value) ? [] : [fieldErr.invalid(path, value, INVALID_CIDR)];
}

/** Unspecified, loopback and link-local addresses are refused where traffic is sent to them. */
export function validateNonSpecialIP(value: string, path: FieldPath | string): FieldError[] {
  return specialIPProblems(value).map((m) => fieldErr.invalid(path, value, m));
}

export function portNumberProblems(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [INVALID_PORT];
}

/** IANA_SVC_NAME (RFC 6335): what a named port may be called. */
export function portNameProblems(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.length > 0 && (name.startsWith('-') || name.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** A port given as a number (1-65535) or as the name of a container port. */
export function validatePortNumOrName(port: number | string, path: FieldPath): FieldError[] {
  if (typeof port === 'number') return portNumberProblems(port).map((m) => fieldErr.invalid(path, port, m));
  return portNameProblems(port).map((m) => fieldErr.invalid(path, port, m));
}

export function validateDns1123Label(value: string, path: FieldPath | string): FieldError[] {
  return isDns1123Label(value).map((m) => fieldErr.invalid(path, value, m));
}

export function validateDns1123Subdomain(value: string, path: FieldPath | string): FieldError[] {
  return isDns1123Subdomain(value).map((m) => fieldErr.invalid(path, value, m));
}

/** A label key, a taint or toleration key, a topology key: a qualified name. */
export function validateQualifiedName(value: string, path: FieldPath | string): FieldError[] {
  return isQualifiedName(value).map((m) => fieldErr.invalid(path, value, m));
}

const CONDITION_REASON = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const CONDITION_REASON_RE = new RegExp(`^${CONDITION_REASON}$`);
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const MAX_REASON_LEN = 1024;
const MAX_MESSAGE_LEN = 32 * 1024;

/** metav1 Conditions (apimachinery's ValidateConditions): unique types, and each well-formed. */
export function validateConditions(conditions: readonly Condition[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const p = path.index(i);
    if (seen.has(c.type)) errs.push(fieldErr.duplicate(p.child('type'), c.type));
    seen.add(c.type);
    errs.push(...validateQualifiedName(c.type, p.child('type')));
    if (!CONDITION_STATUSES.includes(c.status)) errs.push(fieldErr.notSupported(p.child('status'), c.status, CONDITION_STATUSES));
    if ((c.observedGeneration ?? 0) < 0) errs.push(fieldErr.invalid(p.child('observedGeneration'), c.observedGeneration, 'must be greater than or equal to zero'));
    if (!c.lastTransitionTime) errs.push(fieldErr.required(p.child('lastTransitionTime'), 'must be set'));
    if (!c.reason) {
      errs.push(fieldErr.required(p.child('reason'), 'must be set'));
    } else {
      if (!CONDITION_REASON_RE.test(c.reason)) {
        errs.push(
          fieldErr.invalid(
            p.child('reason'),
            c.reason,
            `a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '${CONDITION_REASON}')`,
          ),
        );
      }
      if (c.reason.length > MAX_REASON_LEN) errs.push(fieldErr.tooLong(p.child('reason'), MAX_REASON_LEN));
    }
    if (c.message.length > MAX_MESSAGE_LEN) errs.push(fieldErr.tooLong(p.child('message'), MAX_MESSAGE_LEN));
  });
  return errs;
}
