/**
 * Field selectors (`fieldSelector`): `field=value`, `field==value`, `field!=value`, comma-separated,
 * with `\` escaping `\`, `,` and `=` in values, read as Kubernetes' fields.ParseSelector reads them
 * (no trimming, empty terms skipped). Which fields a kind supports is the kind's business; this
 * only parses and matches.
 */
export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  readonly empty: boolean;
  matches(fields: Readonly<Record<string, string>>): boolean;
  /** The value the selector pins a field to, if it has an equality requirement on it. */
  exactValue(field: string): string | undefined;
  toString(): string;
}

export class FieldSelectorParseError extends Error {}

/** Splits at commas that are not escaped; a backslash escapes the character after it. */
function splitTerms(input: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < input.length; i++) {
    const c = input[i] as string;
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === ',') {
      parts.push(input.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(input.slice(start));
  return parts;
}

const OPERATORS = ['!=', '==', '='] as const;

/**
 * Splits a term at the first place an operator starts (field names have no escapes), trying
 * `!=`, then `==`, then `=` there: `a=b!=c` is `a` = `b!=c`, as Kubernetes reads it.
 */
function splitTerm(term: string): [string, (typeof OPERATORS)[number], string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of OPERATORS) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

/** Removes the escapes of `\\`, `\,` and `\=`; any other escape, or a bare `,` or `=`, is an error. */
export function unescapeFieldValue(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    if (c === '\\') {
      const n = value[i + 1];
      if (n === '\\' || n === ',' || n === '=') {
        out += n;
        i++;
        continue;
      }
      throw new FieldSelectorParseError(`invalid field selector: invalid escape sequence: \\${n ?? ''}`);
    }
    if (c === ',' || c === '=') throw new FieldSelectorParseError(`invalid field selector: unescaped character in value: ${c}`);
    out += c;
  }
  return out;
}

/** Escapes a value so that it can stand on the right of a field selector term. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** Parses a field selector; empty terms are skipped. Throws FieldSelectorParseError. */
export function parseFieldSelector(input: string): FieldSelector {
  const requirements: FieldRequirement[] = [];
  for (const part of splitTerms(input)) {
    if (part === '') continue;
    const term = splitTerm(part);
    if (!term) throw new FieldSelectorParseError(`invalid selector: '${input}'; can't understand '${part}'`);
    const [field, op, raw] = term;
    requirements.push({ field, operator: op === '!=' ? '!=' : '=', value: unescapeFieldValue(raw) });
  }
  return {
    requirements,
    empty: requirements.length === 0,
    matches: (fields) =>
      requirements.every((r) => {
        const actual = fields[r.field] ?? '';
        return r.operator === '=' ? actual === r.value : actual !== r.value;
      }),
    exactValue: (field) => requirements.find((r) => r.field === field && r.operator === '=')?.value,
    toString: () => requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(','),
  };
}
