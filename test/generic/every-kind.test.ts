/**
 * The generic REST suite: every verb against every served resource, from the fixture its
 * definition carries. A new kind is covered by adding its fixture; a kind without one fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinResources } from '../../src/apis/index.js';
import { createApiNames } from '../../src/machinery/api-names.js';
import { ALL_VERBS, type ResourceDefinition } from '../../src/registry/define-resource.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const names = createApiNames();
const definitions: ResourceDefinition[] = builtinResources.map((f) => f(names, { names }));

function basePath(def: ResourceDefinition): string {
  return def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
}

function collection(def: ResourceDefinition, ns: string): string {
  return def.namespaced ? `${basePath(def)}/namespaces/${ns}/${def.resource}` : `${basePath(def)}/${def.resource}`;
}

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe('every served kind has a fixture', () => {
  // Computed kinds (ComponentStatus) are never written: their own suite tests them.
  it.each(definitions.filter((d) => !d.computed).map((d) => [`${d.group || 'core'}/${d.version} ${d.kind}`, d] as const))('%s', (_label, def) => {
    expect(def.fixture, `${def.kind} needs a fixture for the generic suite`).toBeTypeOf('function');
  });
});

// Review kinds (TokenReview, the access reviews) are answered, never stored: their own suites test them.
describe.each(definitions.filter((d) => d.fixture && !d.review).map((d) => [`${d.group || 'core'}/${d.version} ${d.resource}`, d] as const))('generic REST: %s', (_label, def) => {
  let s: TestServer;
  const ns = `generic-${def.resource.replace(/[^a-z0-9-]/g, '-')}-${def.version}`.slice(0, 63);
  const verbs = def.verbs ?? ALL_VERBS;
  const coll = (): string => collection(def, ns);
  const item = (name: string): string => `${coll()}/${name}`;
  // A kind whose name follows its content (a CRD) names the objects the suite makes.
  const named = (n: string): string => def.fixtureName?.(n) ?? n;
  const object = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => {
    const fixture = (def.fixture as (n?: string) => Record<string, unknown>)(name);
    return { ...fixture, apiVersion: def.group ? `${def.group}/${def.version}` : def.version, kind: def.kind, metadata: { ...((fixture.metadata as object) ?? {}), name, ...extra } };
  };

  beforeAll(async () => {
    s = await startTestServer();
    if (def.namespaced) expect((await s.post('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it('create, get, list, watch, update, conflict, patch, dry run and delete', async () => {
    const base = `${def.singular}-one`.replace(/[^a-z0-9-]/g, '-');
    const name = named(base);
    const created = await s.post(coll(), object(name));
    expect(created.status, created.text).toBe(201);
    expect(created.body.kind).toBe(def.kind);
    expect(created.body.apiVersion).toBe(def.group ? `${def.group}/${def.version}` : def.version);
    expect(created.body.metadata.uid).toBeTruthy();
    const rv = created.body.metadata.resourceVersion as string;

    const got = await s.get(item(name));
    expect(got.status).toBe(200);
    expect(got.body.metadata.uid).toBe(created.body.metadata.uid);

    const listed = await s.get(coll());
    expect(listed.status).toBe(200);
    expect(listed.body.kind).toBe(`${def.kind}List`);
    expect(listed.body.items.map((i: any) => i.metadata.name)).toContain(name);

    const w = await s.watch(`${coll()}?watch=1&resourceVersion=${rv}`);
    const updated = await s.put(item(name), { ...got.body, metadata: { ...got.body.metadata, labels: { generic: 'yes' } } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.metadata.labels.generic).toBe('yes');
    expect(Number(updated.body.metadata.resourceVersion)).toBeGreaterThan(Number(rv));
    const [modified] = await w.next(1);
    expect(modified?.type).toBe('MODIFIED');
    expect(modified?.object.metadata.name).toBe(name);

    const stale = await s.put(item(name), { ...got.body, metadata: { ...got.body.metadata, labels: { generic: 'stale' } } });
    expect(stale.status).toBe(409);
    expect(stale.body.reason).toBe('Conflict');

    const patched = await s.patch(item(name), { metadata: { annotations: { patched: 'true' } } }, 'application/merge-patch+json');
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.metadata.annotations.patched).toBe('true');

    const dry = await s.post(`${coll()}?dryRun=All`, object(named(`${base}-dry`)));
    expect(dry.status, dry.text).toBe(201);
    expect((await s.get(item(named(`${base}-dry`)))).status).toBe(404);

    const deleted = await s.del(item(name));
    expect(deleted.status, deleted.text).toBe(200);
    await eventually(async () => (await s.get(item(name))).status === 404, `${name} is gone`);
    // Kinds that finalize (namespaces) pass through MODIFIED events first; the last event is DELETED.
    const seen: string[] = [];
    while (!seen.includes('DELETED')) {
      const [ev] = await w.next(1);
      seen.push(ev?.type ?? '');
      if (ev?.type === 'DELETED') expect(ev.object.metadata.name).toBe(name);
    }
    expect(seen.every((t) => t === 'MODIFIED' || t === 'DELETED')).toBe(true);
    w.close();
  });

  // Kinds without the verb (namespaces) get no test rather than a skipped one: nothing is missing there.
  if (verbs.includes('deletecollection')) it('deletecollection removes what the selector picks', async () => {
    for (const n of ['a', 'b', 'c']) {
      const r = await s.post(coll(), object(named(`${def.singular}-bulk-${n}`.replace(/[^a-z0-9-]/g, '-')), { labels: { bulk: n === 'c' ? 'keep' : 'drop' } }));
      expect(r.status, r.text).toBe(201);
    }
    const r = await s.request('DELETE', `${coll()}?labelSelector=bulk%3Ddrop`);
    expect(r.status, r.text).toBe(200);
    await eventually(async () => {
      const left = await s.get(`${coll()}?labelSelector=bulk`);
      return left.body.items.length === 1 && left.body.items[0].metadata.labels.bulk === 'keep';
    }, 'only the kept object remains');
  });
});
