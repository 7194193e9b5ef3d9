import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apis/core/v1/pod.js';
import type { PodDisruptionBudget } from '../../apis/policy/v1/poddisruptionbudget.js';
import { computeStatus, DISRUPTION_TIMEOUT_MS, type ScaleFinder } from './status.js';

const pod = (name: string, opts: { ready?: boolean; deleting?: boolean; labels?: Record<string, string> } = {}): Pod =>
  ({
    metadata: { name, namespace: 'ns', labels: opts.labels ?? { app: 'a' }, ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: { containers: [] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }] },
  }) as unknown as Pod;
const pdb = (spec: Record<string, unknown>, disruptedPods?: Record<string, string>): PodDisruptionBudget =>
  ({
    metadata: { name: 'b', namespace: 'ns', generation: 1 },
    spec: { selector: { matchLabels: { app: 'a' } }, ...spec },
    status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, ...(disruptedPods ? { disruptedPods } : {}) },
  }) as unknown as PodDisruptionBudget;
const scaleOf = (replicas: number): ScaleFinder => () => ({ uid: 'rs', replicas });
const noController: ScaleFinder = (p) => ({ error: `found no controller ref for pod "${p.metadata.name}"` });
const now = new Date('2026-06-01T00:00:00Z');

describe('computeStatus', () => {
  it.each([
    ['minAvailable count: expected = selected pods', { minAvailable: 2 }, [pod('1'), pod('2'), pod('3', { ready: false })], scaleOf(9), { expectedPods: 3, desiredHealthy: 2, currentHealthy: 2, disruptionsAllowed: 0 }],
    ['minAvailable percent: by the controller, rounded up', { minAvailable: '50%' }, [pod('1'), pod('2'), pod('3')], scaleOf(5), { expectedPods: 5, desiredHealthy: 3, currentHealthy: 3, disruptionsAllowed: 0 }],
    ['maxUnavailable: expected less the allowance', { maxUnavailable: 1 }, [pod('1'), pod('2'), pod('3')], scaleOf(3), { expectedPods: 3, desiredHealthy: 2, currentHealthy: 3, disruptionsAllowed: 1 }],
    ['pods being deleted and other labels do not count', { minAvailable: 1 }, [pod('1'), pod('2', { deleting: true }), pod('x', { labels: { app: 'b' } })], scaleOf(1), { expectedPods: 2, currentHealthy: 1, disruptionsAllowed: 0 }],
    ['no pods: nothing allowed', { minAvailable: 0 }, [], scaleOf(1), { expectedPods: 0, disruptionsAllowed: 0 }],
    ['an empty selector selects every pod', { minAvailable: 0, selector: {} }, [pod('1', { labels: {} })], scaleOf(1), { expectedPods: 1, disruptionsAllowed: 1 }],
  ])('%s', (_name, spec, pods, finder, want) => {
    expect(computeStatus(pdb(spec), pods, finder, now)).toMatchObject(want);
  });

  it('fails when a budget counting by controllers meets a pod without one', () => {
    expect(() => computeStatus(pdb({ maxUnavailable: 1 }), [pod('1')], noController, now)).toThrow('found no controller ref for pod "1"');
  });

  it('keeps a recent eviction (not counted healthy) and forgets an expired one', () => {
    const recent = new Date(now.getTime() - 1000).toISOString();
    const old = new Date(now.getTime() - DISRUPTION_TIMEOUT_MS - 1000).toISOString();
    const got = computeStatus(pdb({ minAvailable: 1 }, { '1': recent, '2': old, gone: recent }), [pod('1'), pod('2')], scaleOf(2), now);
    expect(got.disruptedPods).toEqual({ '1': recent });
    expect(got.currentHealthy).toBe(1);
    expect(got.nextExpiry).toBe(Date.parse(recent) + DISRUPTION_TIMEOUT_MS);
  });
});
