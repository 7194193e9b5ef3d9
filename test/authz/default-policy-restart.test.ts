/**
 * The default policy is reconciled at every start: a default role that lost a rule gets it back,
 * what an operator added stays, and a role annotated autoupdate "false" is left as the operator
 * made it. A deleted default binding comes back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server.js';
import { RBAC, RBAC_V1 } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-authz-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('default policy across restarts', () => {
  it('restores what the defaults hold, keeps additions, and respects autoupdate "false"', async () => {
    const AU = `${RBAC}/autoupdate`;
    const extra = { verbs: ['get'], nonResourceURLs: ['/custom'] };
    let s = await startTestServer({ dataDir: dir });
    const discovery = (await s.get(`${RBAC_V1}/clusterroles/system:discovery`)).body;
    const defaultRules = discovery.rules;
    expect((await s.put(`${RBAC_V1}/clusterroles/system:discovery`, { ...discovery, rules: [extra] })).status).toBe(200);
    const basic = (await s.get(`${RBAC_V1}/clusterroles/system:basic-user`)).body;
    expect((await s.put(`${RBAC_V1}/clusterroles/system:basic-user`, { ...basic, metadata: { ...basic.metadata, annotations: { [AU]: 'false' } }, rules: [extra] })).status).toBe(200);
    expect((await s.del(`${RBAC_V1}/clusterrolebindings/system:public-info-viewer`)).status).toBe(200);
    await s.close();

    s = await startTestServer({ dataDir: dir });
    try {
      const restored = (await s.get(`${RBAC_V1}/clusterroles/system:discovery`)).body;
      // As Kubernetes, the missing permissions come back one piece per verb and URL.
      expect(restored.rules[0]).toEqual(extra);
      const urls = (defaultRules[0].nonResourceURLs as string[]).map((u) => ({ verbs: ['get'], nonResourceURLs: [u] }));
      expect(restored.rules.slice(1)).toEqual(urls);
      const kept = (await s.get(`${RBAC_V1}/clusterroles/system:basic-user`)).body;
      expect(kept.rules).toEqual([extra]);
      expect(kept.metadata.annotations[AU]).toBe('false');
      expect((await s.get(`${RBAC_V1}/clusterrolebindings/system:public-info-viewer`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
