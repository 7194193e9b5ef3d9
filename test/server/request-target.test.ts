/**
 * Request targets are parsed without throwing and without normalising: an unparseable target is a
 * 400 Status (never a crash), and `.`/`..` (raw or percent-encoded) never address another object.
 * Each refused write must leave the store untouched: the objects are still there and the global
 * resourceVersion did not move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCall, startTestServer, type Reply, type TestServer } from '../helpers/server.js';

let s: TestServer;
const raw = (method: string, target: string): Promise<Reply> => rawCall(s.url, method, target);

/** The store's current revision, as a list reports it. */
async function globalRv(): Promise<string> {
  const r = await s.get('/api/v1/namespaces');
  expect(r.status).toBe(200);
  return r.body.metadata.resourceVersion as string;
}

function expectStatus(r: Reply, code: number, reason: string, message?: string): void {
  expect({ status: r.status, kind: r.body?.kind, reason: r.body?.reason, code: r.body?.code }).toEqual({ status: code, kind: 'Status', reason, code });
  if (message !== undefined) expect(r.body.message).toBe(message);
}

const CM = '/api/v1/namespaces/team/configmaps';

beforeAll(async () => {
  s = await startTestServer();
  expect((await s.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
  for (const name of ['some-name', 'other']) expect((await s.post(CM, { metadata: { name }, data: { k: 'v' } })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

async function expectNothingChanged(before: string): Promise<void> {
  expect(await globalRv()).toBe(before);
  expect((await s.get('/api/v1/namespaces/team')).body?.status?.phase).toBe('Active');
  const list = await s.get(CM);
  expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort()).toEqual(['other', 'some-name']);
}

describe('an unparseable request target is a 400 Status, and the server lives on', () => {
  it.each([
    ['GET', 'http://%zz/api'],
    ['DELETE', 'http://%zz/api/v1/namespaces/team'],
    ['GET', 'http://[::1/api'],
    ['GET', '/api/v1/namespaces/team/configmaps/%zz'],
    ['DELETE', '/api/v1/namespaces/team/configmaps/%'],
    ['GET', '/api/v1/namespaces/team/configmaps/%C3%28'],
  ])('%s %s', async (method, target) => {
    const before = await globalRv();
    const r = await raw(method, target);
    expectStatus(r, 400, 'BadRequest');
    expect(r.body.message).toMatch(/^invalid request target/);
    expect((await s.get('/version')).status).toBe(200);
    await expectNothingChanged(before);
  });

  it('GET // is a 404, not a crash', async () => {
    expectStatus(await raw('GET', '//'), 404, 'NotFound');
    expectStatus(await raw('GET', '//api/v1'), 404, 'NotFound');
    expect((await s.get('/version')).status).toBe(200);
  });

  it('an absolute-form target is served by its path', async () => {
    const r = await raw('GET', 'http://localhost/api/v1/namespaces/team/configmaps/other?pretty=false');
    expect(r.status).toBe(200);
    expect(r.body.metadata.name).toBe('other');
  });
});

describe('dot segments are never resolved: they are refused as names and namespaces', () => {
  const dotDot = `Name parameter invalid: "..": may not be '..'`;
  it.each([
    // The reported reproducer: this deleted namespace `team` and everything in it.
    ['DELETE', `${CM}/%2e%2e`, dotDot],
    ['DELETE', `${CM}/%2E%2E`, dotDot],
    ['DELETE', `${CM}/%2e.`, dotDot],
    ['DELETE', `${CM}/..`, dotDot],
    ['DELETE', `${CM}/.`, `Name parameter invalid: ".": may not be '.'`],
    ['DELETE', `${CM}/%2E`, `Name parameter invalid: ".": may not be '.'`],
    ['GET', `${CM}/%2e%2e`, dotDot],
    ['PUT', `${CM}/%2e%2e`, dotDot],
    ['PATCH', `${CM}/%2e%2e`, dotDot],
    ['DELETE', 'http://localhost/api/v1/namespaces/team/configmaps/..', dotDot],
    ['DELETE', '/api/v1/namespaces/%2e%2e', dotDot],
    ['DELETE', '/api/v1/namespaces/team/configmaps/some%25name', `Name parameter invalid: "some%name": may not contain '%'`],
    ['DELETE', '/api/v1/namespaces/%2e%2e/configmaps/some-name', `Namespace parameter invalid: "..": may not be '..'`],
    ['DELETE', '/api/v1/namespaces/./configmaps', `Namespace parameter invalid: ".": may not be '.'`],
    ['GET', '/api/v1/namespaces/te%25am/configmaps', `Namespace parameter invalid: "te%am": may not contain '%'`],
  ])('%s %s', async (method, target, message) => {
    const before = await globalRv();
    expectStatus(await raw(method, target), 400, 'BadRequest', message);
    await expectNothingChanged(before);
  });

  it.each([
    // The reported reproducer: this deleted every ConfigMap of the namespace.
    ['DELETE', `${CM}/some-name/..`],
    ['DELETE', `${CM}/some-name/%2e%2e`],
    ['DELETE', `${CM}/some-name/.`],
    // `%2F` decodes to a separator, as Go decodes the path: `..` becomes a subresource nobody serves.
    ['DELETE', `${CM}/some-name%2F..`],
    ['DELETE', '/api/v1/namespaces/team/configmaps/../configmaps'],
    ['DELETE', '/api/v1/namespaces//configmaps'],
    ['DELETE', '/api/v1/namespaces/team/configmaps//status'],
  ])('%s %s is not found', async (method, target) => {
    const before = await globalRv();
    expectStatus(await raw(method, target), 404, 'NotFound');
    await expectNothingChanged(before);
  });

  it('the checks do not get in the way of ordinary names', async () => {
    const r = await raw('GET', `${CM}/some%2Dname`);
    expect(r.status).toBe(200);
    expect(r.body.metadata.name).toBe('some-name');
    const before = await globalRv();
    expect((await s.post(CM, { metadata: { name: 'probe' } })).status).toBe(201);
    expect(await globalRv()).not.toBe(before);
    expect((await s.del(`${CM}/probe`)).status).toBe(200);
  });
});
