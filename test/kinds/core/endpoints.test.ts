/** Endpoints (core/v1) over HTTP: defaults, validation in Kubernetes' words, repacking, create on PUT, the Endpoints column. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE } from './helpers.js';

const EP = '/api/v1/namespaces/default/endpoints';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';

describe('Endpoints', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served as endpoints (short name ep) in the core group', async () => {
    const entry = (await s.get('/api/v1')).body.resources.find((r: any) => r.name === 'endpoints');
    expect(entry).toMatchObject({ kind: 'Endpoints', namespaced: true, shortNames: ['ep'] });
    expect(entry.categories).toBeUndefined();
  });

  it('defaults port protocols to TCP and keeps a headless subset without ports', async () => {
    const made = await s.post(EP, {
      metadata: { name: 'web' },
      subsets: [
        { addresses: [{ ip: '10.0.0.1', hostname: 'web-0', nodeName: 'node-1', targetRef: { kind: 'Pod', name: 'web-0', namespace: 'default', uid: 'u0' } }], ports: [{ name: 'http', port: 80, appProtocol: 'http' }] },
      ],
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.subsets).toEqual([
      { addresses: [{ ip: '10.0.0.1', hostname: 'web-0', nodeName: 'node-1', targetRef: { kind: 'Pod', name: 'web-0', namespace: 'default', uid: 'u0' } }], ports: [{ name: 'http', port: 80, protocol: 'TCP', appProtocol: 'http' }] },
    ]);
    const headless = await s.post(EP, { metadata: { name: 'headless' }, subsets: [{ addresses: [{ ip: '10.0.0.9' }] }] });
    expect(headless.status, headless.text).toBe(201);
    expect(headless.body.subsets).toEqual([{ addresses: [{ ip: '10.0.0.9' }] }]);
  });

  it('stores subsets repacked: one subset per set of ports, addresses once, sorted by IP', async () => {
    const made = await s.post(EP, {
      metadata: { name: 'repacked' },
      subsets: [
        { addresses: [{ ip: '10.0.0.2' }], ports: [{ port: 80 }] },
        { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 80 }] },
        { notReadyAddresses: [{ ip: '10.0.0.3' }], ports: [{ port: 80 }] },
      ],
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.subsets).toEqual([
      { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], notReadyAddresses: [{ ip: '10.0.0.3' }], ports: [{ port: 80, protocol: 'TCP' }] },
    ]);
  });

  it('validates addresses and ports as Kubernetes does', async () => {
    expectCauses(
      await s.post(EP, {
        metadata: { name: 'bad' },
        subsets: [
          { ports: [{ port: 80 }] },
          { addresses: [{ ip: '127.0.0.1' }, { ip: 'not-an-ip', hostname: 'Bad_Host' }], ports: [{ port: 0, protocol: 'ICMP' }, { name: 'b', port: 81 }] },
        ],
      }),
      [
        { reason: 'FieldValueRequired', field: 'subsets[0]', message: 'Required value: must specify `addresses` or `notReadyAddresses`' },
        { reason: 'FieldValueInvalid', field: 'subsets[1].addresses[0].ip', message: 'Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)' },
        { reason: 'FieldValueInvalid', field: 'subsets[1].addresses[1].ip', message: 'Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)' },
        { reason: 'FieldValueInvalid', field: 'subsets[1].addresses[1].hostname' },
        { reason: 'FieldValueInvalid', field: 'subsets[1].addresses[1].ip', message: 'Invalid value: "not-an-ip": must be a valid IP address' },
        { reason: 'FieldValueRequired', field: 'subsets[1].ports[0].name', message: 'Required value' },
        { reason: 'FieldValueInvalid', field: 'subsets[1].ports[0].port', message: 'Invalid value: 0: must be between 1 and 65535, inclusive' },
        { reason: 'FieldValueNotSupported', field: 'subsets[1].ports[0].protocol', message: 'Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"' },
      ],
    );
  });

  it('PUT to a missing Endpoints creates it, and updates are validated too', async () => {
    const put = await s.put(`${EP}/by-put`, { metadata: { name: 'by-put' }, subsets: [{ addresses: [{ ip: '10.1.0.1' }], ports: [{ port: 8080 }] }] });
    expect(put.status, put.text).toBe(201);
    expectCauses(await s.patch(`${EP}/by-put`, { subsets: [{ addresses: [{ ip: '169.254.1.1' }] }] }, MERGE), [
      { field: 'subsets[0].addresses[0].ip', message: 'Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)' },
    ]);
  });

  it('prints at most three ip:port pairs, then how many more', async () => {
    const addresses = ['10.2.0.1', '10.2.0.2', 'fd00::3', '10.2.0.4'].map((ip) => ({ ip }));
    expect((await s.post(EP, { metadata: { name: 'many' }, subsets: [{ addresses, ports: [{ port: 443 }] }] })).status).toBe(201);
    const table = await s.get(`${EP}/many`, { accept: TABLE });
    expect(table.body.rows[0].cells[1]).toBe('10.2.0.1:443,10.2.0.2:443,10.2.0.4:443 + 1 more...');
    const none = await s.post(EP, { metadata: { name: 'none' } });
    expect(none.status).toBe(201);
    expect((await s.get(`${EP}/none`, { accept: TABLE })).body.rows[0].cells[1]).toBe('<none>');
  });
});
