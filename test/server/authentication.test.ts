/**
 * Authentication over a real HTTPS listener: client certificates (the generated admin's, another
 * user's signed by the CA, forged, expired, of another CA), bearer tokens nobody knows, anonymous
 * requests and --anonymous-auth=false, and plain HTTP's system:unsecured. Every refused request
 * gets Kubernetes' 401 Status and changes nothing.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type OrchServer } from '../../src/index.js';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../src/machinery/x509/certificates.js';
import { httpCall, type Target } from '../helpers/server.js';
import { whoami } from '../helpers/whoami.js';

const DAY = 24 * 60 * 60 * 1000;
const CM = '/api/v1/namespaces/default/configmaps';
let dir: string;
let server: OrchServer;
let ca: CertificateAndKey;
const closing: OrchServer[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-authn-'));
  server = await createServer({ port: 0, logLevel: 'silent', dataDir: dir, storageBackend: 'memory' });
  closing.push(server);
  ca = { certPem: readFileSync(join(dir, 'pki', 'ca.crt'), 'utf8'), keyPem: readFileSync(join(dir, 'pki', 'ca.key'), 'utf8') };
});
afterAll(async () => {
  await Promise.all(closing.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** A client trusting the server's CA and presenting `cert`, if any. */
const as = (s: OrchServer, cert?: CertificateAndKey): Target => ({ url: s.url, tls: { ca: s.tls?.caPem, ...(cert ? { cert: cert.certPem, key: cert.keyPem } : {}) } });
const admin = (s: OrchServer): Target => ({ url: s.url, tls: s.tls!.clientOptions });

/** A refused write: 401 with Kubernetes' Status, and the object is not there afterwards. */
async function expectRefusedWrite(target: Target, headers: Record<string, string> = {}, s: OrchServer = server): Promise<void> {
  const name = `refused-${Math.random().toString(36).slice(2, 8)}`;
  const r = await httpCall(target, 'POST', CM, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }, headers });
  expect(r.status).toBe(401);
  expect(r.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  expect((await httpCall(admin(s), 'GET', `${CM}/${name}`)).status).toBe(404);
}

describe('client certificates', () => {
  it('the generated admin kubeconfig credentials are orch-admin in system:masters', async () => {
    const { user } = await whoami(admin(server));
    expect(user).toEqual({ username: 'orch-admin', groups: ['system:masters', 'system:authenticated'] });
  });

  it('a certificate the CA signed for another user is that user, with its O values as groups', async () => {
    const jane = await issueCertificate(ca, { commonName: 'jane', organizations: ['dev', 'qa'], usage: 'client', validForDays: 1 });
    expect((await whoami(as(server, jane))).user).toEqual({ username: 'jane', groups: ['dev', 'qa', 'system:authenticated'] });
  });

  it.each<[string, () => Promise<CertificateAndKey>]>([
    ['forged (a CA of the same name, not the same key)', async () => issueCertificate(await createCertificateAuthority(new X509Certificate(ca.certPem).subject.replace(/^CN=/, ''), 1), { commonName: 'orch-admin', organizations: ['system:masters'], usage: 'client', validForDays: 1 })],
    ['of another CA', async () => issueCertificate(await createCertificateAuthority('elsewhere', 1), { commonName: 'jane', usage: 'client', validForDays: 1 })],
    ['expired', async () => issueCertificate(ca, { commonName: 'jane', organizations: ['system:masters'], usage: 'client', validForDays: 1, validity: { notBefore: new Date(Date.now() - 3 * DAY), notAfter: new Date(Date.now() - DAY) } })],
    ['not yet valid', async () => issueCertificate(ca, { commonName: 'jane', usage: 'client', validForDays: 1, validity: { notBefore: new Date(Date.now() + DAY), notAfter: new Date(Date.now() + 2 * DAY) } })],
    ['a serving certificate', async () => issueCertificate(ca, { commonName: 'jane', usage: 'server', validForDays: 1 })],
  ])('a certificate %s gets 401 and changes nothing (never anonymous)', async (_n, make) => {
    const target = as(server, await make());
    await expectRefusedWrite(target);
    expect((await httpCall(target, 'GET', '/api/v1/namespaces')).status).toBe(401);
  });
});

describe('bearer tokens and anonymous requests', () => {
  it.each(['Bearer unknown-token', 'bearer unknown-token', 'Bearer unknown-token trailing'])('%j gets 401 and changes nothing', async (authorization) => {
    await expectRefusedWrite(as(server), { Authorization: authorization });
  });

  it('a request without a credential is system:anonymous in system:unauthenticated', async () => {
    expect((await whoami(as(server))).user).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
    // An Authorization header of another scheme, or an empty bearer token, is no credential at all.
    expect((await whoami(as(server), { Authorization: 'Basic YWRtaW46YWRtaW4=' })).user?.username).toBe('system:anonymous');
    const spaced = await whoami(as(server), { Authorization: 'Bearer  spaced' });
    expect(spaced.user?.username).toBe('system:anonymous');
    expect(String(spaced.reply.headers.warning)).toContain('extra space before the bearer token');
  });

  it('a good certificate with an unknown bearer token: the certificate proves the user', async () => {
    expect((await whoami(admin(server), { Authorization: 'Bearer unknown' })).user?.username).toBe('orch-admin');
  });

  it('--anonymous-auth=false: a request without a credential gets 401', async () => {
    const s = await createServer({ port: 0, logLevel: 'silent', anonymousAuth: false });
    closing.push(s);
    await expectRefusedWrite(as(s), {}, s);
    expect((await whoami(admin(s))).user?.username).toBe('orch-admin');
  });
});

describe('plain HTTP (the explicit test mode)', () => {
  it('every request is system:unsecured in system:masters, whatever it carries', async () => {
    const s = await createServer({ port: 0, logLevel: 'silent', plainHttp: true });
    closing.push(s);
    for (const headers of [{}, { Authorization: 'Bearer unknown' }] as Record<string, string>[]) {
      expect((await whoami({ url: s.url }, headers)).user).toEqual({ username: 'system:unsecured', groups: ['system:masters', 'system:authenticated'] });
    }
  });
});
