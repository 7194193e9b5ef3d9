import { describe, expect, it } from 'vitest';
import type { PersistentVolumeClaim } from '../../apis/core/v1/persistentvolumeclaim.js';
import type { Pod } from '../../apis/core/v1/pod.js';
import { claimNamesOf, podUsesClaim } from './index.js';

const claim = (name: string, owner?: string): PersistentVolumeClaim =>
  ({ metadata: { name, namespace: 'ns', ...(owner ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web', uid: owner, controller: true }] } : {}) } }) as PersistentVolumeClaim;
const pod = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}): Pod =>
  ({ metadata: { name: 'web', namespace: 'ns', uid: 'pod-uid', ...meta }, spec: { containers: [], ...spec } }) as unknown as Pod;
const uses = (claimName: string) => ({ volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] });
const ephemeral = { volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }] };

describe('pvc protection: which pods use a claim', () => {
  it.each([
    ['a scheduled pod naming it', pod({ nodeName: 'n1', ...uses('data') }), claim('data'), true],
    ['an unscheduled pod naming it (the kubelet never started it)', pod(uses('data')), claim('data'), false],
    ['a scheduled pod naming another claim', pod({ nodeName: 'n1', ...uses('other') }), claim('data'), false],
    ['a pod in another namespace', pod({ nodeName: 'n1', ...uses('data') }, { namespace: 'elsewhere' }), claim('data'), false],
    ['a terminating pod naming it (still holds it)', pod({ nodeName: 'n1', ...uses('data') }, { deletionTimestamp: 'x', deletionGracePeriodSeconds: 0 }), claim('data'), true],
    ['a pod owning its ephemeral claim', pod({ nodeName: 'n1', ...ephemeral }), claim('web-scratch', 'pod-uid'), true],
    ['a pod whose ephemeral claim another pod owns', pod({ nodeName: 'n1', ...ephemeral }), claim('web-scratch', 'someone-else'), false],
    ['a shut-down pod with an ephemeral claim', pod({ nodeName: 'n1', ...ephemeral }, { deletionTimestamp: 'x', deletionGracePeriodSeconds: 0 }), claim('web-scratch', 'pod-uid'), false],
  ])('%s: %s', (_what, p, c, want) => {
    expect(podUsesClaim(p, c)).toBe(want);
  });

  it('lists the claims a pod names', () => {
    expect(claimNamesOf(pod({ volumes: [...uses('a').volumes, ...ephemeral.volumes, { name: 'e', emptyDir: {} }] }))).toEqual(['a', 'web-scratch']);
  });
});
