/** SecurityContextDeny over HTTP: off by default; on, it refuses the elevated fields. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { created, forbidden, namespace, pod } from './helpers.js';

const PODS = '/api/v1/namespaces/scd/pods';

describe('SecurityContextDeny', () => {
  let on: TestServer;
  let off: TestServer;
  beforeAll(async () => {
    [on, off] = await Promise.all([startTestServer({ admission: { enablePlugins: ['SecurityContextDeny'] } }), startTestServer()]);
    await Promise.all([namespace(on, 'scd'), namespace(off, 'scd')]);
  });
  afterAll(() => Promise.all([on.close(), off.close()]));

  it('is off by default', async () => {
    await created(off.post(PODS, pod('root', { securityContext: { runAsUser: 0 } })));
  });

  it.each([
    [{ securityContext: { supplementalGroups: [1] } }, 'pod.Spec.SecurityContext.SupplementalGroups is forbidden'],
    [{ securityContext: { seLinuxOptions: { level: 's0:c1' } } }, 'pod.Spec.SecurityContext.SELinuxOptions is forbidden'],
    [{ securityContext: { fsGroup: 1 } }, 'pod.Spec.SecurityContext.FSGroup is forbidden'],
    [{ containers: [{ name: 'app', image: 'nginx', securityContext: { runAsUser: 1000 } }] }, 'SecurityContext.RunAsUser is forbidden'],
    [{ initContainers: [{ name: 'init', image: 'busybox', securityContext: { seLinuxOptions: { role: 'r' } } }] }, 'SecurityContext.SELinuxOptions is forbidden'],
  ])('refuses %j', async (spec, message) => {
    await forbidden(on.post(PODS, pod('p', spec)), `pods "p" is forbidden: ${message}`);
  });

  it('lets other security settings through, and names a generated pod by its prefix', async () => {
    await created(on.post(PODS, pod('ok', { securityContext: { runAsNonRoot: true }, containers: [{ name: 'app', image: 'nginx', securityContext: { readOnlyRootFilesystem: true } }] })));
    const r = await on.post(PODS, { metadata: { generateName: 'gen-' }, spec: { securityContext: { runAsUser: 0 }, containers: [{ name: 'app', image: 'nginx' }] } });
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/^pods "gen-[a-z0-9]{5}" is forbidden: pod.Spec.SecurityContext.RunAsUser is forbidden$/);
  });
});
