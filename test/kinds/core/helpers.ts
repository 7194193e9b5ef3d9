/** Helpers shared by the core/v1 kind tests. */
import { expect } from 'vitest';
import type { Reply } from '../../helpers/server.js';
import { expectStatus } from '../../rest/fixtures.js';

export { expectStatus, warningsOf } from '../../rest/fixtures.js';

export interface Cause {
  reason: string;
  field: string;
  message: string;
}

/** Asserts a 422 Invalid and returns its causes. */
export function invalidCauses(r: Reply): Cause[] {
  const st = expectStatus(r, 422, 'Invalid');
  return st.details.causes as Cause[];
}

/** Asserts a 422 Invalid with exactly these causes (field, reason and message each). */
export function expectCauses(r: Reply, expected: Partial<Cause>[]): void {
  expect(invalidCauses(r)).toEqual(expected.map((c) => expect.objectContaining(c)));
}

export const MERGE = 'application/merge-patch+json';
