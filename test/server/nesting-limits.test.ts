/**
 * One nesting limit for every decoder and patch engine: deep documents, recursive YAML aliases,
 * alias bombs and JSON patches that deepen or multiply a document are a 400 or 422, never a 500 or
 * a crash, and change nothing. What is within the limit is stored and readable in every format.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH } from '../../src/machinery/codec/nesting.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';

let s: TestServer;
const CM = '/api/v1/namespaces/default/configmaps';
const CR = '/apis/apps/v1/namespaces/default/controllerrevisions';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const APPLY = 'application/apply-patch+yaml';

/** `levels` nested objects as JSON text. */
const deepObjects = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const deepArrays = (levels: number): string => '['.repeat(levels) + '1' + ']'.repeat(levels);

async function globalRv(): Promise<string> {
  return (await s.get('/api/v1/namespaces')).body.metadata.resourceVersion as string;
}

function expectStatus(r: Reply, code: number, reason: string, message?: string | RegExp): void {
  expect({ status: r.status, kind: r.body?.kind, reason: r.body?.reason }).toEqual({ status: code, kind: 'Status', reason });
  if (typeof message === 'string') expect(r.body.message).toBe(message);
  else if (message) expect(r.body.message).toMatch(message);
}

let target: unknown;

beforeAll(async () => {
  s = await startTestServer();
  const created = await s.post(CM, { metadata: { name: 'target' }, data: { k: 'v' } });
  expect(created.status).toBe(201);
  target = created.body;
});
afterAll(async () => {
  await s?.close();
});

/** Runs a request that must be refused and checks that nothing moved. */
async function refused(send: () => Promise<Reply>, code: number, reason: string, message?: string | RegExp): Promise<void> {
  const before = await globalRv();
  expectStatus(await send(), code, reason, message);
  expect(await globalRv()).toBe(before);
  expect((await s.get(`${CM}/target`)).body).toEqual(target);
  expect((await s.get('/version')).status).toBe(200);
}

describe('10,000 levels are refused by every decoder and patch engine (were 500s)', () => {
  it('merge patch', () =>
    refused(() => s.patch(`${CM}/target`, `{"data":${deepObjects(10_000)}}`, MERGE), 400, 'BadRequest', "error decoding patch: invalid character '{' exceeded max depth"));

  it('JSON patch value', () =>
    refused(
      () => s.patch(`${CM}/target`, `[{"op":"add","path":"/data/x","value":${deepArrays(10_000)}}]`, JSON_PATCH),
      400,
      'BadRequest',
      "error decoding patch: invalid character '[' exceeded max depth",
    ));

  it('strategic merge patch', () =>
    refused(() => s.patch(`${CM}/target`, `{"data":${deepObjects(10_000)}}`, STRATEGIC), 400, 'BadRequest', "invalid character '{' exceeded max depth"));

  it('create, JSON', () =>
    refused(
      () => s.post(CM, `{"metadata":{"name":"deep"},"x":${deepObjects(10_000)}}`),
      400,
      'BadRequest',
      "the request body is not valid JSON: invalid character '{' exceeded max depth",
    ));

  it('create, YAML (the YAML parser used to take the process down)', () =>
    refused(
      () => s.post(CM, `{"metadata":{"name":"deep"},"x":${deepObjects(10_000)}}`, { contentType: 'application/yaml' }),
      400,
      'BadRequest',
      `the request body is not valid YAML: exceeded max depth of ${MAX_NESTING_DEPTH}`,
    ));

  it('update', () =>
    refused(() => s.put(`${CM}/target`, `{"metadata":{"name":"target"},"x":${deepObjects(10_000)}}`), 400, 'BadRequest', /exceeded max depth/));

  it('apply', () =>
    refused(
      () => s.patch(`${CM}/target?fieldManager=m`, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"target"},"x":${deepObjects(10_000)}}`, APPLY),
      400,
      'BadRequest',
      `error decoding YAML: the request body is not valid YAML: exceeded max depth of ${MAX_NESTING_DEPTH}`,
    ));

  it('delete options', async () => {
    await refused(() => s.del(`${CM}/target`, `{"kind":"DeleteOptions","x":${deepObjects(10_000)}}`), 400, 'BadRequest', /exceeded max depth/);
  });
});

describe('YAML aliases', () => {
  it('a recursive alias is a 400 on create and apply (was a 500)', async () => {
    await refused(() => s.post(CM, 'a: &a [*a]\n', { contentType: 'application/yaml' }), 400, 'BadRequest', "the request body is not valid YAML: anchor 'a' value contains itself");
    await refused(
      () => s.patch(`${CM}/target?fieldManager=m`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: target}\ndata: &a {x: *a}\n', APPLY),
      400,
      'BadRequest',
      "error decoding YAML: the request body is not valid YAML: anchor 'a' value contains itself",
    );
  });

  it('an alias bomb is a 400', async () => {
    const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: lol}', 'x:', '  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (const [prev, name] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g']]) lines.push(`  ${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    const bomb = `${lines.join('\n')}\n`;
    await refused(() => s.post(CM, bomb, { contentType: 'application/yaml' }), 400, 'BadRequest', /Excessive alias count/);
    await refused(() => s.patch(`${CM}/lol?fieldManager=m`, bomb, APPLY), 400, 'BadRequest', /Excessive alias count/);
  });
});

describe('JSON patches that grow a document', () => {
  it('copies that double the document stop at Kubernetes\' 3 MiB copy budget with a 422', async () => {
    // Each copy of `/x` into itself doubles it: 40 of them would need a terabyte.
    const ops = [{ op: 'add', path: '/x', value: { seed: 'x'.repeat(1000) } }, ...Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '/x', path: `/x/c${i}` }))];
    await refused(
      () => s.patch(`${CM}/target`, JSON.stringify(ops), JSON_PATCH),
      422,
      'Invalid',
      /^Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/,
    );
  });

  it('a patched document nested past the limit is a 422 on `patch`', async () => {
    const ops = [{ op: 'add', path: '/x', value: JSON.parse(deepObjects(MAX_NESTING_DEPTH - 2)) }, { op: 'copy', from: '/x', path: '/x/a/a/b' }];
    await refused(() => s.patch(`${CM}/target`, JSON.stringify(ops), JSON_PATCH), 422, 'Invalid', /patch: Invalid value: .*exceeded max depth/);
  });
});

describe('a document at the limit is stored and can be read in every format', () => {
  // The ControllerRevision's data is free-form JSON, kept as sent: the deepest thing a client can store.
  const revision = (name: string, levels: number) => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, revision: 1, data: JSON.parse(deepObjects(levels)) });
  // The revision object is level 1 and `data` level 2.
  const atLimit = MAX_NESTING_DEPTH - 1;

  it('created from JSON and YAML, patched, applied, read back as JSON, YAML, a list, a Table and a watch', async () => {
    expect((await s.post(CR, revision('deep', atLimit))).status).toBe(201);
    expect((await s.post(CR, JSON.stringify(revision('deep-yaml', atLimit)), { contentType: 'application/yaml' })).status).toBe(201);
    expect((await s.patch(`${CR}/deep-apply?fieldManager=m`, JSON.stringify(revision('deep-apply', atLimit)), APPLY)).status).toBe(201);
    for (const type of [MERGE, STRATEGIC]) expect((await s.patch(`${CR}/deep`, JSON.stringify({ metadata: { labels: { t: 'x' } }, data: JSON.parse(deepObjects(atLimit)) }), type)).status, type).toBe(200);
    const rv = await globalRv();
    expectStatus(await s.post(CR, revision('too-deep', atLimit + 1)), 400, 'BadRequest', /exceeded max depth/);
    expect(await globalRv()).toBe(rv);

    const json = await s.get(`${CR}/deep`);
    expect(json.status).toBe(200);
    expect(json.body.data).toEqual(JSON.parse(deepObjects(atLimit)));
    for (const accept of ['application/yaml', 'application/json;as=Table;g=meta.orch.io;v=v1']) {
      expect((await s.get(`${CR}/deep`, { accept })).status, accept).toBe(200);
      expect((await s.get(CR, { accept })).status, accept).toBe(200);
    }
    const w = await s.watch(`${CR}?watch=1&resourceVersion=0&timeoutSeconds=5`);
    try {
      const events = await w.next(3);
      expect(events.map((e) => e.object.metadata.name).sort()).toEqual(['deep', 'deep-apply', 'deep-yaml']);
    } finally {
      w.close();
    }
  });
});
