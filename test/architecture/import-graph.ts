/**
 * The import graph of src/ as DESIGN §3 allows it. Every file belongs to a layer (its first folder
 * under src/; `main.ts` and `index.ts` are the root); a layer may import only the layers its rule
 * lists, and an import into a layer that has a gate (apis may reach the registry only through
 * define-resource.ts) must go through it. Read with TypeScript's own pre-processor, so type-only
 * imports, re-exports and dynamic imports count too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** What one layer may import: whole layers, or single files (`registry/define-resource.ts`). */
export type LayerRules = Readonly<Record<string, readonly string[] | '*'>>;

const lower = (...layers: string[]): readonly string[] => layers;

/**
 * DESIGN §3: `machinery ← schema ← apply ← registry ← endpoints ← server`, `storage ← registry`;
 * `apis/*` import only machinery, schema and registry's defineResource; `http` imports nothing from
 * the domain. Types every layer shares live in machinery/ or http/; the composition root (server)
 * and the entry points may import anything, and nothing imports them.
 */
export const LAYER_RULES: LayerRules = {
  http: lower(),
  util: lower(),
  machinery: lower('http', 'util'),
  schema: lower('machinery', 'http', 'util'),
  apply: lower('schema', 'machinery', 'util'),
  storage: lower('machinery', 'util'),
  registry: lower('apply', 'schema', 'storage', 'machinery', 'util'),
  apis: lower('schema', 'machinery', 'registry/define-resource.ts'),
  admission: lower('registry', 'apis', 'schema', 'machinery', 'util'),
  authn: lower('registry', 'apis', 'schema', 'machinery', 'http', 'util'),
  authz: lower('registry', 'apis', 'schema', 'machinery', 'http', 'util'),
  audit: lower('registry', 'apis', 'schema', 'machinery', 'http', 'util'),
  flowcontrol: lower('registry', 'apis', 'schema', 'machinery', 'http', 'util'),
  client: lower('registry', 'apply', 'schema', 'machinery', 'http', 'util'),
  controllers: lower('client', 'registry', 'apis', 'apply', 'schema', 'machinery', 'util'),
  endpoints: lower('registry', 'apply', 'schema', 'machinery', 'http', 'util'),
  filters: lower('endpoints', 'authn', 'authz', 'audit', 'flowcontrol', 'machinery', 'http', 'util'),
  server: '*',
  root: '*',
};

export interface ImportEdge {
  /** Paths relative to src/, with `/` separators. */
  from: string;
  to: string;
  specifier: string;
}

function layerOf(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? 'root' : path.slice(0, slash);
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    // Unit tests are left out: they may build real kinds and real servers as fixtures, and nothing
    // in the product imports them.
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** Every relative import of every non-test .ts file under `srcDir` (node: and package imports are left out). */
export function importEdges(srcDir: string): ImportEdge[] {
  const root = resolve(srcDir);
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName).replace(/\.js$/, '.ts');
      edges.push({ from: relative(root, file).split(sep).join('/'), to: relative(root, target).split(sep).join('/'), specifier: fileName });
    }
  }
  return edges;
}

/** The edges that go against `rules`, each with the reason in words. */
export function violations(edges: readonly ImportEdge[], rules: LayerRules = LAYER_RULES): string[] {
  const out: string[] = [];
  for (const e of edges) {
    const from = layerOf(e.from);
    const to = layerOf(e.to);
    const allowed = rules[from];
    if (allowed === undefined) {
      out.push(`${e.from}: src/${from} has no rule; add it to LAYER_RULES (test/architecture/import-graph.ts)`);
      continue;
    }
    if (e.to.startsWith('..')) {
      out.push(`${e.from} imports ${e.specifier}, outside src/`);
      continue;
    }
    if (from === to || allowed === '*') continue;
    if (rules[to] === undefined) {
      out.push(`${e.from} imports ${e.to}: src/${to} has no rule; add it to LAYER_RULES`);
      continue;
    }
    if (allowed.includes(to) || allowed.includes(e.to)) continue;
    const gates = allowed.filter((a) => a.startsWith(`${to}/`));
    out.push(gates.length
      ? `${e.from} imports ${e.to}: ${from} may reach ${to} only through ${gates.join(', ')}`
      : `${e.from} imports ${e.to}: ${from} may not import ${to} (allowed: ${allowed.join(', ') || 'nothing from src'})`);
  }
  return out;
}
