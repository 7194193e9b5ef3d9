/** Service /status: load balancer ingress and conditions, kept apart from the spec in both directions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { created, invalidCauses, svc, SVC } from './service-helpers.js';

const MERGE = 'application/merge-patch+json';
const NOW = '2024-01-02T03:04:05Z';

describe('Service status', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is written only through /status, which does not change the spec', async () => {
    const out = await created(s, svc('st', { type: 'LoadBalancer' }, { status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } } }));
    expect(out.status).toEqual({ loadBalancer: {} });
    const main = await s.patch(`${SVC}/st`, { status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } } }, MERGE);
    expect(main.status).toBe(200);
    expect(main.body.status).toEqual({ loadBalancer: {} });
    const st = await s.patch(`${SVC}/st/status`, { spec: { type: 'ClusterIP' }, status: { loadBalancer: { ingress: [{ ip: '192.0.2.1', ports: [{ port: 80, protocol: 'TCP' }] }] } } }, MERGE);
    expect(st.status, st.text).toBe(200);
    expect(st.body.spec.type).toBe('LoadBalancer');
    expect(st.body.status.loadBalancer.ingress).toEqual([{ ip: '192.0.2.1', ports: [{ port: 80, protocol: 'TCP' }] }]);
    expect((await s.get(`${SVC}/st/status`)).body.status.loadBalancer.ingress[0].ip).toBe('192.0.2.1');
  });

  it('checks ingress addresses, host names and ports', async () => {
    await created(s, svc('st-bad', { type: 'LoadBalancer' }));
    const r = await s.patch(
      `${SVC}/st-bad/status`,
      { status: { loadBalancer: { ingress: [{ ip: '300.1.1.1' }, { hostname: '192.0.2.1' }, { hostname: 'LB_1' }, { ip: '192.0.2.2', ports: [{ port: 0, protocol: 'ICMP', error: 'Failed' }] }] } } },
      MERGE,
    );
    const causes = invalidCauses(r);
    expect(causes[0]).toBe('status.loadBalancer.ingress[0].ip: Invalid value: "300.1.1.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)');
    expect(causes[1]).toBe('status.loadBalancer.ingress[1].hostname: Invalid value: "192.0.2.1": must be a DNS name, not an IP address');
    expect(causes[2]).toMatch(/^status.loadBalancer.ingress\[2\].hostname: Invalid value: "LB_1": a lowercase RFC 1123 subdomain/);
    expect(causes.slice(3)).toEqual([
      'status.loadBalancer.ingress[3].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'status.loadBalancer.ingress[3].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    ]);
  });

  it('refuses ingress on a service that is not a LoadBalancer, and clears it when the type changes', async () => {
    await created(s, svc('st-cip'));
    expect(invalidCauses(await s.patch(`${SVC}/st-cip/status`, { status: { loadBalancer: { ingress: [{ ip: '192.0.2.3' }] } } }, MERGE))).toEqual([
      "status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'",
    ]);
    await created(s, svc('st-lb', { type: 'LoadBalancer' }));
    expect((await s.patch(`${SVC}/st-lb/status`, { status: { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }] } } }, MERGE)).status).toBe(200);
    const down = await s.patch(`${SVC}/st-lb`, { spec: { type: 'NodePort' } }, MERGE);
    expect(down.status, down.text).toBe(200);
    expect(down.body.status).toEqual({ loadBalancer: {} });
  });

  it('checks conditions as metav1 Conditions', async () => {
    await created(s, svc('st-cond'));
    const good = { type: 'example.com/Ready', status: 'True', lastTransitionTime: NOW, reason: 'AllGood', message: '', observedGeneration: 1 };
    const ok = await s.patch(`${SVC}/st-cond/status`, { status: { conditions: [good] } }, MERGE);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.status.conditions).toEqual([good]);
    const r = await s.put(`${SVC}/st-cond/status`, {
      ...ok.body,
      status: { loadBalancer: {}, conditions: [{ ...good, status: 'Yes', reason: '' }, { ...good, type: 'example.com/Ready', reason: 'no spaces allowed', observedGeneration: -1 }] },
    });
    const causes = invalidCauses(r);
    expect(causes[0]).toBe('status.conditions[0].status: Unsupported value: "Yes": supported values: "False", "True", "Unknown"');
    expect(causes[1]).toBe('status.conditions[0].reason: Required value: must be set');
    expect(causes[2]).toBe('status.conditions[1].type: Duplicate value: "example.com/Ready"');
    expect(causes[3]).toBe('status.conditions[1].observedGeneration: Invalid value: -1: must be greater than or equal to zero');
    expect(causes[4]).toMatch(/^status.conditions\[1\].reason: Invalid value: "no spaces allowed": a condition reason must start with alphabetic character/);
    const noTime = await s.put(`${SVC}/st-cond/status`, { ...ok.body, status: { conditions: [{ type: 'Ready', status: 'True', reason: 'R', message: 'm' }] } });
    expect(invalidCauses(noTime)).toEqual(['status.conditions[0].lastTransitionTime: Required value: must be set']);
  });
});
