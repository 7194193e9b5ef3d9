/**
 * Field selectors (`fieldSelector`): `field=value`, `field==value`, `field!=value`, comma-separated,
 * with `\` escaping. Which fields a kind supports is the kind's business; this only parses and matches.
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

function splitUnescaped(input: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i] as string;
    if (c === '\\' && i + 1 < input.length) {
      current += c + (input[i + 1] as string);
      i++;
    } else if (c === sep) {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}

function unescape(value: string, whole: string): string {
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
      throw new FieldSelectorParseError(`invalid field selector: '${whole}': invalid escape sequence`);
    }
    if (c === ',' || c === '=') throw new FieldSelectorParseError(`invalid field selector: '${whole}': unescaped '${c}' in value`);
    out += c;
  }
  return out;
}

export function parseFieldSelector(input: string): FieldSelector {
  const requirements: FieldRequirement[] = [];
  const trimmed = input.trim();
  if (trimmed !== '') {
    for (const part of splitUnescaped(trimmed, ',')) {
      let match: RegExpMatchArray | null = null;
      // The first operator wins: `!=`, then `==`, then `=`.
      for (const op of ['!=', '==', '=']) {
        const at = indexOfUnescaped(part, op);
        if (at > 0) {
          match = [part, part.slice(0, at), op, part.slice(at + op.length)];
          break;
        }
      }
      if (!match) throw new FieldSelectorParseError(`invalid selector: '${input}'; can't understand '${part}'`);
      const field = (match[1] as string).trim();
      const op = match[2] === '!=' ? '!=' : '=';
      requirements.push({ field, operator: op, value: unescape(match[3] as string, input) });
    }
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
    toString: () => requirements.map((r) => `${r.field}${r.operator}${r.value}`).join(','),
  };
}

function indexOfUnescaped(s: string, needle: string): number {
  for (let i = 0; i <= s.length - needle.length; i++) {
    if (s[i] === '\\') {
      i++;
      continue;
    }
    if (s.startsWith(needle, i)) return i;
  }
  return -1;
}
