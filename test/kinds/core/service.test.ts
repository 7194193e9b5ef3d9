/**
 * Service: identity, defaults, the rules on ports, session affinity, traffic policies, selector,
 * external IPs and names, warnings, and the verbs Kubernetes answers differently for Services.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { created, invalidCauses, svc, SVC, warningsOf } from './service-helpers.js';

const LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe('Service', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  describe('identity', () => {
    it('is served as services, short name svc, in category all, with /status', async () => {
      const r = await s.get('/api/v1');
      const res = r.body.resources.find((x: any) => x.name === 'services');
      expect(res).toMatchObject({ kind: 'Service', namespaced: true, shortNames: ['svc'], categories: ['all'] });
      expect(res.verbs).toEqual(expect.arrayContaining(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']));
      expect(r.body.resources.find((x: any) => x.name === 'services/status')).toMatchObject({ kind: 'Service', verbs: ['get', 'patch', 'update'] });
    });

    it('names are DNS-1035 labels', async () => {
      const causes = invalidCauses(await s.post(SVC, svc('1abc')));
      expect(causes[0]).toMatch(/^metadata.name: Invalid value: "1abc": a DNS-1035 label must consist of/);
    });

    it('answers a delete with the Service, and a PUT to a missing name creates it', async () => {
      const put = await s.put(`${SVC}/put-made`, svc('put-made'));
      expect(put.status, put.text).toBe(201);
      expect(put.body.spec.clusterIP).toMatch(/^10\.0\.0\./);
      const del = await s.del(`${SVC}/put-made`);
      expect(del.status).toBe(200);
      expect(del.body).toMatchObject({ kind: 'Service', apiVersion: 'v1', metadata: { name: 'put-made' } });
      expect(del.body.spec.clusterIP).toBe(put.body.spec.clusterIP);
    });

    it('merges ports by port number in a strategic merge patch, keeping what was allocated', async () => {
      const out = await created(s, svc('smp', { type: 'NodePort', ports: [{ name: 'web', port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }] }));
      const r = await s.patch(`${SVC}/smp`, { spec: { ports: [{ port: 80, targetPort: 8080 }, { name: 'extra', port: 81 }] } }, 'application/strategic-merge-patch+json');
      expect(r.status, r.text).toBe(200);
      const byName = Object.fromEntries(r.body.spec.ports.map((p: any) => [p.name, p]));
      expect(Object.keys(byName).sort()).toEqual(['dns', 'extra', 'web']);
      expect(byName.web).toMatchObject({ port: 80, targetPort: 8080, nodePort: out.spec.ports[0].nodePort });
      expect(byName.dns.nodePort).toBe(out.spec.ports[1].nodePort);
      expect(byName.extra.nodePort).toBeGreaterThanOrEqual(30000);
      expect(r.body.spec.clusterIP).toBe(out.spec.clusterIP);
    });

    it('selects by spec.type and spec.clusterIP', async () => {
      const a = await created(s, svc('sel-a'));
      await created(s, svc('sel-b', { type: 'NodePort' }));
      const byType = await s.get(`${SVC}?fieldSelector=spec.type%3DNodePort`);
      const names = byType.body.items.map((i: any) => i.metadata.name);
      expect(names).toContain('sel-b');
      expect(names).not.toContain('sel-a');
      expect(byType.body.items.every((i: any) => i.spec.type === 'NodePort')).toBe(true);
      const byIP = await s.get(`${SVC}?fieldSelector=spec.clusterIP%3D${a.spec.clusterIP}`);
      expect(byIP.body.items.map((i: any) => i.metadata.name)).toEqual(['sel-a']);
      const bad = await s.get(`${SVC}?fieldSelector=spec.ports%3D80`);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('field label not supported: spec.ports');
    });
  });

  describe('defaults', () => {
    it('fills type, affinity, protocol, target port, traffic policy and IP families', async () => {
      const out = await created(s, { metadata: { name: 'defaults' }, spec: { selector: { app: 'x' }, ports: [{ port: 80 }, { name: 'b', port: 81, targetPort: 0 }].map((p, i) => (i ? p : { ...p, name: 'a' })) } });
      expect(out.spec).toMatchObject({
        type: 'ClusterIP',
        sessionAffinity: 'None',
        internalTrafficPolicy: 'Cluster',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
      });
      expect(out.spec.ports).toEqual([
        { name: 'a', protocol: 'TCP', port: 80, targetPort: 80 },
        { name: 'b', protocol: 'TCP', port: 81, targetPort: 81 },
      ]);
      expect(out.spec.externalTrafficPolicy).toBeUndefined();
      expect(out.spec.allocateLoadBalancerNodePorts).toBeUndefined();
      expect(out.spec.clusterIPs).toEqual([out.spec.clusterIP]);
      expect(out.status).toEqual({ loadBalancer: {} });
    });

    it('gives externally reachable services externalTrafficPolicy Cluster, and LoadBalancers node port allocation', async () => {
      const np = await created(s, svc('def-np', { type: 'NodePort' }));
      expect(np.spec.externalTrafficPolicy).toBe('Cluster');
      const lb = await created(s, svc('def-lb', { type: 'LoadBalancer' }));
      expect(lb.spec).toMatchObject({ externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true });
      const ext = await created(s, svc('def-ext', { externalIPs: ['192.0.2.10'] }));
      expect(ext.spec.externalTrafficPolicy).toBe('Cluster');
    });

    it('gives ClientIP affinity a 10800 s timeout, and drops the config of None', async () => {
      const ip = await created(s, svc('aff-ip', { sessionAffinity: 'ClientIP' }));
      expect(ip.spec.sessionAffinityConfig).toEqual({ clientIP: { timeoutSeconds: 10800 } });
      const none = await created(s, svc('aff-none', { sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } }));
      expect(none.spec.sessionAffinityConfig).toBeUndefined();
    });
  });

  describe('ports', () => {
    it('requires at least one port, except headless and ExternalName services', async () => {
      expect(invalidCauses(await s.post(SVC, svc('no-ports', { ports: [] })))).toEqual(['spec.ports: Required value']);
      await created(s, svc('no-ports-headless', { ports: [], clusterIP: 'None' }));
      await created(s, svc('no-ports-ext', { ports: [], type: 'ExternalName', externalName: 'db.example.com' }));
    });

    it('requires names when there are several, DNS labels, unique', async () => {
      const causes = invalidCauses(await s.post(SVC, svc('pnames', { ports: [{ port: 80 }, { name: 'Web', port: 81 }, { name: 'x', port: 82 }, { name: 'x', port: 83 }] })));
      expect(causes).toEqual(['spec.ports[0].name: Required value', `spec.ports[1].name: Invalid value: "Web": ${LABEL_MSG}`, 'spec.ports[3].name: Duplicate value: "x"']);
      await created(s, svc('pname-single', { ports: [{ port: 80 }] }));
    });

    it('checks port and target port numbers, target port names and protocols', async () => {
      const causes = invalidCauses(
        await s.post(SVC, svc('pnums', {
          ports: [
            { name: 'a', port: 0 },
            { name: 'b', port: 70000 },
            { name: 'c', port: 82, targetPort: 70000 },
            { name: 'd', port: 83, targetPort: 'Http_Port' },
            { name: 'e', port: 84, protocol: 'ICMP' },
          ],
        })),
      );
      // A target port of 0 means "the port", so port 0 makes both wrong.
      expect(causes).toEqual([
        'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.ports[2].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.ports[3].targetPort: Invalid value: "Http_Port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.ports[4].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      ]);
      const ok = await created(s, svc('pnums-ok', { ports: [{ name: 'a', port: 80, targetPort: 'http' }, { name: 'b', port: 53, protocol: 'UDP' }, { name: 'c', port: 9, protocol: 'SCTP' }] }));
      expect(ok.spec.ports[0].targetPort).toBe('http');
    });

    it('checks IANA service names in detail', async () => {
      const causes = invalidCauses(await s.post(SVC, svc('iana', { ports: [{ name: 'a', port: 1, targetPort: 'a--b' }, { name: 'b', port: 2, targetPort: '-ab' }, { name: 'c', port: 3, targetPort: '123' }, { name: 'd', port: 4, targetPort: 'abcdefghijklmnop' }] })));
      expect(causes).toEqual([
        'spec.ports[0].targetPort: Invalid value: "a--b": must not contain consecutive hyphens',
        'spec.ports[1].targetPort: Invalid value: "-ab": must not begin or end with a hyphen',
        'spec.ports[2].targetPort: Invalid value: "123": must contain at least one letter (a-z)',
        'spec.ports[3].targetPort: Invalid value: "abcdefghijklmnop": must be no more than 15 characters',
      ]);
    });

    it('refuses the same port and protocol twice, and checks appProtocol', async () => {
      const causes = invalidCauses(await s.post(SVC, svc('pdup', { ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80 }, { name: 'c', port: 80, protocol: 'UDP', appProtocol: 'not valid' }] })));
      expect(causes[0]).toMatch(/^spec.ports\[2\].appProtocol: Invalid value: "not valid": name part must consist of alphanumeric characters/);
      expect(causes[1]).toBe('spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}');
      await created(s, svc('papp', { ports: [{ port: 443, appProtocol: 'kubernetes.io/h2c' }] }));
    });
  });

  describe('fields', () => {
    it('checks session affinity and its timeout', async () => {
      expect(invalidCauses(await s.post(SVC, svc('aff-bad', { sessionAffinity: 'Cookie' })))).toEqual(['spec.sessionAffinity: Unsupported value: "Cookie": supported values: "ClientIP", "None"']);
      expect(invalidCauses(await s.post(SVC, svc('aff-long', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } } })))).toEqual([
        'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400',
      ]);
      await created(s, svc('aff-max', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86400 } } }));
    });

    it('checks the type', async () => {
      expect(invalidCauses(await s.post(SVC, svc('type-bad', { type: 'Mesh' })))).toEqual([
        'spec.type: Unsupported value: "Mesh": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ]);
    });

    it('checks traffic policies', async () => {
      expect(invalidCauses(await s.post(SVC, svc('etp-cip', { externalTrafficPolicy: 'Local' })))).toEqual([
        'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
      ]);
      expect(invalidCauses(await s.post(SVC, svc('etp-bad', { type: 'NodePort', externalTrafficPolicy: 'Global' })))).toEqual([
        'spec.externalTrafficPolicy: Unsupported value: "Global": supported values: "Cluster", "Local"',
      ]);
      expect(invalidCauses(await s.post(SVC, svc('itp-bad', { internalTrafficPolicy: 'Node' })))).toEqual([
        'spec.internalTrafficPolicy: Unsupported value: "Node": supported values: "Cluster", "Local"',
      ]);
      const ok = await created(s, svc('tp-ok', { type: 'NodePort', externalTrafficPolicy: 'Local', internalTrafficPolicy: 'Local' }));
      expect(ok.spec).toMatchObject({ externalTrafficPolicy: 'Local', internalTrafficPolicy: 'Local' });
    });

    it('checks the selector as labels', async () => {
      const causes = invalidCauses(await s.post(SVC, svc('sel-bad', { selector: { app: 'has space' } })));
      expect(causes[0]).toMatch(/^spec.selector: Invalid value: "has space": a valid label must be an empty string or consist of/);
    });

    it('checks external IPs: valid, and not loopback, link-local or unspecified', async () => {
      const causes = invalidCauses(await s.post(SVC, svc('xip', { externalIPs: ['1.2.3', '127.0.0.1', '169.254.1.1', '0.0.0.0'] })));
      expect(causes).toEqual([
        'spec.externalIPs[0]: Invalid value: "1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        'spec.externalIPs[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
        'spec.externalIPs[2]: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
        'spec.externalIPs[3]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
      ]);
    });

    it('checks load balancer source ranges, LoadBalancer only', async () => {
      expect(invalidCauses(await s.post(SVC, svc('lbsr', { loadBalancerSourceRanges: ['10.0.0.0/8'] })))).toEqual([
        "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      ]);
      expect(invalidCauses(await s.post(SVC, svc('lbsr-bad', { type: 'LoadBalancer', loadBalancerSourceRanges: ['10.0.0.0'] })))).toEqual([
        'spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ]);
      const ok = await s.post(SVC, svc('lbsr-ok', { type: 'LoadBalancer', loadBalancerSourceRanges: [' 10.0.0.0/8', '192.168.1.7/24'] }));
      expect(ok.status).toBe(201);
      expect(warningsOf(ok)).toContain('spec.loadBalancerSourceRanges[1]: CIDR value "192.168.1.7/24" is ambiguous in this context (should be "192.168.1.0/24" or "192.168.1.7/32"?)');
    });

    it('warns that loadBalancerIP is deprecated', async () => {
      const r = await s.post(SVC, svc('lbip', { type: 'LoadBalancer', loadBalancerIP: '192.0.2.7' }));
      expect(r.status).toBe(201);
      expect(r.body.spec.loadBalancerIP).toBe('192.0.2.7');
      expect(warningsOf(r).some((w) => w.startsWith('spec.loadBalancerIP: deprecated since v1.24'))).toBe(true);
      expect(warningsOf(await s.post(SVC, svc('no-lbip', { type: 'LoadBalancer' })))).toEqual([]);
    });

    it('warns about fields ignored by the type', async () => {
      const r = await s.post(SVC, svc('ignored', { externalName: 'db.example.com' }));
      expect(warningsOf(r)).toEqual(['spec.externalName is ignored when spec.type is not "ExternalName"']);
      const h = await s.post(SVC, svc('ignored-headless', { clusterIP: 'None', sessionAffinity: 'ClientIP' }));
      expect(warningsOf(h)).toEqual(['spec.SessionAffinity is ignored for headless services']);
    });
  });

  describe('ExternalName', () => {
    it('needs externalName, a lowercase RFC 1123 name (a trailing dot allowed)', async () => {
      expect(invalidCauses(await s.post(SVC, svc('ext-none', { type: 'ExternalName' })))).toEqual(['spec.externalName: Required value']);
      const causes = invalidCauses(await s.post(SVC, svc('ext-bad', { type: 'ExternalName', externalName: 'DB_host.example.com' })));
      expect(causes[0]).toMatch(/^spec.externalName: Invalid value: "DB_host.example.com": a lowercase RFC 1123 subdomain must consist of/);
      const ok = await created(s, svc('ext-ok', { type: 'ExternalName', externalName: 'db.example.com.' }));
      expect(ok.spec).toMatchObject({ type: 'ExternalName', externalName: 'db.example.com.' });
      expect(ok.spec.clusterIP).toBeUndefined();
      expect(ok.spec.clusterIPs).toBeUndefined();
      expect(ok.spec.ipFamilies).toBeUndefined();
      expect(ok.spec.ipFamilyPolicy).toBeUndefined();
      expect(ok.spec.internalTrafficPolicy).toBeUndefined();
    });

    it('refuses cluster IPs and IP family fields on create', async () => {
      expect(invalidCauses(await s.post(SVC, svc('ext-ip', { type: 'ExternalName', externalName: 'a.example.com', clusterIP: '10.0.0.9' })))).toEqual([
        'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
      ]);
      expect(invalidCauses(await s.post(SVC, svc('ext-ips', { type: 'ExternalName', externalName: 'a.example.com', clusterIPs: ['10.0.0.9'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' })))).toEqual([
        'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
        'spec.ipFamilies: Forbidden: may not be set for ExternalName services',
        'spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services',
      ]);
    });
  });
});
