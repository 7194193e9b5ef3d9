/**
 * The Secret types document 3 relies on. The API checks a service account token Secret's
 * annotation; a bootstrap token Secret is stored whatever it holds (Kubernetes' Secret validation
 * has no rule for the type) and its format is enforced where it is read (bootstrap-token.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBootstrapTokenSecret } from '../../../src/apis/core/v1/bootstrap-token.js';
import { createApiNames } from '../../../src/machinery/api-names.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses } from './helpers.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const SYSTEM_SECRETS = '/api/v1/namespaces/orch-system/secrets';

describe('Secret types', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('a service account token Secret needs the account annotation; its data is filled later', async () => {
    const secrets = '/api/v1/namespaces/default/secrets';
    expectCauses(await s.post(secrets, { metadata: { name: 'sa-token' }, type: 'orch.io/service-account-token' }), [
      { field: 'metadata.annotations[orch.io/service-account.name]', reason: 'FieldValueRequired' },
    ]);
    const r = await s.post(secrets, { metadata: { name: 'sa-token', annotations: { 'orch.io/service-account.name': 'builder' } }, type: 'orch.io/service-account-token' });
    expect(r.status, r.text).toBe(201);
  });

  it('a bootstrap token Secret is stored as sent, and read back as a token only when well formed', async () => {
    const good = {
      metadata: { name: 'bootstrap-token-abcdef' },
      type: 'bootstrap.orch.io/token',
      stringData: {
        'token-id': 'abcdef',
        'token-secret': '0123456789abcdef',
        expiration: '2999-01-01T00:00:00Z',
        'usage-bootstrap-authentication': 'true',
        'usage-bootstrap-signing': 'true',
        'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:ingress',
      },
    };
    const created = await s.post(SYSTEM_SECRETS, good);
    expect(created.status, created.text).toBe(201);
    const read = readBootstrapTokenSecret(created.body, createApiNames(), new Date('2030-01-01T00:00:00Z'));
    expect(read).toMatchObject({ ok: true, token: { tokenId: 'abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:ingress', 'system:bootstrappers:worker'] } });

    // Kubernetes' API does not validate this type: a malformed one is stored, and never authenticates.
    const bad = await s.post(SYSTEM_SECRETS, { metadata: { name: 'bootstrap-token-toolong1' }, type: 'bootstrap.orch.io/token', data: { 'token-id': b64('short') } });
    expect(bad.status, bad.text).toBe(201);
    expect(readBootstrapTokenSecret(bad.body, createApiNames(), new Date())).toMatchObject({ ok: false });
  });
});
