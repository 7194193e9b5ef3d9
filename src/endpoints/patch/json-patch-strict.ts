/**
 * Strict-decoding problems of a JSON patch document itself, as Kubernetes finds them decoding it
 * into its operation struct (`op`, `path`, `from`, `value`): unknown operation fields, repeated
 * operation fields, and repeated keys anywhere inside a `value` (decoded as untyped JSON). Each is
 * prefixed `json patch`, in document order.
 */
import { findDuplicateKeys, formatPath, keyPositions } from '../../machinery/codec/json-keys.js';

const OP_FIELDS = new Set(['op', 'path', 'from', 'value']);

export function jsonPatchProblems(text: string, ops: unknown): string[] {
  if (!Array.isArray(ops)) return [];
  const unknown: string[] = [];
  ops.forEach((op, i) => {
    if (typeof op !== 'object' || op === null || Array.isArray(op)) return;
    for (const k of Object.keys(op)) if (!OP_FIELDS.has(k)) unknown.push(formatPath([i, k]));
  });
  const found: { seq: number; text: string }[] = [];
  for (const d of findDuplicateKeys(text)) {
    const [index, field] = d.container;
    const opField = d.container.length === 1 && typeof index === 'number' && OP_FIELDS.has(d.key);
    const inValue = d.container.length >= 2 && typeof index === 'number' && field === 'value';
    if (opField || inValue) found.push({ seq: d.seq, text: `json patch duplicate field ${JSON.stringify(formatPath([...d.container, d.key]))}` });
  }
  if (unknown.length) {
    const positions = keyPositions(text, new Set(unknown));
    for (const p of unknown) found.push({ seq: positions.get(p) ?? Number.MAX_SAFE_INTEGER, text: `json patch unknown field ${JSON.stringify(p)}` });
  }
  found.sort((a, b) => a.seq - b.seq);
  return [...new Set(found.map((f) => f.text))];
}
