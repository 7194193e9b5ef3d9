/**
 * Repeated keys of a YAML document, reported as Kubernetes' strict YAML decoding words them: one
 * error `yaml: unmarshal errors:` with a `line N: key "k" already set in map` line per repeat, in
 * document order. Every mapping counts, whatever the schema says (Kubernetes checks the YAML before
 * it knows the type). The value itself is decoded elsewhere, keeping the last of repeated keys.
 */
import { isMap, isScalar, LineCounter, parseDocument, visit } from 'yaml';


export const YAML_ERRORS_PREFIX = 'yaml: unmarshal errors:\n';

/** Go's `%#v` of a scalar key: strings quoted, numbers and booleans as they are. */
function goSyntax(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null) return '<nil>';
  return String(v);
}

/** The strict decoding error for repeated keys, or undefined when every key is unique. */
export function yamlDuplicateKeysError(text: string): string | undefined {
  const lines = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, lineCounter: lines, prettyErrors: false });
  if (doc.errors.length) return undefined;
  const found: { offset: number; text: string }[] = [];
  visit(doc, {
    Map(_, node) {
      if (!isMap(node)) return;
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key;
        if (!isScalar(key) || !key.range) continue;
        // Keys of different types never collide (`1` and "1"), as in Go's map[interface{}].
        const id = `${typeof key.value}:${String(key.value)}`;
        if (!seen.has(id)) {
          seen.add(id);
          continue;
        }
        const offset = key.range[0];
        found.push({ offset, text: `line ${lines.linePos(offset).line}: key ${goSyntax(key.value)} already set in map` });
      }
    },
  });
  if (!found.length) return undefined;
  found.sort((a, b) => a.offset - b.offset);
  return YAML_ERRORS_PREFIX + found.map((f) => `  ${f.text}`).join('\n');
}
