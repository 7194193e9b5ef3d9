import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE } from './helpers.js';

const SAS = '/api/v1/namespaces/default/serviceaccounts';

describe('ServiceAccount', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is namespaced with short name sa', async () => {
    const r = await s.get('/api/v1');
    expect(r.body.resources.find((x: any) => x.name === 'serviceaccounts')).toMatchObject({ namespaced: true, kind: 'ServiceAccount', shortNames: ['sa'] });
  });

  it('keeps only the name of each secret reference, on create and on update', async () => {
    const r = await s.post(SAS, {
      metadata: { name: 'builder' },
      secrets: [{ name: 'token-a', namespace: 'elsewhere', uid: 'u', kind: 'Secret', apiVersion: 'v1', resourceVersion: '5', fieldPath: 'x' }],
      imagePullSecrets: [{ name: 'registry' }],
      automountServiceAccountToken: false,
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.secrets).toEqual([{ name: 'token-a' }]);
    expect(r.body.imagePullSecrets).toEqual([{ name: 'registry' }]);
    // A pointer field: false is kept, not dropped as empty.
    expect(r.body.automountServiceAccountToken).toBe(false);
    const u = await s.patch(`${SAS}/builder`, { secrets: [{ name: 'token-b', namespace: 'x' }] }, MERGE);
    expect(u.status, u.text).toBe(200);
    expect(u.body.secrets).toEqual([{ name: 'token-b' }]);
  });

  it('needs a DNS subdomain name', async () => {
    expectCauses(await s.post(SAS, { metadata: { name: 'Build_Bot' } }), [{ field: 'metadata.name', reason: 'FieldValueInvalid' }]);
  });

  it('answers a delete with the deleted account', async () => {
    expect((await s.post(SAS, { metadata: { name: 'gone' } })).status).toBe(201);
    const r = await s.del(`${SAS}/gone`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'ServiceAccount', metadata: { name: 'gone' } });
  });
});
