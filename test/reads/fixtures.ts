/** Shared fixtures of the read-path tests: the two embedded backends and small object builders. */
import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import type { ServerOptions } from '../../src/server/options.js';

export type TestServerOptions = Omit<ServerOptions, 'dataDir'> & { dataDir?: string | true };

/** Every read semantic is checked against the memory store and a real SQLite file. */
export const BACKENDS: [string, TestServerOptions][] = [
  ['memory', {}],
  ['sqlite', { dataDir: true }],
];

export const CM = '/api/v1/namespaces';

export function cmPath(ns: string, name = ''): string {
  return `${CM}/${ns}/configmaps${name ? `/${name}` : ''}`;
}

export async function createNamespace(s: TestServer, name: string): Promise<void> {
  const r = await s.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  expect(r.status, r.text).toBe(201);
}

/** Creates a ConfigMap and returns it as the server answered. */
export async function createCm(s: TestServer, ns: string, name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}): Promise<any> {
  const r = await s.post(cmPath(ns), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

/** Replaces a ConfigMap's data (and labels, when given) with a merge patch. */
export async function patchCm(s: TestServer, ns: string, name: string, patch: Record<string, unknown>): Promise<any> {
  const r = await s.patch(cmPath(ns, name), patch, 'application/merge-patch+json');
  expect(r.status, r.text).toBe(200);
  return r.body;
}

export async function deleteCm(s: TestServer, ns: string, name: string): Promise<void> {
  const r = await s.del(cmPath(ns, name));
  expect(r.status, r.text).toBe(200);
}

export function names(list: any): string[] {
  return list.items.map((i: any) => i.metadata.name);
}

/** Polls `probe` until it returns a value, failing after `timeoutMs` (a safety net, not a measurement). */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
