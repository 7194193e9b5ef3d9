/** Small helpers shared by the Service tests. */
import { expect } from 'vitest';
import type { Reply, TestServer } from '../../helpers/server.js';

export const SVC = '/api/v1/namespaces/default/services';

export function svc(name: string, spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec }, ...extra };
}

/** Asserts a 422 and returns its causes as `field: message` lines. */
export function invalidCauses(r: Reply): string[] {
  expect(r.status, r.text).toBe(422);
  expect(r.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422, details: { kind: 'Service' } });
  return (r.body.details.causes as { field: string; message: string }[]).map((c) => `${c.field}: ${c.message}`);
}

export async function created(s: TestServer, body: Record<string, unknown>, path = SVC): Promise<any> {
  const r = await s.post(path, body);
  expect(r.status, r.text).toBe(201);
  return r.body;
}

/** The Warning header texts of a reply. */
export function warningsOf(r: Reply): string[] {
  const raw = r.headers.warning;
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.flatMap((h) => [...h.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] as string).replace(/\\(.)/g, '$1')));
}
