/**
 * Value rules the networking kinds share, in Kubernetes' words: wildcard hosts, domain-prefixed
 * paths, port names and numbers, IP addresses. Each returns messages (empty when valid) or
 * FieldErrors, and never throws.
 */
import { isIP } from 'node:net';
import { fieldErr, type FieldError, type FieldPath } from '../../../machinery/field-errors.js';
import { DNS1123_SUBDOMAIN_MAX, isDns1123Subdomain } from '../../../machinery/name-validation.js';

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const WILDCARD_SUBDOMAIN = `\\*\\.${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const WILDCARD_SUBDOMAIN_RE = new RegExp(`^${WILDCARD_SUBDOMAIN}$`);

/** `*.example.com`: a wildcard label followed by a DNS subdomain. */
export function isWildcardDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX) errs.push(`must be no more than ${DNS1123_SUBDOMAIN_MAX} characters`);
  if (!WILDCARD_SUBDOMAIN_RE.test(value)) {
    errs.push(
      `a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '${WILDCARD_SUBDOMAIN}')`,
    );
  }
  return errs;
}

// The characters RFC 3986 allows in an HTTP path.
const HTTP_PATH = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH}$`);

/** `acme.io/foo`: a DNS subdomain, a slash, and a non-empty HTTP path. Empty is Required. */
export function validateDomainPrefixedPath(path: FieldPath, value: string): FieldError[] {
  if (value.length === 0) return [fieldErr.required(path)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host.length === 0 || rest.length === 0) {
    return [fieldErr.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs = isDns1123Subdomain(host).map((m) => fieldErr.invalid(path, host, m));
  if (!HTTP_PATH_RE.test(rest)) errs.push(fieldErr.invalid(path, rest, `Invalid path (regex used for validation is '${HTTP_PATH}')`));
  return errs;
}

/** An IANA_SVC_NAME: at most 15 lowercase letters, digits and single inner hyphens, with a letter. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/**
 * Whether the text is an IP address as Go's "sloppy" parser reads it: standard forms, plus IPv4
 * with leading zeros in a part (`010.0.0.1`), which Kubernetes still accepts in old fields.
 */
export function isIpSloppy(value: string): boolean {
  if (isIP(value) !== 0) return true;
  const parts = value.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}
