/** LimitRanger over HTTP: container defaults, and min, max and ratio for containers, pods and claims. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { created, forbidden, MERGE, namespace } from './helpers.js';

const LRS = '/api/v1/namespaces/lr/limitranges';
const PODS = '/api/v1/namespaces/lr/pods';
const PVCS = '/api/v1/namespaces/lr/persistentvolumeclaims';
const containers = (...resources: Record<string, unknown>[]) => resources.map((r, i) => ({ name: `c${i}`, image: 'nginx', ...(Object.keys(r).length ? { resources: r } : {}) }));

describe('LimitRanger', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await namespace(s, 'lr');
    await namespace(s, 'free');
    await created(
      s.post(LRS, {
        metadata: { name: 'limits' },
        spec: {
          limits: [
            { type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' }, max: { cpu: '2' }, min: { cpu: '50m' }, maxLimitRequestRatio: { cpu: '10' } },
            { type: 'Pod', max: { memory: '1Gi' } },
            { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } },
          ],
        },
      }),
    );
  });
  afterAll(() => s.close());

  it('fills what containers leave out and says so in an annotation', async () => {
    const p = await created(s.post(PODS, { metadata: { name: 'filled' }, spec: { containers: containers({ limits: { cpu: '1' } }) } }));
    // The cpu request came from the limit when the pod was decoded (Kubernetes' defaulting), before admission.
    expect(p.spec.containers[0].resources).toEqual({ limits: { cpu: '1', memory: '256Mi' }, requests: { cpu: '1', memory: '128Mi' } });
    expect(p.metadata.annotations['orch.io/limit-ranger']).toBe('LimitRanger plugin set: memory request for container c0; memory limit for container c0');
    const bare = await created(s.post(PODS, { metadata: { name: 'bare' }, spec: { containers: containers({}) } }));
    expect(bare.spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    // Another namespace has no LimitRange: nothing is filled.
    const free = await created(s.post('/api/v1/namespaces/free/pods', { metadata: { name: 'free' }, spec: { containers: containers({}) } }));
    expect(free.spec.containers[0].resources).toEqual({});
  });

  it("refuses what breaks a limit, every problem in one 403 in Kubernetes' words", async () => {
    await forbidden(
      s.post(PODS, { metadata: { name: 'big' }, spec: { containers: containers({ limits: { cpu: '3' }, requests: { cpu: '10m' } }) } }),
      'pods "big" is forbidden: [minimum cpu usage per Container is 50m, but request is 10m, maximum cpu usage per Container is 2, but limit is 3, cpu max limit to request ratio per Container is 10, but provided ratio is 300.000000]',
    );
    await forbidden(
      s.post(PODS, { metadata: { name: 'heavy' }, spec: { containers: containers({ limits: { memory: '600Mi' } }, { limits: { memory: '600Mi' } }) } }),
      'pods "heavy" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 1200Mi',
    );
  });

  it('checks claims on create and update', async () => {
    await forbidden(
      s.post(PVCS, { metadata: { name: 'huge' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } } }),
      'persistentvolumeclaims "huge" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
    );
    await forbidden(
      s.post(PVCS, { metadata: { name: 'tiny' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '100Mi' } } } }),
      'persistentvolumeclaims "tiny" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 100Mi',
    );
    await created(s.post(PVCS, { metadata: { name: 'fine' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } }));
    expect((await s.patch(`${PVCS}/fine`, { metadata: { labels: { a: 'b' } } }, MERGE)).status).toBe(200);
  });
});
