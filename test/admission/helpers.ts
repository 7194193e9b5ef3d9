/** Shared bits of the admission plugin HTTP tests. */
import { expect } from 'vitest';
import type { Reply, TestServer } from '../helpers/server.js';

export const MERGE = 'application/merge-patch+json';
export const pod = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
  metadata: { name, ...metadata },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});

export async function namespace(s: TestServer, name: string): Promise<void> {
  const r = await s.post('/api/v1/namespaces', { metadata: { name } });
  expect(r.status, r.text).toBe(201);
}

export async function created(r: Promise<Reply>): Promise<any> {
  const reply = await r;
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

/** A 403 Forbidden with exactly this message. */
export async function forbidden(r: Promise<Reply>, message: string): Promise<void> {
  const reply = await r;
  expect([reply.status, reply.body?.reason, reply.body?.message], reply.text).toEqual([403, 'Forbidden', message]);
}
