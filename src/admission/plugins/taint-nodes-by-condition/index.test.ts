import { describe, expect, it } from 'vitest';
import { createApiNames } from '../../../machinery/api-names.js';
import { attrs, obj } from '../testing/attrs.js';
import { taintNodesByCondition } from './index.js';

describe('TaintNodesByCondition', () => {
  const run = (domain: string, spec: Record<string, unknown> | undefined, over: Record<string, unknown> = {}) => {
    const node = obj('n1', spec ? { spec } : {});
    void taintNodesByCondition(createApiNames(domain)).admit?.(attrs({ resource: 'nodes', namespace: '', object: node, ...over }));
    return (node.spec as { taints?: unknown[] } | undefined)?.taints;
  };

  it.each([
    ['orch.io', undefined, [{ key: 'node.orch.io/not-ready', effect: 'NoSchedule' }]],
    ['k8s.io', {}, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]],
    ['orch.io', { taints: [{ key: 'a', effect: 'NoExecute' }] }, [{ key: 'a', effect: 'NoExecute' }, { key: 'node.orch.io/not-ready', effect: 'NoSchedule' }]],
    // Already there with this key and effect (whatever its value): left as it is.
    ['orch.io', { taints: [{ key: 'node.orch.io/not-ready', value: 'x', effect: 'NoSchedule' }] }, [{ key: 'node.orch.io/not-ready', value: 'x', effect: 'NoSchedule' }]],
    ['orch.io', { taints: [{ key: 'node.orch.io/not-ready', effect: 'NoExecute' }] }, [{ key: 'node.orch.io/not-ready', effect: 'NoExecute' }, { key: 'node.orch.io/not-ready', effect: 'NoSchedule' }]],
  ])('%s %j', (domain, spec, expected) => {
    expect(run(domain, spec)).toEqual(expected);
  });

  it('acts on create of the main resource only', () => {
    expect(run('orch.io', {}, { operation: 'UPDATE' })).toBeUndefined();
    expect(run('orch.io', {}, { subresource: 'status' })).toBeUndefined();
  });
});
