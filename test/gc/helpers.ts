/** Small helpers of the garbage collector tests: objects with owner references, and waiting for a state. */
import type { TestServer } from '../helpers/server.js';

export function ownerOf(obj: any, blockOwnerDeletion?: boolean): { apiVersion: string; kind: string; name: string; uid: string; blockOwnerDeletion?: boolean } {
  return {
    apiVersion: 'v1',
    kind: obj.kind,
    name: obj.metadata.name,
    uid: obj.metadata.uid,
    ...(blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion }),
  };
}

export const path = (kind: 'configmaps' | 'secrets', ns: string, name = ''): string => `/api/v1/namespaces/${ns}/${kind}${name ? `/${name}` : ''}`;

/** Creates an object and returns its body; fails the test on anything but 201. */
export async function create(s: TestServer, kind: 'configmaps' | 'secrets', ns: string, name: string, meta: Record<string, unknown> = {}): Promise<any> {
  const r = await s.post(path(kind, ns), { metadata: { name, ...meta } });
  if (r.status !== 201) throw new Error(`creating ${kind} ${ns}/${name}: ${r.status} ${r.text}`);
  return r.body;
}

/**
 * Polls `read` until `done` holds; throws with the last value when it never does. Waiting is the
 * point here (the collector works asynchronously); how long it takes is not asserted.
 */
export async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, limitMs = 15_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > until) throw new Error(`never happened: ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resolves once GET of `p` answers 404. */
export function gone(s: TestServer, p: string): Promise<unknown> {
  return eventually(() => s.get(p), (r) => r.status === 404, `${p} is gone`);
}
