/** NetworkPolicy (networking.orch.io/v1) over HTTP: defaults (TCP, policy types), ports, peers and IP blocks in Kubernetes' words, generation, the Pod-Selector column. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE } from '../core/helpers.js';

const NP = '/apis/networking.orch.io/v1/namespaces/default/networkpolicies';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';
const policy = (name: string, spec: Record<string, unknown>) => ({ metadata: { name }, spec: { podSelector: {}, ...spec } });

describe('NetworkPolicy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served in networking.orch.io/v1 (short name netpol) without /status', async () => {
    const resources = (await s.get('/apis/networking.orch.io/v1')).body.resources;
    expect(resources.find((r: any) => r.name === 'networkpolicies')).toMatchObject({ kind: 'NetworkPolicy', namespaced: true, shortNames: ['netpol'] });
    expect(resources.find((r: any) => r.name === 'networkpolicies/status')).toBeUndefined();
  });

  it('defaults the protocol and the policy types, and prints the pod selector', async () => {
    const ingressOnly = await s.post(NP, policy('db', { podSelector: { matchLabels: { app: 'db' } }, ingress: [{ ports: [{ port: 5432 }, { port: 'dns', protocol: 'UDP' }] }] }));
    expect(ingressOnly.status, ingressOnly.text).toBe(201);
    expect(ingressOnly.body.spec.ingress[0].ports).toEqual([{ port: 5432, protocol: 'TCP' }, { port: 'dns', protocol: 'UDP' }]);
    expect(ingressOnly.body.spec.policyTypes).toEqual(['Ingress']);
    expect(ingressOnly.body.metadata.generation).toBe(1);
    const both = await s.post(NP, policy('out', { egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }] }] }));
    expect(both.status, both.text).toBe(201);
    expect(both.body.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    const explicit = await s.post(NP, policy('deny-egress', { policyTypes: ['Egress'] }));
    expect(explicit.body.spec.policyTypes).toEqual(['Egress']);
    expect((await s.get(`${NP}/db`, { accept: TABLE })).body.rows[0].cells.slice(0, 2)).toEqual(['db', 'app=db']);
    expect((await s.get(`${NP}/out`, { accept: TABLE })).body.rows[0].cells.slice(0, 2)).toEqual(['out', '<none>']);
  });

  it('checks ports and port ranges', async () => {
    expectCauses(
      await s.post(NP, policy('ports', {
        ingress: [{ ports: [{ port: 0 }, { port: 100, endPort: 90 }, { port: 'http', endPort: 90 }, { endPort: 90 }, { protocol: 'ICMP' }] }],
      })),
      [
        { field: 'spec.ingress[0].ports[0].port', message: 'Invalid value: 0: must be between 1 and 65535, inclusive' },
        { field: 'spec.ingress[0].ports[1].endPort', message: 'Invalid value: 100: must be greater than or equal to `port`' },
        { field: 'spec.ingress[0].ports[2].endPort', message: 'Invalid value: 90: may not be specified when `port` is non-numeric' },
        { field: 'spec.ingress[0].ports[3].endPort', message: 'Invalid value: 90: may not be specified when `port` is not specified' },
        { reason: 'FieldValueNotSupported', field: 'spec.ingress[0].ports[4].protocol', message: 'Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"' },
      ],
    );
  });

  it('checks peers, IP blocks and policy types', async () => {
    expectCauses(
      await s.post(NP, policy('peers', {
        egress: [{ to: [{}, { ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }, { ipBlock: { cidr: '10.0.0/8' } }, { ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.0.0/8', '192.168.0.0/24'] } }] }],
        policyTypes: ['Ingress', 'Sideways'],
      })),
      [
        { reason: 'FieldValueRequired', field: 'spec.egress[0].to[0]', message: 'Required value: must specify a peer' },
        { reason: 'FieldValueForbidden', field: 'spec.egress[0].to[1]', message: 'Forbidden: may not specify both ipBlock and another peer' },
        { field: 'spec.egress[0].to[2].ipBlock.cidr', message: 'Invalid value: "10.0.0/8": not a valid CIDR' },
        { field: 'spec.egress[0].to[3].ipBlock.except[0]', message: 'Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`' },
        { field: 'spec.egress[0].to[3].ipBlock.except[1]', message: 'Invalid value: "192.168.0.0/24": must be a strict subset of `cidr`' },
        { reason: 'FieldValueNotSupported', field: 'spec.policyTypes[1]', message: 'Unsupported value: "Sideways": supported values: "Ingress", "Egress"' },
      ],
    );
    expectCauses(await s.post(NP, policy('three', { policyTypes: ['Ingress', 'Egress', 'Ingress'] })), [
      { field: 'spec.policyTypes', message: 'Invalid value: ["Ingress","Egress","Ingress"]: may not specify more than two policyTypes' },
    ]);
  });

  it('bumps the generation when the spec changes', async () => {
    expect((await s.post(NP, policy('gen', {}))).status).toBe(201);
    const changed = await s.patch(`${NP}/gen`, { spec: { podSelector: { matchLabels: { tier: 'x' } } } }, MERGE);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.metadata.generation).toBe(2);
    const labelled = await s.patch(`${NP}/gen`, { metadata: { labels: { a: 'b' } } }, MERGE);
    expect(labelled.body.metadata.generation).toBe(2);
  });
});
