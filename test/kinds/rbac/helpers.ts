/** Small assertions shared by the kind tests under test/kinds/. */
import { expect } from 'vitest';
import type { Reply } from '../../helpers/server.js';

/** Asserts a 422 Invalid Status for the kind and name, and returns the Status. */
export function expectInvalid(r: Reply, kind: string, name: string): any {
  expect(r.status, r.text).toBe(422);
  expect(r.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422, details: { kind, name } });
  return r.body;
}

/** The causes of a Status as [reason, field, message] triples, in order. */
export function causesOf(status: any): [string, string, string][] {
  return (status.details?.causes ?? []).map((c: any) => [c.reason, c.field, c.message]);
}
