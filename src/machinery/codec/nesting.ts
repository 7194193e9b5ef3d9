/**
 * The one nesting limit every decoder and patch engine enforces, so no request can make the server
 * recurse past its stack (a RangeError, a 500, or for the YAML parser a crash of the process).
 *
 * Kubernetes' JSON decoding stops at 10,000 levels. This server stops sooner: the YAML parser and
 * writer and the patch engines recurse once (or more) per level, and the YAML writer gives out
 * after about 600. Whatever is decoded, patched or stored therefore stays within
 * MAX_NESTING_DEPTH, and every encoder can write it. No real object comes near the limit.
 *
 * Every walk here is iterative, so measuring a value of any depth is safe. Pure; never throws.
 */
import { Parser } from 'yaml';

/** Levels of objects and arrays a value may have; a top-level object is level 1. */
export const MAX_NESTING_DEPTH = 500;

/** Go's JSON scanner reports a value past the limit by the bracket that opened the level too many. */
export interface TooDeep {
  readonly char: '{' | '[';
}

/** The message Go's JSON scanner gives for it: `invalid character '{' exceeded max depth`. */
export function tooDeepMessage(found: TooDeep): string {
  return `invalid character '${found.char}' exceeded max depth`;
}

/**
 * Whether a decoded value has an object or array deeper than `limit` levels. Subtrees shared by
 * reference (YAML aliases) are walked again only when reached at a greater depth, so the work stays
 * bounded; a value that contains itself is, by this measure, too deep.
 */
export function findTooDeep(value: unknown, limit: number = MAX_NESTING_DEPTH): TooDeep | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const deepestVisit = new Map<object, number>();
  const stack: [object, number][] = [[value, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [node, depth] = top;
    if (depth > limit) return { char: Array.isArray(node) ? '[' : '{' };
    const seen = deepestVisit.get(node);
    if (seen !== undefined && seen >= depth) continue;
    deepestVisit.set(node, depth);
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

/** A YAML token of the concrete syntax tree, as far as nesting is concerned. */
interface CstNode {
  type: string;
  value?: CstNode;
  items?: { key?: CstNode | null; value?: CstNode | null }[];
}

const COLLECTIONS = new Set(['block-map', 'block-seq', 'flow-collection']);

/**
 * Whether YAML text nests collections (block or flow) deeper than `limit`, measured on the syntax
 * tree before anything is composed: the composer recurses once per level and, thousands of levels
 * down, takes the process with it instead of throwing. Aliases are not followed (see findTooDeep
 * for the composed value).
 */
export function yamlTooDeep(text: string, limit: number = MAX_NESTING_DEPTH): boolean {
  const stack: [CstNode, number][] = [];
  for (const token of new Parser().parse(text)) stack.push([token as CstNode, 0]);
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [node, outer] = top;
    const depth = COLLECTIONS.has(node.type) ? outer + 1 : outer;
    if (depth > limit) return true;
    if (node.value) stack.push([node.value, depth]);
    for (const item of node.items ?? []) {
      if (item.key) stack.push([item.key, depth]);
      if (item.value) stack.push([item.value, depth]);
    }
  }
  return false;
}
