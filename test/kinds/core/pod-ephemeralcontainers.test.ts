/** pods/ephemeralcontainers over HTTP: debug containers added to a running pod, with Kubernetes' rules; nothing else of the pod changes there. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE } from './helpers.js';

const PODS = '/api/v1/namespaces/default/pods';
const SMP = 'application/strategic-merge-patch+json';
const debug = (name: string, extra: Record<string, unknown> = {}) => ({ spec: { ephemeralContainers: [{ name, image: 'busybox:1.36', stdin: true, tty: true, ...extra }] } });

describe('pods/ephemeralcontainers', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.post(PODS, { metadata: { name: 'app' }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it('is listed in discovery with get, patch and update', async () => {
    const entry = (await s.get('/api/v1')).body.resources.find((r: any) => r.name === 'pods/ephemeralcontainers');
    expect(entry).toMatchObject({ kind: 'Pod', verbs: ['get', 'patch', 'update'] });
  });

  it('adds a debug container (defaulted) as kubectl debug does, and nothing else', async () => {
    const added = await s.patch(`${PODS}/app/ephemeralcontainers`, { ...debug('debugger', { targetContainerName: 'app' }), metadata: { labels: { sneaky: 'yes' } } }, SMP);
    expect(added.status, added.text).toBe(200);
    expect(added.body.kind).toBe('Pod');
    expect(added.body.spec.ephemeralContainers).toEqual([
      expect.objectContaining({ name: 'debugger', targetContainerName: 'app', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent', stdin: true, tty: true }),
    ]);
    expect(added.body.metadata.labels).toBeUndefined();
    expect((await s.get(`${PODS}/app/ephemeralcontainers`)).body.spec.ephemeralContainers).toHaveLength(1);
  });

  it('refuses changing or removing one, and fields an ephemeral container may not have', async () => {
    expectCauses(await s.patch(`${PODS}/app/ephemeralcontainers`, { spec: { ephemeralContainers: [{ name: 'debugger', image: 'alpine:3' }] } }, SMP), [
      { reason: 'FieldValueForbidden', field: 'spec.ephemeralContainers', message: 'Forbidden: existing ephemeral containers "debugger" may not be changed\n' },
    ]);
    expectCauses(await s.patch(`${PODS}/app/ephemeralcontainers`, { spec: { ephemeralContainers: null } }, MERGE), [
      { reason: 'FieldValueForbidden', field: 'spec.ephemeralContainers', message: 'Forbidden: existing ephemeral containers "debugger" may not be removed\n' },
    ]);
    // The strategic merge puts the patch's new container first.
    expectCauses(await s.patch(`${PODS}/app/ephemeralcontainers`, debug('second', { targetContainerName: 'nope', ports: [{ containerPort: 80 }] }), SMP), [
      { reason: 'FieldValueNotFound', field: 'spec.ephemeralContainers[0].targetContainerName', message: 'Not found: "nope"' },
      { reason: 'FieldValueForbidden', field: 'spec.ephemeralContainers[0].ports', message: 'Forbidden: cannot be set for an Ephemeral Container' },
    ]);
    expectCauses(await s.patch(`${PODS}/app/ephemeralcontainers`, debug('app'), SMP), [{ reason: 'FieldValueDuplicate', field: 'spec.ephemeralContainers[0].name', message: 'Duplicate value: "app"' }]);
  });

  it('are not set through the pod itself', async () => {
    expectCauses(await s.post(PODS, { metadata: { name: 'direct' }, spec: { containers: [{ name: 'a', image: 'nginx' }], ephemeralContainers: [{ name: 'd', image: 'busybox' }] } }), [
      { reason: 'FieldValueForbidden', field: 'spec.ephemeralContainers', message: 'Forbidden: cannot be set on create' },
    ]);
  });
});
