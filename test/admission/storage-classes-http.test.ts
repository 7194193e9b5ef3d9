/** DefaultStorageClass and PersistentVolumeClaimResize over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { created, forbidden, MERGE, namespace } from './helpers.js';

const SCS = '/apis/storage.orch.io/v1/storageclasses';
const PVCS = '/api/v1/namespaces/sc/persistentvolumeclaims';
const DEFAULT = 'storageclass.orch.io/is-default-class';
const claim = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } });

describe('storage class admission', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await namespace(s, 'sc');
  });
  afterAll(() => s.close());

  it('DefaultStorageClass: claims without a class get the default, if there is exactly one', async () => {
    expect((await created(s.post(PVCS, claim('none')))).spec.storageClassName).toBeUndefined();
    await created(s.post(SCS, { metadata: { name: 'standard', annotations: { [DEFAULT]: 'true' } }, provisioner: 'example.com/disk', allowVolumeExpansion: true }));
    expect((await created(s.post(PVCS, claim('defaulted')))).spec.storageClassName).toBe('standard');
    expect((await created(s.post(PVCS, claim('asked', { storageClassName: 'fast' })))).spec.storageClassName).toBe('fast');
    expect((await created(s.post(PVCS, claim('no-class', { storageClassName: '' })))).spec.storageClassName).toBe('');
    await created(s.post(SCS, { metadata: { name: 'other', annotations: { [DEFAULT]: 'true' } }, provisioner: 'example.com/disk' }));
    await forbidden(s.post(PVCS, claim('ambiguous')), 'persistentvolumeclaims "ambiguous" is forbidden: Internal error occurred: 2 default StorageClasses were found');
    expect((await s.del(`${SCS}/other`)).status).toBe(200);
  });

  it('PersistentVolumeClaimResize: only a bound claim of an expandable class grows', async () => {
    await created(s.post(SCS, { metadata: { name: 'fixed' }, provisioner: 'example.com/disk' }));
    await created(s.post(PVCS, claim('grow', { storageClassName: 'standard' })));
    await created(s.post(PVCS, claim('stuck', { storageClassName: 'fixed' })));
    const grow = (name: string) => s.patch(`${PVCS}/${name}`, { spec: { resources: { requests: { storage: '5Gi' } } } }, MERGE);
    for (const name of ['grow', 'stuck']) expect((await s.patch(`${PVCS}/${name}/status`, { status: { phase: 'Bound', capacity: { storage: '1Gi' } } }, MERGE)).status).toBe(200);
    const grown = await grow('grow');
    expect(grown.status, grown.text).toBe(200);
    expect(grown.body.spec.resources.requests.storage).toBe('5Gi');
    await forbidden(grow('stuck'), 'persistentvolumeclaims "stuck" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    // Still unbound: Kubernetes' own validation speaks first (spec is immutable then).
    await created(s.post(PVCS, claim('pending', { storageClassName: 'standard' })));
    expect((await grow('pending')).status).toBe(422);
  });
});
