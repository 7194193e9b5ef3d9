import { expect, it } from 'vitest';
import { assuredConcurrencyValues } from './concurrency.js';

it('shares the server concurrency limit by ACV(l) = ceil(SCL * ACS(l) / sum ACS)', () => {
  // Kubernetes 1.25's defaults: SCL 600 over the suggested levels and catch-all.
  const shares = new Map([
    ['system', 30],
    ['node-high', 40],
    ['leader-election', 10],
    ['workload-high', 40],
    ['workload-low', 100],
    ['global-default', 20],
    ['catch-all', 5],
  ]);
  expect(Object.fromEntries(assuredConcurrencyValues(600, shares))).toEqual({
    system: 74,
    'node-high': 98,
    'leader-election': 25,
    'workload-high': 98,
    'workload-low': 245,
    'global-default': 49,
    'catch-all': 13,
  });
  // Rounding up: every level keeps at least one seat, however small the limit.
  expect(Object.fromEntries(assuredConcurrencyValues(3, new Map([['a', 1], ['b', 100]])))).toEqual({ a: 1, b: 3 });
});
