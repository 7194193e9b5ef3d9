/**
 * Label selectors: the full string syntax of `labelSelector` (equality, set-based, existence,
 * `>`/`<`) and the structured LabelSelector of object specs, both compiled to one matcher.
 */
import { isQualifiedName, isValidLabelValue } from './name-validation.js';

export type Operator = 'in' | 'notin' | 'exists' | '!' | '=' | '==' | '!=' | 'gt' | 'lt';

export interface Requirement {
  key: string;
  operator: Operator;
  values: string[];
}

export interface LabelSelector {
  readonly requirements: readonly Requirement[];
  readonly empty: boolean;
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  toString(): string;
}

export class SelectorParseError extends Error {}

type Token =
  | { kind: 'id'; text: string }
  | { kind: 'op'; text: '=' | '==' | '!=' | '!' | '>' | '<' }
  | { kind: '(' | ')' | ',' | 'end' };

const SPECIAL = new Set(['=', '!', '(', ')', ',', '<', '>']);
/** Kubernetes' selector whitespace; any other character (a no-break space, say) is part of an identifier. */
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

function lex(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i] as string;
    if (isSpace(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: c });
      i++;
    } else if (c === '=') {
      if (input[i + 1] === '=') {
        tokens.push({ kind: 'op', text: '==' });
        i += 2;
      } else {
        tokens.push({ kind: 'op', text: '=' });
        i++;
      }
    } else if (c === '!') {
      if (input[i + 1] === '=') {
        tokens.push({ kind: 'op', text: '!=' });
        i += 2;
      } else {
        tokens.push({ kind: 'op', text: '!' });
        i++;
      }
    } else if (c === '>' || c === '<') {
      tokens.push({ kind: 'op', text: c });
      i++;
    } else {
      let j = i;
      // Stops only where the loop above makes progress, so every iteration consumes input.
      while (j < input.length && !SPECIAL.has(input[j] as string) && !isSpace(input[j] as string)) j++;
      tokens.push({ kind: 'id', text: input.slice(i, j) });
      i = j;
    }
  }
  tokens.push({ kind: 'end' });
  return tokens;
}

function describe(t: Token): string {
  if (t.kind === 'id' || t.kind === 'op') return `'${t.text}'`;
  if (t.kind === 'end') return 'end of string';
  return `'${t.kind}'`;
}

function validateKey(key: string): void {
  const errs = isQualifiedName(key);
  if (errs.length) throw new SelectorParseError(`unable to parse requirement: key: Invalid value: ${JSON.stringify(key)}: ${errs.join('; ')}`);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go's strconv.ParseInt(s, 10, 64): optional sign, decimal digits, within int64. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

function validateValue(key: string, value: string, op: Operator): void {
  if ((op === 'gt' || op === 'lt') && parseInt64(value) === undefined) {
    throw new SelectorParseError(`unable to parse requirement: values[0]: Invalid value: ${JSON.stringify(value)}: for 'Gt', 'Lt' operators, the value must be an integer`);
  }
  // Like Kubernetes, the bound of `>`/`<` must also be a valid label value (so `a>-1` is refused).
  const errs = isValidLabelValue(value);
  if (errs.length) {
    throw new SelectorParseError(`unable to parse requirement: values[0][${key}]: Invalid value: ${JSON.stringify(value)}: ${errs.join('; ')}`);
  }
}

/** Parses the `labelSelector` query syntax. Throws SelectorParseError with Kubernetes-like text. */
export function parseLabelSelector(input: string): LabelSelector {
  const tokens = lex(input);
  let pos = 0;
  const peek = (): Token => tokens[pos] as Token;
  const next = (): Token => tokens[pos++] as Token;
  const requirements: Requirement[] = [];

  if (peek().kind === 'end') return compileSelector([]);
  for (;;) {
    let t = next();
    let negated = false;
    if (t.kind === 'op' && t.text === '!') {
      negated = true;
      t = next();
    }
    if (t.kind !== 'id') throw new SelectorParseError(`found ${describe(t)}, expected: !, identifier, or 'end of string'`);
    const key = t.text;
    validateKey(key);
    if (negated) {
      requirements.push({ key, operator: '!', values: [] });
    } else {
      const op = peek();
      if (op.kind === ',' || op.kind === 'end') {
        requirements.push({ key, operator: 'exists', values: [] });
      } else if (op.kind === 'id' && (op.text === 'in' || op.text === 'notin')) {
        next();
        const open = next();
        if (open.kind !== '(') throw new SelectorParseError(`found ${describe(open)}, expected: '('`);
        const values: string[] = [];
        for (;;) {
          const v = next();
          if (v.kind === 'id') {
            values.push(v.text);
          } else if (v.kind === ',' || v.kind === ')') {
            // An empty value between commas is the empty string, as Kubernetes accepts `in (a,)`.
            values.push('');
            pos--;
          } else {
            throw new SelectorParseError(`found ${describe(v)}, expected: ',', ')' or identifier`);
          }
          const sep = next();
          if (sep.kind === ')') break;
          if (sep.kind !== ',') throw new SelectorParseError(`found ${describe(sep)}, expected: ',' or ')'`);
        }
        const operator: Operator = op.text;
        for (const v of values) validateValue(key, v, operator);
        requirements.push({ key, operator, values: [...new Set(values)].sort() });
      } else if (op.kind === 'op' && op.text !== '!') {
        next();
        const operator: Operator = op.text === '>' ? 'gt' : op.text === '<' ? 'lt' : op.text;
        const v = peek();
        let value = '';
        if (v.kind === 'id') {
          value = v.text;
          next();
        } else if (operator === 'gt' || operator === 'lt' || !(v.kind === ',' || v.kind === 'end')) {
          throw new SelectorParseError(`found ${describe(v)}, expected: identifier`);
        }
        validateValue(key, value, operator);
        requirements.push({ key, operator, values: [value] });
      } else {
        throw new SelectorParseError(`found ${describe(op)}, expected: '=', '!=', '==', 'in', notin'`);
      }
    }
    const sep = next();
    if (sep.kind === 'end') break;
    if (sep.kind !== ',') throw new SelectorParseError(`found ${describe(sep)}, expected: ',' or 'end of string'`);
    const after = peek();
    if (after.kind !== 'id' && !(after.kind === 'op' && after.text === '!')) throw new SelectorParseError(`found ${describe(after)}, expected: identifier after ','`);
  }
  return compileSelector(requirements);
}

/** The structured selector of object specs (`matchLabels`, `matchExpressions`). */
export interface StructuredLabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

const STRUCTURED_OPS = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' } as const;

/** Compiles a structured selector; an empty or absent selector matches everything. */
export function labelSelectorFromStructured(sel: StructuredLabelSelector | undefined): LabelSelector {
  const reqs: Requirement[] = [];
  for (const [key, value] of Object.entries(sel?.matchLabels ?? {})) reqs.push({ key, operator: '=', values: [value] });
  for (const e of sel?.matchExpressions ?? []) reqs.push({ key: e.key, operator: STRUCTURED_OPS[e.operator], values: [...(e.values ?? [])].sort() });
  return compileSelector(reqs);
}

function matchOne(r: Requirement, labels: Readonly<Record<string, string>> | undefined): boolean {
  const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? (labels as Record<string, string>)[r.key] : undefined;
  switch (r.operator) {
    case '=':
    case '==':
      return has && value === r.values[0];
    case '!=':
      return !has || value !== r.values[0];
    case 'in':
      return has && r.values.includes(value as string);
    case 'notin':
      return !has || !r.values.includes(value as string);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      const actual = has ? parseInt64(value as string) : undefined;
      const bound = parseInt64(r.values[0] ?? '');
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

function requirementText(r: Requirement): string {
  switch (r.operator) {
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
    case 'in':
    case 'notin':
      return `${r.key} ${r.operator} (${r.values.join(',')})`;
    case 'gt':
      return `${r.key}>${r.values[0]}`;
    case 'lt':
      return `${r.key}<${r.values[0]}`;
    default:
      return `${r.key}${r.operator}${r.values[0]}`;
  }
}

function compileSelector(requirements: Requirement[]): LabelSelector {
  const sorted = [...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    requirements: sorted,
    empty: sorted.length === 0,
    matches: (labels) => sorted.every((r) => matchOne(r, labels)),
    toString: () => sorted.map(requirementText).join(','),
  };
}

export const everythingSelector: LabelSelector = compileSelector([]);
