/**
 * EndpointSlice (discovery.orch.io/v1): fields, defaults, the address type and its addresses,
 * limits on endpoints, addresses and ports, port names, hints, and deprecatedTopology.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const GROUP = 'discovery.orch.io';
const EPS = `/apis/${GROUP}/v1/namespaces/default/endpointslices`;
const MERGE = 'application/merge-patch+json';
const LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

function slice(name: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: `${GROUP}/v1`, kind: 'EndpointSlice', metadata: { name }, addressType: 'IPv4', endpoints: [{ addresses: ['10.1.0.1'] }], ...fields };
}

function causes(r: { status: number; text: string; body: any }): string[] {
  expect(r.status, r.text).toBe(422);
  expect(r.body).toMatchObject({ reason: 'Invalid', details: { group: GROUP, kind: 'EndpointSlice' } });
  return r.body.details.causes.map((c: any) => `${c.field}: ${c.message}`);
}

describe('EndpointSlice', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served under discovery.orch.io/v1 as endpointslices', async () => {
    const r = await s.get(`/apis/${GROUP}/v1`);
    expect(r.status).toBe(200);
    expect(r.body.resources.find((x: any) => x.name === 'endpointslices')).toMatchObject({ kind: 'EndpointSlice', namespaced: true });
    expect((await s.get(`/apis/${GROUP}/v1/endpointslices`)).body.kind).toBe('EndpointSliceList');
  });

  it('stores top-level fields, defaults port names and protocols, and tracks generation', async () => {
    const r = await s.post(EPS, slice('full', {
      endpoints: [{
        addresses: ['10.1.0.2'],
        conditions: { ready: true, serving: true, terminating: false },
        hostname: 'pod-a',
        nodeName: 'node-1.example.com',
        zone: 'zone-a',
        hints: { forZones: [{ name: 'zone-a' }] },
        targetRef: { kind: 'Pod', namespace: 'default', name: 'pod-a', uid: 'u-1' },
      }],
      ports: [{ port: 80 }, { name: 'https', port: 443, protocol: 'TCP', appProtocol: 'https' }],
    }));
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.1.0.2'], conditions: { ready: true, serving: true, terminating: false }, hostname: 'pod-a', nodeName: 'node-1.example.com', zone: 'zone-a', hints: { forZones: [{ name: 'zone-a' }] }, targetRef: { kind: 'Pod', name: 'pod-a' } }],
      ports: [{ name: '', protocol: 'TCP', port: 80 }, { name: 'https', protocol: 'TCP', port: 443, appProtocol: 'https' }],
    });
    expect(r.body.metadata.generation).toBe(1);
    expect(r.body.spec).toBeUndefined();
    const bare = await s.post(EPS, { metadata: { name: 'bare' }, addressType: 'FQDN', endpoints: [] });
    expect(bare.status, bare.text).toBe(201);
    // Go prints the list fields without omitempty even when empty.
    expect(bare.body.ports).toBeNull();
    expect(bare.body.endpoints).toEqual([]);
    const relabeled = await s.patch(`${EPS}/full`, { metadata: { labels: { 'kubernetes.io/service-name': 'web' } } }, MERGE);
    expect(relabeled.body.metadata.generation).toBe(2);
    const moved = await s.patch(`${EPS}/full`, { endpoints: [{ addresses: ['10.1.0.3'] }] }, MERGE);
    expect(moved.body.metadata.generation).toBe(3);
    const annotated = await s.patch(`${EPS}/full`, { metadata: { annotations: { a: 'b' } } }, MERGE);
    expect(annotated.body.metadata.generation).toBe(3);
  });

  it('requires a known address type, and never lets it change', async () => {
    expect(causes(await s.post(EPS, slice('no-type', { addressType: '' })))).toEqual(['addressType: Required value']);
    expect(causes(await s.post(EPS, slice('ip-type', { addressType: 'IP' })))).toEqual(['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"']);
    expect((await s.post(EPS, slice('typed'))).status).toBe(201);
    expect(causes(await s.patch(`${EPS}/typed`, { addressType: 'IPv6', endpoints: [{ addresses: ['fd00::1'] }] }, MERGE))).toEqual(['addressType: Invalid value: "IPv6": field is immutable']);
  });

  it('checks addresses against the address type', async () => {
    expect(causes(await s.post(EPS, slice('v4', { endpoints: [{ addresses: ['fd00::1', '10.1.0.256', '127.0.0.1'] }] })))).toEqual([
      'endpoints[0].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address',
      'endpoints[0].addresses[1]: Invalid value: "10.1.0.256": must be a valid IPv4 address',
      'endpoints[0].addresses[1]: Invalid value: "10.1.0.256": must be a valid IP address',
      'endpoints[0].addresses[2]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    ]);
    expect(causes(await s.post(EPS, slice('v6', { addressType: 'IPv6', endpoints: [{ addresses: ['10.1.0.1', 'fe80::1'] }] })))).toEqual([
      'endpoints[0].addresses[0]: Invalid value: "10.1.0.1": must be a valid IPv6 address',
      'endpoints[0].addresses[1]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
    ]);
    expect((await s.post(EPS, slice('v6-ok', { addressType: 'IPv6', endpoints: [{ addresses: ['fd00::1'] }] }))).status).toBe(201);
    const fqdn = causes(await s.post(EPS, slice('fqdn', { addressType: 'FQDN', endpoints: [{ addresses: ['localhost', 'Bad_Host.example.com', 'db.example.com.'] }] })));
    expect(fqdn[0]).toBe('endpoints[0].addresses[0]: Invalid value: "localhost": should be a domain with at least two segments separated by dots');
    expect(fqdn[1]).toMatch(/^endpoints\[0\].addresses\[1\]: Invalid value: "Bad_Host.example.com": a lowercase RFC 1123 subdomain/);
    expect(fqdn).toHaveLength(2);
  });

  it('limits endpoints to 1000 and addresses to 1 to 100', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ addresses: [`10.2.${Math.floor(i / 250)}.${(i % 250) + 1}`] }));
    expect(causes(await s.post(EPS, slice('eps-1001', { endpoints: many })))).toEqual(['endpoints: Too many: 1001: must have at most 1000 items']);
    expect((await s.post(EPS, slice('eps-1000', { endpoints: many.slice(0, 1000) }))).status).toBe(201);
    const addrs = Array.from({ length: 101 }, (_, i) => `10.3.0.${i + 1}`);
    expect(causes(await s.post(EPS, slice('addr-101', { endpoints: [{ addresses: addrs }] })))).toEqual(['endpoints[0].addresses: Too many: 101: must have at most 100 items']);
    expect((await s.post(EPS, slice('addr-100', { endpoints: [{ addresses: addrs.slice(0, 100) }] }))).status).toBe(201);
    expect(causes(await s.post(EPS, slice('addr-0', { endpoints: [{ addresses: [] }] })))).toEqual(['endpoints[0].addresses: Required value: must contain at least 1 address']);
  });

  it('limits ports to 100, with unique names that are empty or DNS labels', async () => {
    const ports = Array.from({ length: 101 }, (_, i) => ({ name: `p${i}`, port: 1000 + i }));
    expect(causes(await s.post(EPS, slice('ports-101', { ports })))).toEqual(['ports: Too many: 101: must have at most 100 items']);
    expect((await s.post(EPS, slice('ports-100', { ports: ports.slice(0, 100) }))).status).toBe(201);
    const long = 'a'.repeat(64);
    expect(causes(await s.post(EPS, slice('pnames', { ports: [{ port: 1 }, { port: 2 }, { name: 'Web', port: 3 }, { name: long, port: 4 }, { name: 'x', port: 5, protocol: 'ICMP' }] })))).toEqual([
      'ports[1].name: Duplicate value: ""',
      `ports[2].name: Invalid value: "Web": ${LABEL_MSG}`,
      `ports[3].name: Invalid value: "${long}": must be no more than 63 characters`,
      'ports[4].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    ]);
    expect(causes(await s.post(EPS, slice('pname-dup', { ports: [{ name: 'x', port: 1 }, { name: 'x', port: 2 }] })))).toEqual(['ports[1].name: Duplicate value: "x"']);
    const app = causes(await s.post(EPS, slice('papp', { ports: [{ name: 'x', port: 1, appProtocol: 'a b' }] })));
    expect(app[0]).toMatch(/^ports\[0\].appProtocol: Invalid value: "a b": name part must consist of/);
    // A port without a number is allowed: it means all ports.
    expect((await s.post(EPS, slice('all-ports', { ports: [{ name: 'any' }] }))).status).toBe(201);
  });

  it('checks host names, node names and zone hints', async () => {
    const r = causes(await s.post(EPS, slice('ep-fields', {
      endpoints: [{ addresses: ['10.1.0.9'], hostname: 'Pod.A', nodeName: 'Node_1', hints: { forZones: [{ name: 'a' }, { name: 'a' }, { name: 'bad zone' }] } }],
    })));
    expect(r[0]).toBe('endpoints[0].nodeName: Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')');
    expect(r[1]).toBe(`endpoints[0].hostname: Invalid value: "Pod.A": ${LABEL_MSG}`);
    expect(r[2]).toBe('endpoints[0].hints.forZones[1].name: Duplicate value: "a"');
    expect(r[3]).toMatch(/^endpoints\[0\].hints.forZones\[2\].name: Invalid value: "bad zone": a valid label must be an empty string/);
    const zones = Array.from({ length: 9 }, (_, i) => ({ name: `z${i}` }));
    expect(causes(await s.post(EPS, slice('hints-9', { endpoints: [{ addresses: ['10.1.0.9'], hints: { forZones: zones } }] })))).toEqual([
      'endpoints[0].hints.forZones: Too many: 9: must have at most 8 items',
    ]);
  });

  it('ignores writes of deprecatedTopology, on create and on update', async () => {
    const r = await s.post(EPS, slice('topo', { endpoints: [{ addresses: ['10.1.0.10'], deprecatedTopology: { 'topology.kubernetes.io/zone': 'a' } }] }));
    expect(r.status, r.text).toBe(201);
    expect(r.body.endpoints[0].deprecatedTopology).toBeUndefined();
    const u = await s.put(`${EPS}/topo`, { ...r.body, endpoints: [{ addresses: ['10.1.0.11'], deprecatedTopology: { 'kubernetes.io/hostname': 'node-1' } }] });
    expect(u.status, u.text).toBe(200);
    expect(u.body.endpoints[0].deprecatedTopology).toBeUndefined();
    expect(u.body.endpoints[0].nodeName).toBeUndefined();
  });

  it('names are DNS subdomains', async () => {
    const r = causes(await s.post(EPS, slice('Not_A_Name')));
    expect(r[0]).toMatch(/^metadata.name: Invalid value: "Not_A_Name": a lowercase RFC 1123 subdomain/);
    expect((await s.post(EPS, slice('web.abc12'))).status).toBe(201);
  });
});
