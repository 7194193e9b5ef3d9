/**
 * A client's bad query parameter is a 400 naming it, or a value Kubernetes would accept is served;
 * never a 500. Rejected writes change nothing (the global resourceVersion does not move).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';

let s: TestServer;
const CM = '/api/v1/namespaces/default/configmaps';

beforeAll(async () => {
  s = await startTestServer();
  for (const name of ['a', 'b', 'c']) expect((await s.post(CM, { metadata: { name } })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

async function globalRv(): Promise<string> {
  return (await s.get('/api/v1/namespaces')).body.metadata.resourceVersion as string;
}

function expectBadRequest(r: Reply, message: string): void {
  expect({ status: r.status, kind: r.body?.kind, reason: r.body?.reason, message: r.body?.message }).toEqual({ status: 400, kind: 'Status', reason: 'BadRequest', message });
}

describe('timeoutSeconds beyond what a timer holds', () => {
  it('a list is served (was a 500)', async () => {
    const r = await s.get(`${CM}?timeoutSeconds=99999999999999`);
    expect(r.status).toBe(200);
    expect(r.body.items).toHaveLength(3);
  });

  it('a watch stays open and delivers events (a timer overflow would end it at once)', async () => {
    const w = await s.watch(`${CM}?watch=1&timeoutSeconds=99999999999999&resourceVersion=${await globalRv()}`);
    try {
      expect(w.status).toBe(200);
      expect((await s.post(CM, { metadata: { name: 'during-watch' } })).status).toBe(201);
      const [event] = await w.next(1);
      expect(event?.type).toBe('ADDED');
      expect(event?.object.metadata.name).toBe('during-watch');
    } finally {
      w.close();
      await s.del(`${CM}/during-watch`);
    }
  });

  it('beyond an integer is a 400 naming the parameter', async () => {
    expectBadRequest(await s.get(`${CM}?timeoutSeconds=99999999999999999999`), 'invalid value for timeoutSeconds: "99999999999999999999" is not an integer');
  });
});

describe('a malformed continue token is a 400 in Kubernetes\' words', () => {
  const tokens: [string, string][] = [
    // base64 of `null` (was a 500)
    ['bnVsbA==', 'invalid continue token: continue key is not valid: illegal base64 data at input byte 6'],
    [Buffer.from('null').toString('base64url'), 'invalid continue token: continue key is not valid: server does not recognize this encoded version '],
    [Buffer.from('[1]').toString('base64url'), 'invalid continue token: continue key is not valid: json: cannot unmarshal array into Go value of type storage.continueToken'],
    ['%%%', 'invalid continue token: continue key is not valid: illegal base64 data at input byte 0'],
  ];

  it.each(tokens)('list with continue=%j', async (token, message) => {
    expectBadRequest(await s.get(`${CM}?limit=1&continue=${encodeURIComponent(token)}`), message);
  });

  it.each(tokens)('deletecollection with continue=%j deletes nothing', async (token, message) => {
    const before = await globalRv();
    expectBadRequest(await s.del(`${CM}?limit=1&continue=${encodeURIComponent(token)}`), message);
    expect(await globalRv()).toBe(before);
    expect((await s.get(CM)).body.items).toHaveLength(3);
  });

  it('a token this server issued still works', async () => {
    const first = await s.get(`${CM}?limit=2`);
    const next = await s.get(`${CM}?limit=2&continue=${encodeURIComponent(first.body.metadata.continue as string)}`);
    expect(next.status).toBe(200);
    expect(next.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['c']);
  });
});
