import { describe, expect, it } from 'vitest';
import type { PersistentVolume } from '../../apis/core/v1/persistentvolume.js';
import { createApiNames } from '../../machinery/api-names.js';
import { mayReleaseVolume, pvProtectionFinalizer } from './index.js';

const F = 'orch.io/pv-protection';
const pv = (phase: string, deleting: boolean, finalizers = [F]): PersistentVolume =>
  ({ metadata: { name: 'pv', finalizers, ...(deleting ? { deletionTimestamp: 'x' } : {}) }, status: { phase } }) as unknown as PersistentVolume;

describe('pv protection', () => {
  it('names the finalizer after the domain', () => {
    expect(pvProtectionFinalizer(createApiNames('orch.io'))).toBe(F);
    expect(pvProtectionFinalizer(createApiNames('k8s.io'))).toBe('kubernetes.io/pv-protection');
  });

  it.each([
    ['a deleted volume no claim is bound to', pv('Available', true), true],
    ['a deleted Released volume', pv('Released', true), true],
    ['a deleted volume still Bound', pv('Bound', true), false],
    ['a volume not being deleted', pv('Available', false), false],
    ['a deleted volume without the finalizer', pv('Available', true, ['other']), false],
  ])('%s: %s', (_what, v, want) => {
    expect(mayReleaseVolume(v, F)).toBe(want);
  });
});
