/**
 * The deadline of non-watch requests (`requestTimeoutSeconds`): a request still waiting when it
 * passes gets a 504 Timeout Status, and what it waited on is told to stop.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ requestTimeoutSeconds: 1 });
});
afterAll(() => s.close());

it('answers 504 when a read of a future resourceVersion outlasts the request deadline', async () => {
  // The cache would wait 3 s for a version this far ahead; the 1 s deadline comes first.
  const r = await s.get('/api/v1/namespaces/default/configmaps?resourceVersion=999999999&resourceVersionMatch=NotOlderThan');
  expect(r.status, r.text).toBe(504);
  expect(r.body).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504 });
  expect(r.body.message).toBe('Timeout: request did not complete within the allotted timeout');
});

it('leaves quick requests alone and keeps serving after a deadline passed', async () => {
  const created = await s.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'after-deadline' }, data: { a: 'b' } });
  expect(created.status, created.text).toBe(201);
  expect((await s.get('/api/v1/namespaces/default/configmaps/after-deadline')).status).toBe(200);
});
