import { describe, expect, it } from 'vitest';
import type { Namespace } from '../../apis/core/v1/namespace.js';
import { missingAccounts } from './index.js';

const ns = (phase?: string, deleting = false): Namespace =>
  ({ metadata: { name: 'team', ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) }, status: phase ? { phase } : {} }) as Namespace;

describe('missingAccounts', () => {
  it.each([
    ['an active namespace without default', ns('Active'), false, ['default']],
    ['an active namespace with default', ns('Active'), true, []],
    ['a namespace with no phase yet (active)', ns(), false, ['default']],
    ['a terminating namespace', ns('Terminating'), false, []],
    ['a namespace being deleted', ns('Active', true), false, []],
    ['a namespace that is gone', undefined, false, []],
  ])('%s', (_what, namespace, hasDefault, want) => {
    expect(missingAccounts(namespace, (name) => hasDefault && name === 'default')).toEqual(want);
  });
});
