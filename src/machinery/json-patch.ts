/**
 * JSON Patch (RFC 6902) over plain JSON values, with JSON Pointers (RFC 6901). Pure: returns a new
 * value and leaves the input untouched. Throws JsonPatchError naming the failing operation.
 */
export class JsonPatchError extends Error {
  constructor(
    message: string,
    /**
     * `malformed`: the document is not a list of operation objects (a decoding failure);
     * `too-large`: more operations than allowed; `invalid`: an operation that cannot apply.
     */
    readonly kind: 'malformed' | 'too-large' | 'invalid' = 'invalid',
  ) {
    super(message);
  }
}

export type JsonPatchOp =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);
/** Operations a single patch may hold; bounds the work one request can ask for. */
const MAX_OPERATIONS = 10_000;

export function parseJsonPatch(patch: unknown): JsonPatchOp[] {
  if (!Array.isArray(patch)) throw new JsonPatchError('a JSON patch must be a JSON array of operations', 'malformed');
  if (patch.length > MAX_OPERATIONS) {
    throw new JsonPatchError(`The allowed maximum operations in a JSON patch is ${MAX_OPERATIONS}, got ${patch.length}`, 'too-large');
  }
  return patch.map((raw, i) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new JsonPatchError(`operation ${i} is not an object`, 'malformed');
    const op = (raw as Record<string, unknown>).op;
    const path = (raw as Record<string, unknown>).path;
    if (typeof op !== 'string' || !OPS.has(op)) throw new JsonPatchError(`Unexpected kind: ${String(op)}`);
    if (typeof path !== 'string') throw new JsonPatchError(`operation ${i} (${op}) is missing its path`);
    if (op === 'move' || op === 'copy') {
      const from = (raw as Record<string, unknown>).from;
      if (typeof from !== 'string') throw new JsonPatchError(`operation ${i} (${op}) is missing its from`);
      return { op, from, path };
    }
    if (op === 'remove') return { op, path };
    if (!Object.prototype.hasOwnProperty.call(raw, 'value')) throw new JsonPatchError(`operation ${i} (${op}) is missing its value`);
    return { op: op as 'add' | 'replace' | 'test', path, value: (raw as Record<string, unknown>).value };
  });
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer ${JSON.stringify(pointer)}: it must start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

function arrayIndex(token: string, length: number, allowEnd: boolean, pointer: string): number {
  if (allowEnd && token === '-') return length;
  if (!/^(0|[1-9]\d*)$/.test(token)) throw new JsonPatchError(`invalid array index ${JSON.stringify(token)} in ${pointer}`);
  const i = Number(token);
  if (i > length || (!allowEnd && i === length)) throw new JsonPatchError(`array index ${i} out of bounds in ${pointer}`);
  return i;
}

function parentOf(doc: unknown, tokens: string[], pointer: string): { parent: Container; last: string } {
  let cur: unknown = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(t, cur.length, false, pointer)];
    else if (isContainer(cur) && Object.prototype.hasOwnProperty.call(cur, t)) cur = (cur as Record<string, unknown>)[t];
    else throw new JsonPatchError(`doc is missing path: ${pointer}`);
  }
  if (!isContainer(cur)) throw new JsonPatchError(`doc is missing path: ${pointer}`);
  return { parent: cur, last: tokens[tokens.length - 1] as string };
}

function getAt(doc: unknown, pointer: string): unknown {
  let cur: unknown = doc;
  for (const t of parsePointer(pointer)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(t, cur.length, false, pointer)];
    else if (isContainer(cur) && Object.prototype.hasOwnProperty.call(cur, t)) cur = (cur as Record<string, unknown>)[t];
    else throw new JsonPatchError(`doc is missing path: ${pointer}`);
  }
  return cur;
}

function add(doc: unknown, pointer: string, value: unknown): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  const { parent, last } = parentOf(doc, tokens, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(last, parent.length, true, pointer), 0, value);
  else parent[last] = value;
  return doc;
}

function remove(doc: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) throw new JsonPatchError('cannot remove the whole document');
  const { parent, last } = parentOf(doc, tokens, pointer);
  if (Array.isArray(parent)) {
    parent.splice(arrayIndex(last, parent.length, false, pointer), 1);
  } else {
    if (!Object.prototype.hasOwnProperty.call(parent, last)) throw new JsonPatchError(`Unable to remove nonexistent key: ${last}: missing value`);
    delete parent[last];
  }
  return doc;
}

function replace(doc: unknown, pointer: string, value: unknown): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  const { parent, last } = parentOf(doc, tokens, pointer);
  if (Array.isArray(parent)) {
    parent[arrayIndex(last, parent.length, false, pointer)] = value;
  } else {
    if (!Object.prototype.hasOwnProperty.call(parent, last)) throw new JsonPatchError(`replace operation does not apply: doc is missing key: ${pointer}: missing value`);
    parent[last] = value;
  }
  return doc;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isContainer(a) && isContainer(b) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/**
 * Bytes a patch's copy operations may add in total (Kubernetes' JSONPatchMaxCopyBytes): each copy
 * can double the document, so without a bound a few dozen operations exhaust memory.
 */
const MAX_COPY_BYTES = 3 * 1024 * 1024;

/** The length of a value's compact JSON text, measured without recursion. */
function jsonSize(value: unknown): number {
  let size = 0;
  const stack: unknown[] = [value];
  for (let i = stack.length; i > 0; i = stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      size += 2 + Math.max(0, v.length - 1);
      for (const x of v) stack.push(x);
    } else if (isContainer(v)) {
      const entries = Object.entries(v);
      size += 2 + Math.max(0, entries.length - 1);
      for (const [k, x] of entries) {
        size += JSON.stringify(k).length + 1;
        stack.push(x);
      }
    } else {
      size += v === undefined ? 4 : JSON.stringify(v).length;
    }
  }
  return size;
}

export function applyJsonPatch(input: unknown, ops: readonly JsonPatchOp[]): unknown {
  let doc: unknown = structuredClone(input);
  let copied = 0;
  for (const op of ops) {
    switch (op.op) {
      case 'add':
        doc = add(doc, op.path, structuredClone(op.value));
        break;
      case 'remove':
        doc = remove(doc, op.path);
        break;
      case 'replace':
        doc = replace(doc, op.path, structuredClone(op.value));
        break;
      case 'move': {
        if (op.path.startsWith(`${op.from}/`)) throw new JsonPatchError(`cannot move ${op.from} into its own child ${op.path}`);
        const v = getAt(doc, op.from);
        doc = remove(doc, op.from);
        doc = add(doc, op.path, v);
        break;
      }
      case 'copy': {
        const value = getAt(doc, op.from);
        copied += jsonSize(value);
        if (copied > MAX_COPY_BYTES) {
          throw new JsonPatchError(`Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${MAX_COPY_BYTES}`);
        }
        doc = add(doc, op.path, structuredClone(value));
        break;
      }
      case 'test':
        if (!deepEqual(getAt(doc, op.path), op.value)) throw new JsonPatchError(`testing value ${op.path} failed: test failed`);
        break;
    }
  }
  return doc;
}
