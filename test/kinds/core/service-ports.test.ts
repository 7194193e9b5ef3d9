/**
 * Service node ports and load balancer fields: allocation from --service-node-port-range, requested
 * ports, health-check node ports, allocateLoadBalancerNodePorts, loadBalancerClass, and what a type
 * change takes away and gives back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { created, invalidCauses, svc, SVC } from './service-helpers.js';

const MERGE = 'application/merge-patch+json';
const inRange = (p: unknown): boolean => typeof p === 'number' && p >= 31000 && p <= 31999;

describe('Service node ports', () => {
  let s: TestServer;
  beforeAll(async () => {
    // Ports asked for by number below are all in 31000-31030, the band dynamic allocation leaves
    // alone while others remain, so they never collide with an earlier automatic one.
    s = await startTestServer({ serviceNodePortRange: '31000-31999' });
  });
  afterAll(() => s.close());

  it('allocates a node port per port of NodePort and LoadBalancer services, none for ClusterIP', async () => {
    const np = await created(s, svc('np', { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 443 }] }));
    expect(np.spec.ports.every((p: any) => inRange(p.nodePort))).toBe(true);
    expect(np.spec.ports[0].nodePort).not.toBe(np.spec.ports[1].nodePort);
    const lb = await created(s, svc('lb', { type: 'LoadBalancer' }));
    expect(inRange(lb.spec.ports[0].nodePort)).toBe(true);
    const cip = await created(s, svc('cip'));
    expect(cip.spec.ports[0].nodePort).toBeUndefined();
  });

  it('gives TCP and UDP of one port the same node port', async () => {
    const dns = await created(s, svc('dns', { type: 'NodePort', ports: [{ name: 'tcp', port: 53 }, { name: 'udp', port: 53, protocol: 'UDP' }] }));
    expect(dns.spec.ports[0].nodePort).toBe(dns.spec.ports[1].nodePort);
    const asked = await created(s, svc('dns-asked', { type: 'NodePort', ports: [{ name: 'tcp', port: 53 }, { name: 'udp', port: 53, protocol: 'UDP', nodePort: 31001 }] }));
    expect(asked.spec.ports.map((p: any) => p.nodePort)).toEqual([31001, 31001]);
  });

  it('takes a requested node port in range and unused, and refuses others', async () => {
    const out = await created(s, svc('asked', { type: 'NodePort', ports: [{ port: 80, nodePort: 31002 }] }));
    expect(out.spec.ports[0].nodePort).toBe(31002);
    expect(invalidCauses(await s.post(SVC, svc('asked-again', { type: 'NodePort', ports: [{ port: 80, nodePort: 31002 }] })))).toEqual([
      'spec.ports[0].nodePort: Invalid value: 31002: provided port is already allocated',
    ]);
    expect(invalidCauses(await s.post(SVC, svc('asked-out', { type: 'NodePort', ports: [{ port: 80, nodePort: 30000 }] })))).toEqual([
      'spec.ports[0].nodePort: Invalid value: 30000: provided port is not in the valid range. The range of valid ports is 31000-31999',
    ]);
  });

  it('refuses node ports on a ClusterIP or ExternalName service, and the same node port twice', async () => {
    expect(invalidCauses(await s.post(SVC, svc('np-cip', { ports: [{ port: 80, nodePort: 31003 }] })))).toEqual([
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
    expect(invalidCauses(await s.post(SVC, svc('np-ext', { type: 'ExternalName', externalName: 'a.example.com', ports: [{ port: 80, nodePort: 31004 }] })))).toEqual([
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ExternalName'",
    ]);
    expect(invalidCauses(await s.post(SVC, svc('np-dup', { type: 'NodePort', ports: [{ name: 'a', port: 80, nodePort: 31005 }, { name: 'b', port: 81, nodePort: 31005 }] })))).toEqual([
      // As in Kubernetes, allocation meets the second request before validation would.
      'spec.ports[1].nodePort: Invalid value: 31005: provided port is already allocated',
    ]);
    // The refused request kept nothing.
    const free = await created(s, svc('np-free', { type: 'NodePort', ports: [{ name: 'a', port: 80, nodePort: 31005 }] }));
    // On update the port is the service's own already, so validation speaks.
    const dup = await s.put(`${SVC}/np-free`, { ...free, spec: { ...free.spec, ports: [free.spec.ports[0], { name: 'b', port: 81, protocol: 'TCP', targetPort: 81, nodePort: 31005 }] } });
    expect(invalidCauses(dup)).toEqual(['spec.ports[1].nodePort: Duplicate value: 31005']);
    // A UDP port may share the number.
    const udp = await s.put(`${SVC}/np-free`, { ...free, spec: { ...free.spec, ports: [free.spec.ports[0], { name: 'b', port: 81, protocol: 'UDP', targetPort: 81, nodePort: 31005 }] } });
    expect(udp.status, udp.text).toBe(200);
  });

  it('keeps node ports a manifest leaves out, and releases them when the type no longer needs them', async () => {
    const out = await created(s, svc('keep', { type: 'NodePort', ports: [{ name: 'web', port: 80 }] }));
    const port = out.spec.ports[0].nodePort as number;
    const again = await s.put(`${SVC}/keep`, svc('keep', { type: 'NodePort', ports: [{ name: 'web', port: 80 }] }));
    expect(again.status, again.text).toBe(200);
    expect(again.body.spec.ports[0].nodePort).toBe(port);
    const toCip = await s.patch(`${SVC}/keep`, { spec: { type: 'ClusterIP', externalTrafficPolicy: null } }, MERGE);
    expect(toCip.status, toCip.text).toBe(200);
    expect(toCip.body.spec.ports[0].nodePort).toBeUndefined();
    expect(toCip.body.spec.externalTrafficPolicy).toBeUndefined();
    await created(s, svc('reuses-keep', { type: 'NodePort', ports: [{ port: 80, nodePort: port }] }));
  });

  it('releases a node port dropped from the ports, and allocates for a new one', async () => {
    const out = await created(s, svc('change', { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] }));
    const [a, b] = out.spec.ports.map((p: any) => p.nodePort);
    const r = await s.put(`${SVC}/change`, { ...out, spec: { ...out.spec, ports: [out.spec.ports[0], { name: 'c', port: 82, protocol: 'TCP', targetPort: 82 }] } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.ports[0].nodePort).toBe(a);
    expect(inRange(r.body.spec.ports[1].nodePort)).toBe(true);
    await created(s, svc('reuses-change', { type: 'NodePort', ports: [{ port: 80, nodePort: b }] }));
  });

  describe('health-check node port', () => {
    it('is allocated for LoadBalancer with externalTrafficPolicy Local, or taken as requested', async () => {
      const out = await created(s, svc('hc', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }));
      expect(inRange(out.spec.healthCheckNodePort)).toBe(true);
      expect(out.spec.healthCheckNodePort).not.toBe(out.spec.ports[0].nodePort);
      const asked = await created(s, svc('hc-asked', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 31006 }));
      expect(asked.spec.healthCheckNodePort).toBe(31006);
      expect(invalidCauses(await s.post(SVC, svc('hc-taken', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 31006 })))).toEqual([
        'spec.healthCheckNodePort: Invalid value: 31006: failed to allocate requested HealthCheck NodePort 31006: provided port is already allocated',
      ]);
    });

    it('is refused when not needed', async () => {
      expect(invalidCauses(await s.post(SVC, svc('hc-cip', { healthCheckNodePort: 31007 })))).toEqual([
        "spec.healthCheckNodePort: Invalid value: 31007: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
      ]);
      expect(invalidCauses(await s.post(SVC, svc('hc-cluster', { type: 'LoadBalancer', healthCheckNodePort: 31008 })))).toEqual([
        "spec.healthCheckNodePort: Invalid value: 31008: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
      ]);
      // Nothing was kept by the refused requests.
      await created(s, svc('hc-free', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 31007 }));
    });

    it('cannot change, and is released when the policy changes to Cluster', async () => {
      const out = await created(s, svc('hc-life', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }));
      const hc = out.spec.healthCheckNodePort as number;
      const moved = await s.patch(`${SVC}/hc-life`, { spec: { healthCheckNodePort: hc === 31999 ? 31998 : hc + 1 } }, MERGE);
      expect(invalidCauses(moved)).toEqual(['spec.healthCheckNodePort: Forbidden: field is immutable']);
      const cluster = await s.patch(`${SVC}/hc-life`, { spec: { externalTrafficPolicy: 'Cluster' } }, MERGE);
      expect(cluster.status, cluster.text).toBe(200);
      expect(cluster.body.spec.healthCheckNodePort).toBeUndefined();
      await created(s, svc('reuses-hc', { type: 'NodePort', ports: [{ port: 80, nodePort: hc }] }));
    });
  });

  describe('allocateLoadBalancerNodePorts', () => {
    it('false leaves ports without node ports, but honours requested ones', async () => {
      const out = await created(s, svc('no-alloc', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81, nodePort: 31009 }] }));
      expect(out.spec.allocateLoadBalancerNodePorts).toBe(false);
      expect(out.spec.ports[0].nodePort).toBeUndefined();
      expect(out.spec.ports[1].nodePort).toBe(31009);
    });

    it('is only for LoadBalancer, and goes away when the type does', async () => {
      expect(invalidCauses(await s.post(SVC, svc('alloc-np', { type: 'NodePort', allocateLoadBalancerNodePorts: true })))).toEqual([
        "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
      ]);
      await created(s, svc('lb-down', { type: 'LoadBalancer', loadBalancerClass: 'example.com/lb' }));
      const r = await s.patch(`${SVC}/lb-down`, { spec: { type: 'NodePort' } }, MERGE);
      expect(r.status, r.text).toBe(200);
      expect(r.body.spec.allocateLoadBalancerNodePorts).toBeUndefined();
      expect(r.body.spec.loadBalancerClass).toBeUndefined();
      expect(inRange(r.body.spec.ports[0].nodePort)).toBe(true);
    });
  });

  describe('loadBalancerClass', () => {
    it('is only for LoadBalancer, label-style, and cannot change once set', async () => {
      expect(invalidCauses(await s.post(SVC, svc('cls-cip', { loadBalancerClass: 'example.com/lb' })))).toEqual([
        "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'",
      ]);
      expect(invalidCauses(await s.post(SVC, svc('cls-bad', { type: 'LoadBalancer', loadBalancerClass: 'example.com/' })))).toEqual([
        'spec.loadBalancerClass: Invalid value: "example.com/": name part must be non-empty',
      ]);
      await created(s, svc('cls', { type: 'LoadBalancer', loadBalancerClass: 'example.com/lb' }));
      expect(invalidCauses(await s.patch(`${SVC}/cls`, { spec: { loadBalancerClass: 'example.com/other' } }, MERGE))).toEqual([
        'spec.loadBalancerClass: Invalid value: "example.com/other": may not change once set',
      ]);
      expect(invalidCauses(await s.patch(`${SVC}/cls`, { spec: { loadBalancerClass: null } }, MERGE))).toEqual([
        'spec.loadBalancerClass: Invalid value: null: may not change once set',
      ]);
    });
  });
});
