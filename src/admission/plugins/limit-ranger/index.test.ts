import { describe, expect, it } from 'vitest';
import { staticLister } from '../../../../test/helpers/static-lister.js';
import { createApiNames } from '../../../machinery/api-names.js';
import { attrs, obj } from '../testing/attrs.js';
import { limitRanger, podTotal, type LimitRangeInfo } from './index.js';

const range = (limits: NonNullable<LimitRangeInfo['spec']>['limits']): LimitRangeInfo & { metadata: { name: string; namespace: string } } => ({
  metadata: { name: 'lr', namespace: 'ns' },
  spec: { limits: limits ?? [] },
});
const container = (name: string, resources?: Record<string, unknown>) => ({ name, image: 'i', ...(resources ? { resources } : {}) });

describe('LimitRanger', () => {
  const names = createApiNames('k8s.io');
  const admitAndValidate = async (lr: LimitRangeInfo[], pod: ReturnType<typeof obj>) => {
    const plugin = limitRanger(names, staticLister(lr as never[]));
    const a = attrs({ resource: 'pods', object: pod });
    await plugin.admit?.(a);
    await plugin.validate?.(a);
    return pod;
  };

  it('fills container defaults and notes them in the annotation', async () => {
    const lr = range([{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }]);
    const pod = obj('p', { spec: { initContainers: [container('init')], containers: [container('app', { limits: { cpu: '1' } }), container('side')] } });
    await admitAndValidate([lr], pod);
    const spec = pod.spec as { containers: { resources: unknown }[]; initContainers: { resources: unknown }[] };
    expect(spec.containers[0]?.resources).toEqual({ limits: { cpu: '1', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(spec.containers[1]?.resources).toEqual({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(spec.initContainers[0]?.resources).toEqual({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(pod.metadata.annotations?.['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu, memory request for container app; memory limit for container app; cpu, memory request for container side; cpu, memory limit for container side; cpu, memory request for init container init; cpu, memory limit for init container init',
    );
  });

  it.each([
    [[{ type: 'Container', min: { cpu: '200m' } }], { requests: { cpu: '100m' } }, 'minimum cpu usage per Container is 200m, but request is 100m'],
    [[{ type: 'Container', min: { cpu: '200m' } }], {}, 'minimum cpu usage per Container is 200m.  No request is specified'],
    [[{ type: 'Container', min: { cpu: '200m' } }], { requests: { cpu: '300m' }, limits: { cpu: '150m' } }, 'minimum cpu usage per Container is 200m, but limit is 150m'],
    [[{ type: 'Container', max: { memory: '1Gi' } }], { limits: { memory: '2Gi' } }, 'maximum memory usage per Container is 1Gi, but limit is 2Gi'],
    [[{ type: 'Container', max: { memory: '1Gi' } }], {}, 'maximum memory usage per Container is 1Gi.  No limit is specified'],
    [[{ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }], { requests: { cpu: '100m' }, limits: { cpu: '400m' } }, 'cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000'],
    [[{ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }], { limits: { cpu: '400m' } }, 'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0'],
    [[{ type: 'Pod', max: { cpu: '1' } }], { requests: { cpu: '600m' }, limits: { cpu: '600m' } }, 'maximum cpu usage per Pod is 1, but limit is 1200m'],
    [
      [{ type: 'Container', min: { cpu: '1' }, max: { cpu: '2' } }],
      { requests: { cpu: '500m' }, limits: { cpu: '3' } },
      '[minimum cpu usage per Container is 1, but request is 500m, maximum cpu usage per Container is 2, but limit is 3]',
    ],
  ])('refuses against %j: %j', async (limits, resources, message) => {
    const pod = obj('p', { spec: { containers: [container('a', resources), container('b', resources)] } });
    await expect(admitAndValidate([range(limits as never)], pod)).rejects.toThrow(`pods "p" is forbidden: ${message}`);
  });

  it('counts a pod as its containers summed, raised to its largest init container', () => {
    const pod = { metadata: {}, spec: { containers: [container('a', { requests: { cpu: '100m' } }), container('b', { requests: { cpu: '200m' } })], initContainers: [container('i', { requests: { cpu: '1', memory: '1Gi' } })] } };
    expect(podTotal(pod, 'requests')).toEqual({ cpu: '1', memory: '1Gi' });
  });

  it('checks claims on create and update against the PersistentVolumeClaim items', async () => {
    const plugin = limitRanger(names, staticLister([range([{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }])] as never[]));
    const claim = (storage: string) => obj('c', { spec: { resources: { requests: { storage } } } });
    await expect(plugin.validate?.(attrs({ resource: 'persistentvolumeclaims', object: claim('5Gi') }))).resolves.toBeUndefined();
    await expect(plugin.validate?.(attrs({ resource: 'persistentvolumeclaims', object: claim('20Gi') }))).rejects.toThrow(
      'persistentvolumeclaims "c" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
    );
    await expect(plugin.validate?.(attrs({ resource: 'persistentvolumeclaims', operation: 'UPDATE', object: claim('512Mi'), oldObject: claim('1Gi') }))).rejects.toThrow(
      'minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 512Mi',
    );
  });

  it('leaves pod updates, subresources and objects being deleted alone', async () => {
    const plugin = limitRanger(names, staticLister([range([{ type: 'Container', min: { cpu: '1' } }])] as never[]));
    const pod = obj('p', { spec: { containers: [container('a')] } });
    await expect(plugin.validate?.(attrs({ resource: 'pods', operation: 'UPDATE', object: pod, oldObject: pod }))).resolves.toBeUndefined();
    await expect(plugin.validate?.(attrs({ resource: 'pods', subresource: 'status', object: pod }))).resolves.toBeUndefined();
  });
});
