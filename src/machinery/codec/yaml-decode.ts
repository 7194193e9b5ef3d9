/**
 * YAML request bodies to plain values, safe against what a hostile document can do to a YAML
 * library: nesting past the limit (checked on the syntax tree, before the recursive composer runs),
 * an alias inside the node it names (`a: &a [*a]`, which would compose into a cycle), and alias
 * bombs (the library's alias budget). Throws YamlDecodeError with a message for the client.
 */
import { isAlias, isMap, isPair, isSeq, parseDocument, type Node } from 'yaml';
import { findTooDeep, MAX_NESTING_DEPTH, yamlTooDeep } from './nesting.js';

export class YamlDecodeError extends Error {}

/** Aliases a document may resolve, weighted by the size of what they name (the library's measure). */
const MAX_YAML_ALIASES = 100;

export function decodeYaml(text: string): unknown {
  if (yamlTooDeep(text)) throw new YamlDecodeError(`exceeded max depth of ${MAX_NESTING_DEPTH}`);
  // Repeated keys keep the last value, as Kubernetes' YAML decoding does; field validation
  // reports them (yaml-keys.ts) instead of the parser refusing the body.
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  const [first] = doc.errors;
  if (first) throw new YamlDecodeError(first.message);
  const recursive = recursiveAnchor(doc.contents);
  if (recursive !== undefined) throw new YamlDecodeError(`anchor '${recursive}' value contains itself`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (e) {
    // Excessive aliasing (a ReferenceError) and anything else the library refuses.
    throw new YamlDecodeError((e as Error).message);
  }
  // Aliases can nest what they name deeper than the text shows.
  if (findTooDeep(value)) throw new YamlDecodeError(`exceeded max depth of ${MAX_NESTING_DEPTH}`);
  return value;
}

/**
 * The anchor of a node that an alias inside it refers to, if any. Walks in document order, so an
 * alias names the latest node anchored with its name before it, as the composer resolves it.
 */
function recursiveAnchor(root: unknown): string | undefined {
  const latest = new Map<string, Node>();
  const open = new Set<unknown>();
  type Step = { node: unknown; leaving: boolean };
  const stack: Step[] = [{ node: root, leaving: false }];
  for (let step = stack.pop(); step; step = stack.pop()) {
    const { node } = step;
    if (step.leaving) {
      open.delete(node);
      continue;
    }
    if (isAlias(node)) {
      const target = latest.get(node.source);
      if (target && open.has(target)) return node.source;
      continue;
    }
    if (isPair(node)) {
      stack.push({ node: node.value, leaving: false }, { node: node.key, leaving: false });
      continue;
    }
    if (!isMap(node) && !isSeq(node)) {
      if (node && typeof node === 'object' && 'anchor' in node && typeof node.anchor === 'string') latest.set(node.anchor, node as Node);
      continue;
    }
    if (node.anchor) latest.set(node.anchor, node);
    open.add(node);
    stack.push({ node, leaving: true });
    // Children in reverse, so they are visited in document order.
    for (let i = node.items.length - 1; i >= 0; i--) stack.push({ node: node.items[i], leaving: false });
  }
  return undefined;
}
