/**
 * The simple JSONPath of printer columns and scale paths (`.spec.replicas`,
 * `.status.conditions[?(@.type=="Ready")].status`, `.items[0]`, `.a['b.c']`, `[*]`): the values it
 * selects from an object. Pure.
 */

type Step = { kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'all' } | { kind: 'filter'; path: string[]; value: unknown };

export class JsonPathError extends Error {}

export function parseJsonPath(text: string): Step[] {
  let src = text.trim();
  if (src.startsWith('{') && src.endsWith('}')) src = src.slice(1, -1);
  if (src.startsWith('$')) src = src.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '.') {
      const m = /^[A-Za-z0-9_\-$]+/.exec(src.slice(i + 1));
      if (!m) {
        if (src[i + 1] === '[') {
          i++;
          continue;
        }
        throw new JsonPathError(`invalid path ${text}`);
      }
      steps.push({ kind: 'field', name: m[0] });
      i += 1 + m[0].length;
    } else if (c === '[') {
      const end = src.indexOf(']', i);
      if (end < 0) throw new JsonPathError(`unterminated [ in ${text}`);
      const inner = src.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else {
        const f = /^\?\(@((?:\.[A-Za-z0-9_\-]+)+)\s*==\s*("(?:[^"]*)"|'(?:[^']*)'|-?\d+(?:\.\d+)?|true|false)\)$/.exec(inner);
        if (!f) throw new JsonPathError(`unsupported expression [${inner}] in ${text}`);
        const raw = f[2] as string;
        const value = raw.startsWith("'") ? raw.slice(1, -1) : (JSON.parse(raw) as unknown);
        steps.push({ kind: 'filter', path: (f[1] as string).split('.').filter(Boolean), value });
      }
    } else {
      throw new JsonPathError(`invalid character ${JSON.stringify(c)} in ${text}`);
    }
  }
  return steps;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every value the path selects, in order. */
export function evaluateJsonPath(steps: readonly Step[], root: unknown): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if (step.kind === 'field') {
        if (isRecord(v) && v[step.name] !== undefined) next.push(v[step.name]);
      } else if (step.kind === 'index') {
        if (Array.isArray(v)) {
          const item: unknown = v[step.index < 0 ? v.length + step.index : step.index];
          if (item !== undefined) next.push(item);
        }
      } else if (step.kind === 'all') {
        if (Array.isArray(v)) next.push(...(v as unknown[]));
        else if (isRecord(v)) next.push(...Object.values(v));
      } else if (Array.isArray(v)) {
        for (const item of v as unknown[]) {
          let at: unknown = item;
          for (const p of step.path) at = isRecord(at) ? at[p] : undefined;
          if (at === step.value) next.push(item);
        }
      }
    }
    current = next;
  }
  return current;
}

/** The path's segments when it is plain fields (`.spec.replicas` → spec, replicas), else undefined. */
export function fieldPathOf(text: string): string[] | undefined {
  try {
    const steps = parseJsonPath(text);
    if (steps.some((s) => s.kind !== 'field')) return undefined;
    return steps.map((s) => (s as { name: string }).name);
  } catch {
    return undefined;
  }
}
