import { describe, expect, it } from 'vitest';
import { createApiNames } from '../../../machinery/api-names.js';
import { attrs, obj } from '../testing/attrs.js';
import { defaultTolerationSeconds } from './index.js';

const NR = 'node.kubernetes.io/not-ready';
const UR = 'node.kubernetes.io/unreachable';

describe('DefaultTolerationSeconds', () => {
  const run = (tolerations: unknown[] | undefined, seconds = { defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 }) => {
    const pod = obj('p', { spec: tolerations ? { tolerations } : {} });
    void defaultTolerationSeconds(createApiNames('k8s.io'), seconds).admit?.(attrs({ resource: 'pods', object: pod }));
    return (pod.spec as { tolerations?: unknown[] }).tolerations;
  };
  const nr = { key: NR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
  const ur = { key: UR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };

  it.each([
    ['none', undefined, [nr, ur]],
    ['its own not-ready toleration', [{ key: NR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }], [{ key: NR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }, ur]],
    ['every taint (empty key)', [{ operator: 'Exists' }], [{ operator: 'Exists' }]],
    ['every effect of unreachable', [{ key: UR, operator: 'Exists' }], [{ key: UR, operator: 'Exists' }, nr]],
    ['a NoSchedule toleration, which does not count', [{ key: NR, operator: 'Exists', effect: 'NoSchedule' }], [{ key: NR, operator: 'Exists', effect: 'NoSchedule' }, nr, ur]],
  ])('%s', (_what, tolerations, expected) => {
    expect(run(tolerations)).toEqual(expected);
  });

  it('takes the seconds from the settings', () => {
    expect(run(undefined, { defaultNotReadyTolerationSeconds: 60, defaultUnreachableTolerationSeconds: 0 })).toEqual([
      { ...nr, tolerationSeconds: 60 },
      { ...ur, tolerationSeconds: 0 },
    ]);
  });
});
