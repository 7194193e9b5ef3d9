/**
 * Object keys of JSON text in document order, for what JSON.parse hides: it keeps the last of
 * repeated keys without a word, while Kubernetes' strict decoding reports every repeat. The text
 * must already be valid JSON (callers parse it with JSON.parse first); the walk is iterative so
 * deep nesting cannot overflow the stack.
 */

/** A step into a JSON value: an object key or an array index. */
export type PathSegment = string | number;

export interface DuplicateKey {
  /** Where the object holding the key sits. */
  container: PathSegment[];
  key: string;
  /** Position of this (repeated) occurrence among all key occurrences of the document. */
  seq: number;
}

/**
 * A path in Kubernetes' strict-decoding notation: keys joined by `.`, indices as `[i]`
 * (`spec.containers[0].name`, `[0].op` inside a top-level array).
 */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out ? `.${s}` : s;
  }
  return out;
}

type Frame = { kind: 'object'; seen: Set<string> } | { kind: 'array'; index: number };

type KeyVisitor = (container: readonly PathSegment[], key: string, seq: number, repeated: boolean) => void;

/** What ends a number or literal: a separator, a closing bracket or white space. */
const SCALAR_END = new Set([0x2c, 0x5d, 0x7d, 0x20, 0x0a, 0x0d, 0x09]);

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Calls `visit` for every object key occurrence, in document order. */
function walkKeys(text: string, visit: KeyVisitor): void {
  const path: PathSegment[] = [];
  const frames: Frame[] = [];
  let i = 0;
  let seq = 0;
  const skip = (): void => {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  };
  /** Index just past the string literal starting at `start`. */
  const stringEnd = (start: number): number => {
    let from = start + 1;
    for (;;) {
      const q = text.indexOf('"', from);
      if (q < 0) return text.length;
      // A quote ends the string unless an odd number of backslashes escapes it.
      let slashes = 0;
      while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) return q + 1;
      from = q + 1;
    }
  };
  const readKey = (): void => {
    const end = stringEnd(i);
    const raw = text.slice(i + 1, end - 1);
    const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
    i = end;
    skip();
    i++; // the colon
    const frame = frames[frames.length - 1] as Frame & { kind: 'object' };
    const repeated = frame.seen.has(key);
    if (!repeated) frame.seen.add(key);
    visit(path, key, seq++, repeated);
    path.push(key);
  };

  skip();
  let expectValue = true;
  while (i < text.length) {
    if (expectValue) {
      skip();
      const c = text[i];
      if (c === '{') {
        i++;
        skip();
        if (text[i] === '}') {
          i++;
          expectValue = false;
          continue;
        }
        frames.push({ kind: 'object', seen: new Set() });
        readKey();
        continue;
      }
      if (c === '[') {
        i++;
        skip();
        if (text[i] === ']') {
          i++;
          expectValue = false;
          continue;
        }
        frames.push({ kind: 'array', index: 0 });
        path.push(0);
        continue;
      }
      if (c === '"') i = stringEnd(i);
      else while (i < text.length && !SCALAR_END.has(text.charCodeAt(i))) i++;
      expectValue = false;
      continue;
    }
    // After a value: close containers or move to the next member.
    skip();
    const frame = frames[frames.length - 1];
    if (!frame) break;
    const c = text[i];
    path.pop();
    i++;
    if (c === ',') {
      skip();
      if (frame.kind === 'object') readKey();
      else path.push(++frame.index);
      expectValue = true;
    } else {
      frames.pop();
    }
  }
}

/** Every repeated key of the document (each repeat after the first occurrence), in document order. */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  const out: DuplicateKey[] = [];
  walkKeys(text, (container, key, seq, repeated) => {
    if (repeated) out.push({ container: [...container], key, seq });
  });
  return out;
}

/** The position of the first occurrence of each wanted key path (in `formatPath` notation). */
export function keyPositions(text: string, wanted: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  walkKeys(text, (container, key, seq) => {
    const p = formatPath([...container, key]);
    if (wanted.has(p) && !out.has(p)) out.set(p, seq);
  });
  return out;
}
