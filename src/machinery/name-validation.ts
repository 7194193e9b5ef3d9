/**
 * The name and key rules of Kubernetes (RFC 1123 labels and subdomains, qualified names, label
 * values). Each returns the list of problems as messages, empty when valid, in Kubernetes' words.
 */
const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL}$`);
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN}$`);
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL}$`);
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME}$`);
const LABEL_VALUE = `(${QUALIFIED_NAME})?`;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE}$`);

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;

const tooLong = (max: number): string => `must be no more than ${max} characters`;

export function isDns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX) errs.push(tooLong(DNS1123_LABEL_MAX));
  if (!DNS1123_LABEL_RE.test(value)) {
    errs.push(
      `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL}')`,
    );
  }
  return errs;
}

export function isDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX) errs.push(tooLong(DNS1123_SUBDOMAIN_MAX));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) {
    errs.push(
      `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN}')`,
    );
  }
  return errs;
}

export function isDns1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX) errs.push(tooLong(DNS1123_LABEL_MAX));
  if (!DNS1035_LABEL_RE.test(value)) {
    errs.push(
      `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${DNS1035_LABEL}')`,
    );
  }
  return errs;
}

/** Names that are only path segments (RBAC objects, for instance). */
export function isPathSegmentName(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  const errs: string[] = [];
  if (value.includes('/')) errs.push(`may not contain '/'`);
  if (value.includes('%')) errs.push(`may not contain '%'`);
  return errs;
}

/** `prefix/name` or `name`, as label and annotation keys and finalizers use. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of isDns1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [
      `a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME}') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push(`name part ${tooLong(63)}`);
  if (name.length > 0 && !QUALIFIED_NAME_RE.test(name)) {
    errs.push(
      `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME}')`,
    );
  }
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(tooLong(63));
  if (!LABEL_VALUE_RE.test(value)) {
    errs.push(
      `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '${LABEL_VALUE}')`,
    );
  }
  return errs;
}

export type NameValidator = (name: string, isPrefix: boolean) => string[];

/** A generateName prefix may end in '-'; validate it as if a suffix followed. */
function maskTrailingDash(name: string, isPrefix: boolean): string {
  return isPrefix && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
}

export const nameValidators = {
  dnsSubdomain: ((name, isPrefix) => isDns1123Subdomain(maskTrailingDash(name, isPrefix))) as NameValidator,
  dnsLabel: ((name, isPrefix) => isDns1123Label(maskTrailingDash(name, isPrefix))) as NameValidator,
  dns1035Label: ((name, isPrefix) => isDns1035Label(maskTrailingDash(name, isPrefix))) as NameValidator,
  pathSegment: ((name) => isPathSegmentName(name)) as NameValidator,
};
