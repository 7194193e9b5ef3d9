/**
 * Every named struct is defined once. OpenAPI definitions and protobuf message names come from a
 * struct's `name`, so two different struct objects with one name would publish one of them under
 * the other's name (or clash outright). Walks every built-in kind's schema, its view
 * subresources, and the structs embedded with t.inline.
 */
import { describe, expect, it } from 'vitest';
import { builtinResources } from '../../src/apis/index.js';
import { createApiNames } from '../../src/machinery/api-names.js';
import type { ResourceDefinition } from '../../src/registry/define-resource.js';
import { resolveSchema, type Schema, type StructSchema } from '../../src/schema/dsl.js';

const names = createApiNames();
const definitions: ResourceDefinition[] = builtinResources.map((f) => f(names, { names }));

/** Every struct reachable from the roots, by name, with where each distinct object was met first. */
function structsByName(roots: readonly { schema: Schema; where: string }[]): Map<string, Map<StructSchema, string>> {
  const byName = new Map<string, Map<StructSchema, string>>();
  const seen = new Set<StructSchema>();
  const walk = (schema: Schema, where: string): void => {
    const s = resolveSchema(schema);
    if (s.type === 'list') return walk(s.items, `${where}[]`);
    if (s.type === 'map') return walk(s.values, `${where}{}`);
    if (s.type !== 'object' || seen.has(s)) return;
    seen.add(s);
    const objects = byName.get(s.name) ?? new Map<StructSchema, string>();
    objects.set(s, where);
    byName.set(s.name, objects);
    for (const [field, spec] of Object.entries(s.fields)) {
      if (spec.inline) walk(spec.inline.struct, `${where}(${spec.inline.name})`);
      walk(spec.schema, `${where}.${field}`);
    }
  };
  for (const r of roots) walk(r.schema, r.where);
  return byName;
}

function rootsOf(def: ResourceDefinition): { schema: Schema; where: string }[] {
  const label = `${def.group || 'core'}/${def.version} ${def.kind}`;
  const roots = [{ schema: def.schema as Schema, where: label }];
  for (const [name, sub] of Object.entries(def.subresources ?? {})) {
    if (sub.kind === 'view') roots.push({ schema: sub.schema, where: `${label} /${name}` });
  }
  return roots;
}

describe('struct names', () => {
  it('walks a good number of structs (the walk itself works)', () => {
    const byName = structsByName(definitions.flatMap(rootsOf));
    expect(byName.size).toBeGreaterThan(100);
    expect(byName.has('core.v1.PersistentVolumeClaimSpec')).toBe(true);
    expect(byName.has('core.v1.ProbeHandler')).toBe(true);
  });

  it('names each struct once across every built-in kind', () => {
    const clashes: string[] = [];
    for (const [name, objects] of structsByName(definitions.flatMap(rootsOf))) {
      if (objects.size > 1) clashes.push(`${name}: ${[...objects.values()].join(' | ')}`);
    }
    expect(clashes).toEqual([]);
  });
});
