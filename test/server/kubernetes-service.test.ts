/**
 * The `kubernetes` Service in `default` and its endpoints, as kube-apiserver keeps them: the Service
 * on the first IP of the service range, port 443 to this server's port; the Endpoints and the
 * EndpointSlice `kubernetes` holding this instance's address; an expired master lease's address
 * removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
/** A documentation address (TEST-NET-1): only written into the endpoints, never contacted. */
const ADVERTISED = '192.0.2.10';
beforeAll(async () => {
  s = await startTestServer({ tls: true, advertiseAddress: ADVERTISED });
});
afterAll(() => s.close());

async function eventually<T>(f: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never: ${what}`);
}

describe('the kubernetes Service', () => {
  it('is on the first service IP, port 443 to the secure port', async () => {
    const svc = await eventually(async () => ((r) => (r.status === 200 ? r.body : undefined))(await s.get('/api/v1/namespaces/default/services/kubernetes')), 'the Service exists');
    expect(svc.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    expect(svc.spec).toMatchObject({ type: 'ClusterIP', clusterIP: '10.0.0.1', ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: s.server.port }], sessionAffinity: 'None' });
  });

  it('has this instance in its Endpoints and EndpointSlice', async () => {
    const ep = await eventually(async () => ((r) => (r.status === 200 && r.body.subsets?.length ? r.body : undefined))(await s.get('/api/v1/namespaces/default/endpoints/kubernetes')), 'the Endpoints');
    expect(ep.subsets).toEqual([{ addresses: [{ ip: ADVERTISED }], ports: [{ name: 'https', port: s.server.port, protocol: 'TCP' }] }]);
    const slice = (await s.get('/apis/discovery.orch.io/v1/namespaces/default/endpointslices/kubernetes')).body;
    expect(slice.metadata.labels['orch.io/service-name']).toBe('kubernetes');
    expect(slice).toMatchObject({ addressType: 'IPv4', endpoints: [{ addresses: [ADVERTISED], conditions: { ready: true } }], ports: [{ name: 'https', port: s.server.port, protocol: 'TCP' }] });
    const leases = (await s.get('/apis/coordination.orch.io/v1/namespaces/orch-system/leases?labelSelector=apiserver.orch.io/master-lease%3Dtrue')).body.items;
    expect(leases.map((l: any) => l.spec.holderIdentity)).toEqual([`${ADVERTISED}:${s.server.port}`]);
  });
});
