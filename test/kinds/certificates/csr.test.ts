/**
 * CertificateSigningRequest over HTTP: document 3's fields (a signed PKCS#10 request, a required
 * signer name, expirationSeconds of at least 600, the issued certificate) and Kubernetes' rules for
 * usages, the requester's identity, conditions through /approval and the certificate through /status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { causesOf, expectInvalid } from '../rbac/helpers.js';
import { b64, EC_CERT, EC_CSR, ED25519_CSR, RSA_CERT, RSA_CSR } from './fixtures.js';

const GROUP = 'certificates.orch.io';
const CSRS = `/apis/${GROUP}/v1/certificatesigningrequests`;
const MERGE = 'application/merge-patch+json';
const KIND = 'CertificateSigningRequest';

const spec = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  request: b64(RSA_CSR),
  signerName: 'example.com/client',
  usages: ['digital signature', 'key encipherment', 'client auth'],
  ...extra,
});
const csr = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ metadata: { name }, spec: spec(extra) });

describe('CertificateSigningRequest', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const approve = (name: string, conditions: unknown[]) => s.put(`${CSRS}/${name}/approval`, { ...csrBody(name), status: { conditions } });
  let bodies: Record<string, any> = {};
  /** The created object without its resourceVersion, so that writes based on it are unconditional. */
  const csrBody = (name: string): any => {
    const { resourceVersion: _rv, ...metadata } = bodies[name].metadata;
    return { ...bodies[name], metadata };
  };
  const create = async (name: string, extra: Record<string, unknown> = {}): Promise<any> => {
    const r = await s.post(CSRS, csr(name, extra));
    expect(r.status, r.text).toBe(201);
    bodies = { ...bodies, [name]: r.body };
    return r.body;
  };

  it('is served cluster-scoped as csr, with /status and /approval', async () => {
    const r = await s.get(`/apis/${GROUP}/v1`);
    const names = r.body.resources.map((x: any) => x.name);
    expect(names).toEqual(expect.arrayContaining(['certificatesigningrequests', 'certificatesigningrequests/status', 'certificatesigningrequests/approval']));
    const main = r.body.resources.find((x: any) => x.name === 'certificatesigningrequests');
    expect(main).toMatchObject({ kind: KIND, namespaced: false, shortNames: ['csr'] });
    const approval = r.body.resources.find((x: any) => x.name === 'certificatesigningrequests/approval');
    expect([...approval.verbs].sort()).toEqual(['get', 'patch', 'update']);
  });

  it('accepts requests signed with RSA, ECDSA and Ed25519 keys', async () => {
    for (const [name, pem] of [['rsa', RSA_CSR], ['ec', EC_CSR], ['ed', ED25519_CSR]] as const) {
      const body = await create(`signed-${name}`, { request: b64(pem) });
      expect(body.spec.request).toBe(b64(pem));
      expect(body.spec.signerName).toBe('example.com/client');
    }
  });

  it('records the requester authentication named, whatever the client claims', async () => {
    // This suite runs in plain-HTTP mode, where every request is system:unsecured.
    const body = await create('spoof', { username: 'admin', uid: '1', groups: ['admins'], extra: { scopes: ['all'] } });
    expect(body.spec.username).toBe('system:unsecured');
    expect(body.spec.uid).toBeUndefined();
    expect(body.spec.groups).toEqual(['system:masters', 'system:authenticated']);
    expect(body.spec.extra).toBeUndefined();
  });

  it('cannot be created approved or issued', async () => {
    const r = await s.post(CSRS, { ...csr('pre-approved'), status: { conditions: [{ type: 'Approved', status: 'True' }], certificate: b64(EC_CERT) } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.status).toEqual({});
  });

  it('requires a CERTIFICATE REQUEST PEM block', async () => {
    const st = expectInvalid(await s.post(CSRS, csr('not-pem', { request: b64('hello') })), KIND, 'not-pem');
    expect(causesOf(st)).toEqual([['FieldValueInvalid', 'spec.request', `Invalid value: "${b64('hello')}": PEM block type must be CERTIFICATE REQUEST`]]);
    const cert = expectInvalid(await s.post(CSRS, csr('a-cert', { request: b64(EC_CERT) })), KIND, 'a-cert');
    expect(causesOf(cert)[0]?.[2]).toMatch(/: PEM block type must be CERTIFICATE REQUEST$/);
    const none = expectInvalid(await s.post(CSRS, { metadata: { name: 'no-request' }, spec: { signerName: 'example.com/x', usages: ['any'] } }), KIND, 'no-request');
    expect(causesOf(none)).toEqual([['FieldValueInvalid', 'spec.request', 'Invalid value: null: PEM block type must be CERTIFICATE REQUEST']]);
  });

  it('requires a valid signature', async () => {
    const der = Buffer.from(RSA_CSR.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
    der[der.length - 10] = (der[der.length - 10] as number) ^ 0xff;
    const forged = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    const st = expectInvalid(await s.post(CSRS, csr('forged', { request: b64(forged) })), KIND, 'forged');
    expect(causesOf(st)).toEqual([['FieldValueInvalid', 'spec.request', `Invalid value: "${b64(forged)}": crypto/rsa: verification error`]]);
  });

  it('requires signerName, a qualified name of a domain and a path', async () => {
    const missing = expectInvalid(await s.post(CSRS, csr('no-signer', { signerName: '' })), KIND, 'no-signer');
    expect(causesOf(missing)).toEqual([['FieldValueRequired', 'spec.signerName', 'Required value']]);
    const bare = expectInvalid(await s.post(CSRS, csr('bare-signer', { signerName: 'signer' })), KIND, 'bare-signer');
    expect(causesOf(bare)).toEqual([
      ['FieldValueInvalid', 'spec.signerName', `Invalid value: "signer": must be a fully qualified domain and path of the form 'example.com/signer-name'`],
    ]);
    const short = expectInvalid(await s.post(CSRS, csr('short-signer', { signerName: 'example/signer' })), KIND, 'short-signer');
    expect(causesOf(short)).toEqual([['FieldValueInvalid', 'spec.signerName', 'Invalid value: "example": should be a domain with at least two segments separated by dots']]);
    const badPath = expectInvalid(await s.post(CSRS, csr('bad-path', { signerName: 'example.com/Signer_1' })), KIND, 'bad-path');
    expect(causesOf(badPath)[0]?.[2]).toMatch(/^Invalid value: "Signer_1": validating label "Signer_1": a lowercase RFC 1123 subdomain must consist of/);
    await create('well-known', { signerName: 'orch.io/kube-apiserver-client' });
  });

  it('refuses the legacy signer name', async () => {
    const st = expectInvalid(await s.post(CSRS, csr('legacy', { signerName: 'orch.io/legacy-unknown' })), KIND, 'legacy');
    expect(causesOf(st)).toEqual([['FieldValueInvalid', 'spec.signerName', 'Invalid value: "orch.io/legacy-unknown": the legacy signerName is not allowed via this API version']]);
  });

  it('takes expirationSeconds of 600 or more', async () => {
    const st = expectInvalid(await s.post(CSRS, csr('short-lived', { expirationSeconds: 599 })), KIND, 'short-lived');
    expect(causesOf(st)).toEqual([['FieldValueInvalid', 'spec.expirationSeconds', 'Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)']]);
    expect((await create('ten-minutes', { expirationSeconds: 600 })).spec.expirationSeconds).toBe(600);
  });

  it('requires known, distinct usages', async () => {
    const none = expectInvalid(await s.post(CSRS, csr('no-usages', { usages: [] })), KIND, 'no-usages');
    expect(causesOf(none)).toEqual([['FieldValueRequired', 'spec.usages', 'Required value']]);
    const st = expectInvalid(await s.post(CSRS, csr('bad-usages', { usages: ['client auth', 'world domination', 'client auth'] })), KIND, 'bad-usages');
    const causes = causesOf(st);
    expect(causes.map((c) => c.slice(0, 2))).toEqual([
      ['FieldValueNotSupported', 'spec.usages[1]'],
      ['FieldValueDuplicate', 'spec.usages[2]'],
    ]);
    expect(causes[0]?.[2]).toMatch(/^Unsupported value: "world domination": supported values: "any", "cert sign", "client auth", /);
    expect(causes[1]?.[2]).toBe('Duplicate value: "client auth"');
  });

  it('keeps spec and status on the main endpoint; only metadata changes there', async () => {
    await create('frozen');
    const r = await s.patch(
      `${CSRS}/frozen`,
      { metadata: { labels: { team: 'a' } }, spec: { signerName: 'example.com/other', usages: ['any'] }, status: { conditions: [{ type: 'Approved', status: 'True' }] } },
      MERGE,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.metadata.labels).toEqual({ team: 'a' });
    expect(r.body.spec.signerName).toBe('example.com/client');
    expect(r.body.spec.usages).toEqual(['digital signature', 'key encipherment', 'client auth']);
    expect(r.body.status).toEqual({});
  });

  it('is approved through /approval, which fills in the condition times', async () => {
    await create('approve-me');
    const r = await approve('approve-me', [{ type: 'Approved', status: 'True', reason: 'AdminApproved', message: 'ok' }]);
    expect(r.status, r.text).toBe(200);
    const [c] = r.body.status.conditions;
    expect(c).toMatchObject({ type: 'Approved', status: 'True', reason: 'AdminApproved', message: 'ok' });
    expect(c.lastUpdateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(c.lastTransitionTime).toBe(c.lastUpdateTime);
    expect((await s.get(`${CSRS}/approve-me/approval`)).body.status.conditions).toHaveLength(1);
  });

  it('keeps Approved and Denied exclusive', async () => {
    await create('both');
    const st = expectInvalid(await approve('both', [{ type: 'Approved', status: 'True' }, { type: 'Denied', status: 'True' }]), KIND, 'both');
    expect(causesOf(st)).toEqual([['FieldValueInvalid', 'status.conditions[1].type', 'Invalid value: "Denied": Approved and Denied conditions are mutually exclusive']]);
    expect((await approve('both', [{ type: 'Denied', status: 'True' }])).status).toBe(200);
    const later = expectInvalid(
      await s.patch(`${CSRS}/both/approval`, { status: { conditions: [{ type: 'Denied', status: 'True' }, { type: 'Approved', status: 'True' }] } }, MERGE),
      KIND,
      'both',
    );
    expect(causesOf(later)).toEqual([['FieldValueInvalid', 'status.conditions[1].type', 'Invalid value: "Approved": Approved and Denied conditions are mutually exclusive']]);
  });

  it('lets Approved, Denied and Failed conditions be only True, once each, and never removed', async () => {
    await create('conditions');
    const notTrue = expectInvalid(await approve('conditions', [{ type: 'Approved', status: 'False' }]), KIND, 'conditions');
    expect(causesOf(notTrue)).toEqual([['FieldValueNotSupported', 'status.conditions[0].status', 'Unsupported value: "False": supported values: "True"']]);
    const odd = expectInvalid(await approve('conditions', [{ type: 'Custom', status: 'Maybe' }, { type: 'Custom', status: 'True' }]), KIND, 'conditions');
    expect(causesOf(odd)).toEqual([
      ['FieldValueNotSupported', 'status.conditions[0].status', 'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"'],
      ['FieldValueDuplicate', 'status.conditions[1].type', 'Duplicate value: "Custom"'],
    ]);
    expect((await approve('conditions', [{ type: 'Approved', status: 'True' }])).status).toBe(200);
    const removed = expectInvalid(await approve('conditions', []), KIND, 'conditions');
    expect(causesOf(removed)).toEqual([['FieldValueForbidden', 'status.conditions', 'Forbidden: updates may not remove a condition of type "Approved"']]);
  });

  it('takes no certificate through /approval', async () => {
    await create('approval-cert');
    const r = await s.put(`${CSRS}/approval-cert/approval`, { ...csrBody('approval-cert'), status: { conditions: [{ type: 'Approved', status: 'True' }], certificate: b64(EC_CERT) } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.status.certificate).toBeUndefined();
  });

  it('changes no Approved or Denied condition through /status', async () => {
    await create('status-approve');
    const st = expectInvalid(await s.put(`${CSRS}/status-approve/status`, { ...csrBody('status-approve'), status: { conditions: [{ type: 'Approved', status: 'True' }] } }), KIND, 'status-approve');
    expect(causesOf(st)).toEqual([['FieldValueForbidden', 'status.conditions', 'Forbidden: updates may not add a condition of type "Approved"']]);
    // A changed Approved condition sent to /status is quietly put back as stored.
    const approved = (await approve('status-approve', [{ type: 'Approved', status: 'True', reason: 'Yes' }])).body;
    const r = await s.put(`${CSRS}/status-approve/status`, {
      ...approved,
      status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Changed' }, { type: 'Failed', status: 'True', reason: 'SignerDown' }] },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.status.conditions.map((c: any) => [c.type, c.reason])).toEqual([['Approved', 'Yes'], ['Failed', 'SignerDown']]);
  });

  it('takes the certificate through /status once, as CERTIFICATE PEM blocks', async () => {
    await create('issue');
    await approve('issue', [{ type: 'Approved', status: 'True' }]);
    const current = (await s.get(`${CSRS}/issue`)).body;
    const bad = expectInvalid(await s.put(`${CSRS}/issue/status`, { ...current, status: { ...current.status, certificate: b64(RSA_CSR) } }), KIND, 'issue');
    expect(causesOf(bad)).toEqual([['FieldValueInvalid', 'status.certificate', 'Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"']]);
    const text = expectInvalid(await s.put(`${CSRS}/issue/status`, { ...current, status: { ...current.status, certificate: b64('no pem here') } }), KIND, 'issue');
    expect(causesOf(text)).toEqual([['FieldValueInvalid', 'status.certificate', 'Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block']]);
    const chain = b64(`${EC_CERT}${RSA_CERT}`);
    const issued = await s.put(`${CSRS}/issue/status`, { ...current, status: { ...current.status, certificate: chain } });
    expect(issued.status, issued.text).toBe(200);
    expect(issued.body.status.certificate).toBe(chain);
    const again = expectInvalid(await s.put(`${CSRS}/issue/status`, { ...issued.body, status: { ...issued.body.status, certificate: b64(RSA_CERT) } }), KIND, 'issue');
    expect(causesOf(again)).toEqual([['FieldValueForbidden', 'status.certificate', 'Forbidden: updates may not modify existing certificate content']]);
  });

  it('takes no certificate on the main endpoint', async () => {
    await create('main-cert');
    const r = await s.patch(`${CSRS}/main-cert`, { status: { certificate: b64(EC_CERT) } }, MERGE);
    expect(r.status, r.text).toBe(200);
    expect(r.body.status.certificate).toBeUndefined();
  });

  it('keeps the spec through /status and /approval', async () => {
    await create('spec-kept');
    const r = await s.patch(`${CSRS}/spec-kept/status`, { spec: { signerName: 'example.com/other' }, status: { conditions: [{ type: 'Failed', status: 'True' }] } }, MERGE);
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.signerName).toBe('example.com/client');
    const a = await s.patch(`${CSRS}/spec-kept/approval`, { spec: { signerName: 'example.com/other' }, status: { conditions: [{ type: 'Failed', status: 'True' }, { type: 'Denied', status: 'True' }] } }, MERGE);
    expect(a.status, a.text).toBe(200);
    expect(a.body.spec.signerName).toBe('example.com/client');
    // The Failed condition kept its times: unchanged type and status keep lastTransitionTime.
    expect(a.body.status.conditions[0].lastTransitionTime).toBe(r.body.status.conditions[0].lastTransitionTime);
  });

  it('selects on spec.signerName', async () => {
    await create('selected', { signerName: 'example.com/selected' });
    const r = await s.get(`${CSRS}?fieldSelector=${encodeURIComponent('spec.signerName=example.com/selected')}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.items.map((x: any) => x.metadata.name)).toEqual(['selected']);
    const bad = await s.get(`${CSRS}?fieldSelector=spec.usages%3Dany`);
    expect(bad.status).toBe(400);
  });
});
