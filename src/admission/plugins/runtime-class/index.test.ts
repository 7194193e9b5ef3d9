import { describe, expect, it } from 'vitest';
import { staticLister } from '../../../../test/helpers/static-lister.js';
import { createApiNames } from '../../../machinery/api-names.js';
import { attrs, obj } from '../testing/attrs.js';
import { runtimeClass, type RuntimeClassInfo } from './index.js';
import { mergeTolerations } from './merge-tolerations.js';

const classes = staticLister<RuntimeClassInfo>([
  { metadata: { name: 'plain' } },
  { metadata: { name: 'kata' }, overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } },
  { metadata: { name: 'gpu' }, scheduling: { nodeSelector: { gpu: 'yes' }, tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] } },
]);

describe('RuntimeClass', () => {
  const plugin = runtimeClass(createApiNames(), classes);
  const both = async (spec: Record<string, unknown>) => {
    const pod = obj('p', { spec });
    const a = attrs({ resource: 'pods', object: pod });
    await plugin.admit?.(a);
    await plugin.validate?.(a);
    return pod.spec;
  };

  it.each([
    ['no class', {}, {}],
    ['a class with neither', { runtimeClassName: 'plain' }, { runtimeClassName: 'plain' }],
    ['the overhead', { runtimeClassName: 'kata' }, { runtimeClassName: 'kata', overhead: { cpu: '250m', memory: '120Mi' } }],
    ['the same overhead written otherwise', { runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' } }, { runtimeClassName: 'kata', overhead: { cpu: '250m', memory: '120Mi' } }],
    [
      'the scheduling',
      { runtimeClassName: 'gpu', nodeSelector: { zone: 'a' }, tolerations: [{ operator: 'Exists', key: 'other' }] },
      { runtimeClassName: 'gpu', nodeSelector: { zone: 'a', gpu: 'yes' }, tolerations: [{ operator: 'Exists', key: 'other' }, { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] },
    ],
  ])('applies %s', async (_what, spec, expected) => {
    expect(await both(spec)).toEqual(expected);
  });

  it.each([
    [{ runtimeClassName: 'nope' }, 'pods "p" is forbidden: pod rejected: RuntimeClass "nope" not found'],
    [{ runtimeClassName: 'kata', overhead: { cpu: '1' } }, `pods "p" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`],
    [{ overhead: { cpu: '1' } }, 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'],
    [{ runtimeClassName: 'gpu', nodeSelector: { gpu: 'no' } }, 'pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[gpu] = yes; pod.spec.nodeSelector[gpu] = no'],
  ])('refuses %j', async (spec, message) => {
    await expect(both(spec)).rejects.toThrow(message);
  });

  it('merges tolerations leaving out those another covers', () => {
    const all = { operator: 'Exists' };
    const a = { key: 'a', operator: 'Equal', value: '1', effect: 'NoSchedule' };
    const short = { key: 'n', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 };
    const long = { key: 'n', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 100 };
    expect(mergeTolerations([a], [a])).toEqual([a]);
    expect(mergeTolerations([a], [all])).toEqual([all]);
    expect(mergeTolerations([short], [long])).toEqual([long]);
    expect(mergeTolerations([long], [short])).toEqual([long]);
    expect(mergeTolerations([a], [short])).toEqual([a, short]);
  });
});
