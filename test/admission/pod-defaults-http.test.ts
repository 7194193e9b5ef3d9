/** DefaultTolerationSeconds and RuntimeClass over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { created, forbidden, namespace, pod } from './helpers.js';

const PODS = '/api/v1/namespaces/pd/pods';
const RCS = '/apis/node.k8s.io/v1/runtimeclasses';

describe('pod defaults from admission (k8s.io names)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io', admission: { defaultNotReadyTolerationSeconds: 120 } });
    await namespace(s, 'pd');
  });
  afterAll(() => s.close());

  it('DefaultTolerationSeconds: pods tolerate not-ready and unreachable nodes for a while, the flags saying how long', async () => {
    const p = await created(s.post(PODS, pod('t')));
    expect(p.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    const own = await created(s.post(PODS, pod('own', { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] })));
    expect(own.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
    ]);
    const all = await created(s.post(PODS, pod('all', { tolerations: [{ operator: 'Exists' }] })));
    expect(all.spec.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it('RuntimeClass: a pod gets its class overhead and scheduling', async () => {
    await created(
      s.post(RCS, {
        metadata: { name: 'kata' },
        handler: 'kata',
        overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
        scheduling: { nodeSelector: { sandbox: 'kata' }, tolerations: [{ key: 'sandbox', operator: 'Equal', value: 'kata', effect: 'NoSchedule' }] },
      }),
    );
    const p = await created(s.post(PODS, pod('k', { runtimeClassName: 'kata', nodeSelector: { zone: 'a' } })));
    expect(p.spec.overhead).toEqual({ cpu: '250m', memory: '120Mi' });
    expect(p.spec.nodeSelector).toEqual({ zone: 'a', sandbox: 'kata' });
    expect(p.spec.tolerations).toContainEqual({ key: 'sandbox', operator: 'Equal', value: 'kata', effect: 'NoSchedule' });
  });

  it("RuntimeClass: refuses unknown classes, overheads that differ and conflicting selectors, in Kubernetes' words", async () => {
    await forbidden(s.post(PODS, pod('a', { runtimeClassName: 'gone' })), 'pods "a" is forbidden: pod rejected: RuntimeClass "gone" not found');
    await forbidden(s.post(PODS, pod('b', { runtimeClassName: 'kata', overhead: { cpu: '1' } })), `pods "b" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`);
    await forbidden(s.post(PODS, pod('c', { overhead: { cpu: '1' } })), 'pods "c" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
    await forbidden(
      s.post(PODS, pod('d', { runtimeClassName: 'kata', nodeSelector: { sandbox: 'gvisor' } })),
      'pods "d" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = kata; pod.spec.nodeSelector[sandbox] = gvisor',
    );
  });
});
