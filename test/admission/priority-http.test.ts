/** Priority over HTTP: the system classes at start, class resolution, the global default. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { created, forbidden, MERGE, namespace, pod } from './helpers.js';

const PCS = '/apis/scheduling.orch.io/v1/priorityclasses';
const PODS = '/api/v1/namespaces/prio/pods';

describe('Priority', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ dataDir: true });
    await namespace(s, 'prio');
  });
  afterAll(() => s.close());

  it('creates the two system classes at start', async () => {
    const names = (await s.get(PCS)).body.items.map((pc: any) => [pc.metadata.name, pc.value, pc.globalDefault ?? false]);
    expect(names).toEqual([
      ['system-cluster-critical', 2000000000, false],
      ['system-node-critical', 2000001000, false],
    ]);
  });

  it('gives a pod without a class priority 0, and a pod with one its value and policy', async () => {
    expect((await created(s.post(PODS, pod('plain')))).spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    await created(s.post(PCS, { metadata: { name: 'batch' }, value: 100, preemptionPolicy: 'Never' }));
    const p = await created(s.post(PODS, pod('batchy', { priorityClassName: 'batch' })));
    expect(p.spec).toMatchObject({ priorityClassName: 'batch', priority: 100, preemptionPolicy: 'Never' });
    // A system class works in any namespace, as in Kubernetes 1.25.
    expect((await created(s.post(PODS, pod('critical', { priorityClassName: 'system-node-critical' })))).spec.priority).toBe(2000001000);
    // An update that leaves the values out keeps them.
    const replaced = await s.put(`${PODS}/batchy`, { ...p, spec: { ...p.spec, priority: undefined, preemptionPolicy: undefined } });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.spec).toMatchObject({ priority: 100, preemptionPolicy: 'Never' });
  });

  it("refuses unknown classes and values that differ from the class's, with Kubernetes' messages", async () => {
    await forbidden(s.post(PODS, pod('u', { priorityClassName: 'missing' })), 'pods "u" is forbidden: no PriorityClass with name missing was found');
    await forbidden(
      s.post(PODS, pod('v', { priorityClassName: 'batch', priority: 5 })),
      'pods "v" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 100 from the given PriorityClass name',
    );
  });

  it('gives pods the global default class; only one class may be it', async () => {
    await created(s.post(PCS, { metadata: { name: 'normal' }, value: 10, globalDefault: true }));
    expect((await created(s.post(PODS, pod('defaulted')))).spec).toMatchObject({ priorityClassName: 'normal', priority: 10, preemptionPolicy: 'PreemptLowerPriority' });
    await forbidden(
      s.post(PCS, { metadata: { name: 'second' }, value: 20, globalDefault: true }),
      'priorityclasses.scheduling.orch.io "second" is forbidden: PriorityClass normal is already marked as default. Only one default can exist',
    );
    await forbidden(s.patch(`${PCS}/batch`, { globalDefault: true }, MERGE), 'priorityclasses.scheduling.orch.io "batch" is forbidden: PriorityClass normal is already marked as default. Only one default can exist');
    expect((await s.patch(`${PCS}/normal`, { description: 'still the default' }, MERGE)).status).toBe(200);
  });

  it('can be disabled', async () => {
    const off = await startTestServer({ admission: { disablePlugins: ['Priority'] } });
    try {
      await namespace(off, 'prio');
      const p = await created(off.post(PODS, pod('free', { priorityClassName: 'whatever' })));
      expect(p.spec.priority).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});
