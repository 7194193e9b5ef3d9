import { describe, expect, it } from 'vitest';
import { staticLister } from '../../../../test/helpers/static-lister.js';
import { createApiNames } from '../../../machinery/api-names.js';
import { attrs, obj } from '../testing/attrs.js';
import { defaultPriorityClass, priority, type PriorityClassInfo } from './index.js';

const pc = (name: string, value: number, extra: Partial<PriorityClassInfo> = {}): PriorityClassInfo => ({ metadata: { name }, value, ...extra });

describe('Priority', () => {
  const names = createApiNames();
  const classes = [pc('high', 1000, { preemptionPolicy: 'Never' }), pc('low', 10, { preemptionPolicy: 'PreemptLowerPriority' })];
  const admitPod = async (list: PriorityClassInfo[], spec: Record<string, unknown>) => {
    const pod = obj('p', { spec });
    await priority(names, staticLister(list)).admit?.(attrs({ resource: 'pods', object: pod }));
    return pod.spec;
  };

  it.each([
    ['a named class', classes, { priorityClassName: 'high' }, { priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' }],
    ['no class and no default', classes, {}, { priority: 0, preemptionPolicy: 'PreemptLowerPriority' }],
    ['the global default', [...classes, pc('dflt', 5, { globalDefault: true, preemptionPolicy: 'Never' })], {}, { priorityClassName: 'dflt', priority: 5, preemptionPolicy: 'Never' }],
    ['a priority equal to the class', classes, { priorityClassName: 'low', priority: 10 }, { priorityClassName: 'low', priority: 10, preemptionPolicy: 'PreemptLowerPriority' }],
  ])('resolves %s', async (_what, list, spec, expected) => {
    expect(await admitPod(list, spec)).toEqual(expected);
  });

  it.each([
    [{ priorityClassName: 'nope' }, 'pods "p" is forbidden: no PriorityClass with name nope was found'],
    [
      { priorityClassName: 'high', priority: 7 },
      'pods "p" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    ],
    [
      { priorityClassName: 'high', preemptionPolicy: 'PreemptLowerPriority' },
      'pods "p" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
    ],
  ])('refuses %j', async (spec, message) => {
    await expect(admitPod(classes, spec)).rejects.toThrow(message);
  });

  it('keeps the values set at create on update', async () => {
    const pod = obj('p', { spec: { priorityClassName: 'high' } });
    const old = obj('p', { spec: { priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' } });
    await priority(names, staticLister(classes)).admit?.(attrs({ resource: 'pods', operation: 'UPDATE', object: pod, oldObject: old }));
    expect(pod.spec).toEqual({ priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' });
  });

  it('allows one global default class', async () => {
    const list = [...classes, pc('dflt', 5, { globalDefault: true })];
    const plugin = priority(names, staticLister(list));
    const write = (name: string, operation: 'CREATE' | 'UPDATE') =>
      plugin.validate?.(attrs({ group: 'scheduling.orch.io', resource: 'priorityclasses', namespace: '', operation, object: obj(name, { value: 1, globalDefault: true }) }));
    await expect(write('other', 'CREATE')).rejects.toThrow('priorityclasses.scheduling.orch.io "other" is forbidden: PriorityClass dflt is already marked as default. Only one default can exist');
    await expect(write('high', 'UPDATE')).rejects.toThrow('PriorityClass dflt is already marked as default');
    await expect(write('dflt', 'UPDATE')).resolves.toBeUndefined();
  });

  it('picks the lowest value among several defaults', () => {
    expect(defaultPriorityClass([pc('a', 9, { globalDefault: true }), pc('b', 3, { globalDefault: true }), pc('c', 1)])?.metadata.name).toBe('b');
  });
});
