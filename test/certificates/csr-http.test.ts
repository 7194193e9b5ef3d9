/**
 * Certificate signing requests end to end over HTTPS: the requester recorded, approval and signing
 * guarded by admission (CertificateApproval, CertificateSigning, CertificateSubjectRestriction), the
 * built-in signers issuing with the server's CA (checked with Node's X509Certificate), invalid
 * requests failed, node-client requests of bootstrappers auto-approved, and an issued client
 * certificate authenticating.
 */
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificateRequest } from '../helpers/csr.js';
import { httpCall, startTestServer, type TestServer } from '../helpers/server.js';
import { letEveryoneAskWhoami, whoami } from '../helpers/whoami.js';
import { CSRS, conditionOf, csrBody, decide, waitForCsr } from './helpers.js';

const RBAC = '/apis/rbac.authorization.orch.io/v1';
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ tls: true });
});
afterAll(() => s.close());

const asUser = (user: string, groups: string[] = []): Record<string, string | string[]> => ({ 'Impersonate-User': user, ...(groups.length ? { 'Impersonate-Group': groups } : {}) });

async function grant(name: string, rules: unknown[], subject: { kind: 'User' | 'Group'; name: string }): Promise<void> {
  expect((await s.post(`${RBAC}/clusterroles`, { metadata: { name }, rules })).status).toBe(201);
  const binding = { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name }, subjects: [{ ...subject, apiGroup: 'rbac.authorization.orch.io' }] };
  expect((await s.post(`${RBAC}/clusterrolebindings`, binding)).status).toBe(201);
}

/** Until RBAC (which reads through the watch cache) answers `allowed` for the review. */
async function untilAllowed(user: string, groups: string[], attrs: Record<string, string>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    const r = await s.post('/apis/authorization.orch.io/v1/subjectaccessreviews', { spec: { user, groups, resourceAttributes: attrs } });
    if (r.body?.status?.allowed) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the grant never took effect');
}

describe('certificate signing requests', () => {
  it('issues a client certificate from the server CA, for the lifetime asked, and it authenticates', async () => {
    const { request, keyPem } = makeCertificateRequest({ commonName: 'jane', organizations: ['dev'] });
    const made = await s.post(CSRS, csrBody('jane', request, 'orch.io/kube-apiserver-client', ['client auth', 'digital signature'], 600));
    expect(made.status).toBe(201);
    expect(made.body.spec.username).toBe('orch-admin');
    expect(made.body.spec.groups).toEqual(['system:masters', 'system:authenticated']);
    expect((await decide(s.target, 'jane', 'Approved')).status).toBe(200);
    const csr = await waitForCsr(s.target, 'jane', (c) => !!c.status?.certificate, 'got its certificate');
    const pem = Buffer.from(csr.status.certificate, 'base64').toString();
    const cert = new X509Certificate(pem);
    const ca = new X509Certificate(s.tls?.ca as string);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.subject).toBe('O=dev\nCN=jane');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect((Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / 1000).toBe(600);

    await letEveryoneAskWhoami(s.target);
    const seen = await whoami({ url: s.url, tls: { ca: s.tls?.ca as string, cert: pem, key: keyPem } });
    expect(seen.user).toEqual({ username: 'jane', groups: ['dev', 'system:authenticated'] });
  });

  it('marks a request its signer refuses Failed, and issues nothing', async () => {
    const { request } = makeCertificateRequest({ commonName: 'jane', organizations: ['dev'] });
    expect((await s.post(CSRS, csrBody('not-a-node', request, 'orch.io/kube-apiserver-client-kubelet', ['client auth', 'digital signature']))).status).toBe(201);
    expect((await decide(s.target, 'not-a-node', 'Approved')).status).toBe(200);
    const csr = await waitForCsr(s.target, 'not-a-node', (c) => !!conditionOf(c, 'Failed'), 'failed');
    expect(conditionOf(csr, 'Failed')).toMatchObject({ status: 'True', reason: 'SignerValidationFailure', message: 'subject organization is not system:nodes' });
    expect(csr.status.certificate).toBeUndefined();
  });

  it('refuses system:masters for the API server client signer (CertificateSubjectRestriction)', async () => {
    const { request } = makeCertificateRequest({ commonName: 'root', organizations: ['system:masters'] });
    const r = await s.post(CSRS, csrBody('masters', request, 'orch.io/kube-apiserver-client', ['client auth']));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('certificatesigningrequests.certificates.orch.io "masters" is forbidden: use of orch.io/kube-apiserver-client signer with system:masters group is not allowed');
    expect((await s.get(`${CSRS}/masters`)).status).toBe(404);
    // Another signer may be asked: what it does with the group is its own business.
    expect((await s.post(CSRS, csrBody('masters-elsewhere', request, 'example.com/mine', ['client auth']))).status).toBe(201);
  });

  it('approving needs approve on the signer (CertificateApproval); signing needs sign (CertificateSigning)', async () => {
    const { request } = makeCertificateRequest({ commonName: 'x' });
    expect((await s.post(CSRS, csrBody('guarded', request, 'example.com/signer', ['client auth']))).status).toBe(201);
    await grant('csr-writer', [{ apiGroups: ['certificates.orch.io'], resources: ['certificatesigningrequests', 'certificatesigningrequests/approval', 'certificatesigningrequests/status'], verbs: ['get', 'update'] }], { kind: 'User', name: 'bob' });
    await untilAllowed('bob', [], { group: 'certificates.orch.io', resource: 'certificatesigningrequests', subresource: 'approval', verb: 'update' });

    const refused = await decide(s.target, 'guarded', 'Approved', asUser('bob'));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('certificatesigningrequests.certificates.orch.io "guarded" is forbidden: user not permitted to approve requests with signerName "example.com/signer"');
    const signed = await s.get(`${CSRS}/guarded`);
    signed.body.status = { certificate: Buffer.from(s.tls?.ca as string).toString('base64') };
    const unsigned = await httpCall(s.target, 'PUT', `${CSRS}/guarded/status`, { body: signed.body, headers: asUser('bob') });
    expect(unsigned.status).toBe(403);
    expect(unsigned.body.message).toBe('certificatesigningrequests.certificates.orch.io "guarded" is forbidden: user not permitted to sign requests with signerName "example.com/signer"');

    // The signer's domain with /* is enough.
    await grant('example-approver', [{ apiGroups: ['certificates.orch.io'], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['approve'] }], { kind: 'User', name: 'bob' });
    await untilAllowed('bob', [], { group: 'certificates.orch.io', resource: 'signers', name: 'example.com/*', verb: 'approve' });
    expect((await decide(s.target, 'guarded', 'Approved', asUser('bob'))).status).toBe(200);
  });

  it('auto-approves the node-client requests of bootstrappers and nodes that may make them', async () => {
    const nodeClient = 'system:certificates.orch.io:certificatesigningrequests:nodeclient';
    const selfNodeClient = 'system:certificates.orch.io:certificatesigningrequests:selfnodeclient';
    const bind = async (role: string, group: string): Promise<void> => {
      const binding = { metadata: { name: `auto-${role.split(':').at(-1)}` }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: role }, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: group }] };
      expect((await s.post(`${RBAC}/clusterrolebindings`, binding)).status).toBe(201);
    };
    await bind(nodeClient, 'system:bootstrappers');
    await bind(selfNodeClient, 'system:nodes');
    await bind('system:node-bootstrapper', 'system:nodes');
    await untilAllowed('x', ['system:bootstrappers'], { group: 'certificates.orch.io', resource: 'certificatesigningrequests', subresource: 'nodeclient', verb: 'create' });
    await untilAllowed('x', ['system:nodes'], { group: 'certificates.orch.io', resource: 'certificatesigningrequests', subresource: 'selfnodeclient', verb: 'create' });

    const usages = ['digital signature', 'client auth'];
    const boot = makeCertificateRequest({ commonName: 'system:node:n1', organizations: ['system:nodes'] });
    const bootstrapper = asUser('system:bootstrap:abcdef', ['system:bootstrappers']);
    expect((await httpCall(s.target, 'POST', CSRS, { body: csrBody('node-n1', boot.request, 'orch.io/kube-apiserver-client-kubelet', usages), headers: bootstrapper })).status).toBe(201);
    const n1 = await waitForCsr(s.target, 'node-n1', (c) => !!c.status?.certificate, 'was approved and signed');
    expect(conditionOf(n1, 'Approved')).toMatchObject({ status: 'True', reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' });
    expect(new X509Certificate(Buffer.from(n1.status.certificate, 'base64')).subject).toBe('O=system:nodes\nCN=system:node:n1');

    const renew = makeCertificateRequest({ commonName: 'system:node:n2', organizations: ['system:nodes'] });
    const node = asUser('system:node:n2', ['system:nodes']);
    expect((await httpCall(s.target, 'POST', CSRS, { body: csrBody('node-n2', renew.request, 'orch.io/kube-apiserver-client-kubelet', usages), headers: node })).status).toBe(201);
    const n2 = await waitForCsr(s.target, 'node-n2', (c) => !!conditionOf(c, 'Approved'), 'was approved');
    expect(conditionOf(n2, 'Approved').message).toBe('Auto approving self kubelet client certificate after SubjectAccessReview.');

    // A requester without either permission is left pending for a person.
    const other = makeCertificateRequest({ commonName: 'system:node:n3', organizations: ['system:nodes'] });
    expect((await httpCall(s.target, 'POST', CSRS, { body: csrBody('node-n3', other.request, 'orch.io/kube-apiserver-client-kubelet', usages), headers: asUser('mallory') })).status).toBe(201);
    // n1 and n2 were handled after n3's creation would have been: wait on a later request instead of a duration.
    const later = makeCertificateRequest({ commonName: 'system:node:n4', organizations: ['system:nodes'] });
    expect((await httpCall(s.target, 'POST', CSRS, { body: csrBody('node-n4', later.request, 'orch.io/kube-apiserver-client-kubelet', usages), headers: bootstrapper })).status).toBe(201);
    await waitForCsr(s.target, 'node-n4', (c) => !!conditionOf(c, 'Approved'), 'was approved');
    expect(conditionOf((await s.get(`${CSRS}/node-n3`)).body, 'Approved')).toBeUndefined();
  });
});
