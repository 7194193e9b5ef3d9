/**
 * A repeated apply that changes nothing writes nothing, even when its configuration leaves out
 * defaulted fields inside an atomic value and a second has passed since the first apply: the
 * timestamp-only change to managedFields is dropped (no new resourceVersion, the old time kept).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const APPLY = 'application/apply-patch+yaml';
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

/** Waits until the wall clock has moved to another second than `since` (managedFields times are seconds). */
async function nextSecond(since: string): Promise<void> {
  while (new Date().toISOString().slice(0, 19) + 'Z' === since) await new Promise((r) => setTimeout(r, 50));
}

it('re-applying a binding whose subject omits the defaulted apiGroup keeps resourceVersion and time', async () => {
  const url = '/apis/rbac.authorization.orch.io/v1/clusterrolebindings/noop-apply?fieldManager=ops';
  const config = {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'noop-apply' },
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'Group', name: 'readers' }],
  };
  const first = await s.patch(url, config, APPLY);
  expect(first.status, first.text).toBe(201);
  expect(first.body.subjects[0].apiGroup).toBe('rbac.authorization.orch.io');
  await nextSecond(first.body.metadata.managedFields[0].time);

  const again = await s.patch(url, config, APPLY);
  expect(again.status, again.text).toBe(200);
  expect(again.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
  expect(again.body.metadata.managedFields).toEqual(first.body.metadata.managedFields);

  // A real change still stamps the entry with the new time.
  const changed = await s.patch(url, { ...config, metadata: { name: 'noop-apply', labels: { team: 'a' } } }, APPLY);
  expect(changed.status, changed.text).toBe(200);
  expect(changed.body.metadata.resourceVersion).not.toBe(first.body.metadata.resourceVersion);
  expect(changed.body.metadata.managedFields[0].time).not.toBe(first.body.metadata.managedFields[0].time);
});
