/**
 * A node's join, end to end over HTTPS, as kubeadm join does it, under both domains:
 *
 * 1. read `cluster-info` anonymously, trusting nothing yet (no CA);
 * 2. check its detached JWS with the bootstrap token, using a JOSE library (the key is the full
 *    token under orch.io, as document 3 says, and the token secret under k8s.io, as kubeadm
 *    verifies it);
 * 3. take the CA from the signed kubeconfig, and check with Node's X509Certificate that the
 *    server's certificate chains to it;
 * 4. authenticate with the bootstrap token over TLS verified by that CA;
 * 5. create a node-client CertificateSigningRequest, recorded as the bootstrap user, and
 *    authorized for auto-approval (`certificatesigningrequests/nodeclient`, granted as kubeadm
 *    grants it).
 *
 * 6. the CSR is approved by the approver controller and signed with the cluster CA, and the issued
 *    certificate authenticates as `system:node:<name>`.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { flattenedVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { eventually } from '../reads/fixtures.js';
import { httpCall, startTestServer, type Reply, type TestServer } from '../helpers/server.js';

const TOKEN_ID = 'w0rk3r';
const TOKEN_SECRET = 'j01nm3s3cr3tv4lu';
const TOKEN = `${TOKEN_ID}.${TOKEN_SECRET}`;
const NODE_GROUP = 'system:bootstrappers:kubeadm:default-node-token';
const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** GET without trusting the server yet, as kubeadm's first read of cluster-info. */
function insecureGet(url: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The certificate the server presents, verified by nothing. */
function peerCertificate(host: string, port: number): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host, port, rejectUnauthorized: false, servername: host === '127.0.0.1' ? undefined : host, ALPNProtocols: ['http/1.1'] }, () => {
      const cert = socket.getPeerX509Certificate();
      socket.end();
      if (cert) resolve(cert);
      else reject(new Error('no peer certificate'));
    });
    socket.on('error', reject);
  });
}

for (const domain of ['orch.io', 'k8s.io'] as const) {
  const names = domain === 'k8s.io' ? { system: 'kube-system', public: 'kube-public', label: 'kubernetes.io' } : { system: 'orch-system', public: 'orch-public', label: 'orch.io' };
  const certificates = `certificates.${domain}`;
  const rbac = `rbac.authorization.${domain}`;

  describe(`joining a node with a bootstrap token (${domain})`, () => {
    let s: TestServer;
    let dir: string;
    let trustedCa: string;
    let csrPem: string;
    let nodeKeyPem: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'orch-join-'));
      execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', join(dir, 'node.key')]);
      execFileSync('openssl', ['req', '-new', '-key', join(dir, 'node.key'), '-subj', '/O=system:nodes/CN=system:node:worker-1', '-out', join(dir, 'node.csr')]);
      csrPem = readFileSync(join(dir, 'node.csr'), 'utf8');
      nodeKeyPem = readFileSync(join(dir, 'node.key'), 'utf8');
      s = await startTestServer({ tls: true, apiDomain: domain, enableBootstrapTokenAuth: true, controllerManager: { controllers: ['*', 'tokencleaner', 'bootstrapsigner'] } });
      // What `kubeadm token create` and kubeadm's init phases set up: the token, and auto-approval for its group.
      const token = {
        metadata: { name: `bootstrap-token-${TOKEN_ID}` },
        type: `bootstrap.${names.label}/token`,
        stringData: {
          'token-id': TOKEN_ID,
          'token-secret': TOKEN_SECRET,
          'usage-bootstrap-authentication': 'true',
          'usage-bootstrap-signing': 'true',
          'auth-extra-groups': NODE_GROUP,
          expiration: new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
        },
      };
      const made = await s.post(`/api/v1/namespaces/${names.system}/secrets`, token);
      expect(made.status, made.text).toBe(201);
      const binding = {
        metadata: { name: 'kubeadm:node-autoapprove-bootstrap' },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: `system:${certificates}:certificatesigningrequests:nodeclient` },
        subjects: [{ kind: 'Group', apiGroup: rbac, name: NODE_GROUP }],
      };
      expect((await s.post(`/apis/${rbac}/v1/clusterrolebindings`, binding)).status).toBe(201);
    });
    afterAll(async () => {
      await s?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** As the bootstrap token, over TLS verified by the CA cluster-info gave. */
    const asToken = (method: string, path: string, body?: unknown): Promise<Reply> =>
      httpCall({ url: s.url, tls: { ca: trustedCa } }, method, path, { headers: { authorization: `Bearer ${TOKEN}` }, ...(body !== undefined ? { body } : {}) });

    it('reads cluster-info anonymously, verifies its signature with the token, and trusts the CA inside', async () => {
      const info = await eventually(async () => {
        // 404 until the signer has written it (the controllers may start a moment after the server).
        const r = await insecureGet(`${s.url}/api/v1/namespaces/${names.public}/configmaps/cluster-info`);
        expect([200, 404]).toContain(r.status);
        return r.body.data?.[`jws-kubeconfig-${TOKEN_ID}`] ? r.body : undefined;
      }, 'cluster-info signed for the token');
      const content: string = info.data.kubeconfig;
      const [header, payload, signature] = (info.data[`jws-kubeconfig-${TOKEN_ID}`] as string).split('.');
      expect(payload).toBe('');
      const key = domain === 'k8s.io' ? TOKEN_SECRET : TOKEN;
      const verified = await flattenedVerify({ protected: header as string, payload: Buffer.from(content).toString('base64url'), signature: signature as string }, new TextEncoder().encode(key), { algorithms: ['HS256'] });
      expect(verified.protectedHeader).toEqual({ alg: 'HS256', kid: TOKEN_ID });

      const config = parse(content);
      expect(config.clusters).toHaveLength(1);
      const cluster = config.clusters[0].cluster;
      expect(cluster.server).toBe(s.url);
      trustedCa = Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8');
      const ca = new X509Certificate(trustedCa);
      const url = new URL(s.url);
      const leaf = await peerCertificate(url.hostname, Number(url.port));
      expect(ca.ca).toBe(true);
      expect(leaf.checkIssued(ca)).toBe(true);
      expect(leaf.verify(ca.publicKey)).toBe(true);
      expect(b64(trustedCa)).toBe(cluster['certificate-authority-data']);
    });

    it('authenticates with the bootstrap token and creates a node-client CSR that may be auto-approved', async () => {
      const may = await asToken('POST', `/apis/authorization.${domain}/v1/selfsubjectaccessreviews`, { spec: { resourceAttributes: { verb: 'create', group: certificates, resource: 'certificatesigningrequests' } } });
      expect(may.status, may.text).toBe(201);
      expect(may.body.status.allowed).toBe(true);

      const csr = {
        metadata: { name: 'node-csr-worker-1' },
        spec: { request: b64(csrPem), signerName: `${names.label}/kube-apiserver-client-kubelet`, usages: ['digital signature', 'key encipherment', 'client auth'] },
      };
      const created = await asToken('POST', `/apis/${certificates}/v1/certificatesigningrequests`, csr);
      expect(created.status, created.text).toBe(201);
      expect(created.body.spec.username).toBe(`system:bootstrap:${TOKEN_ID}`);
      expect(created.body.spec.groups).toEqual(expect.arrayContaining(['system:bootstrappers', NODE_GROUP, 'system:authenticated']));
      // The approver's question (Kubernetes' csrapproving controller): may the requester create nodeclient requests?
      const review = await s.post(`/apis/authorization.${domain}/v1/subjectaccessreviews`, {
        spec: { user: created.body.spec.username, groups: created.body.spec.groups, resourceAttributes: { verb: 'create', group: certificates, resource: 'certificatesigningrequests', subresource: 'nodeclient' } },
      });
      expect(review.status, review.text).toBe(201);
      expect(review.body.status.allowed).toBe(true);
      // A token that is not the Secret's is refused.
      const wrong = await httpCall({ url: s.url, tls: { ca: trustedCa } }, 'GET', '/api', { headers: { authorization: `Bearer ${TOKEN_ID}.0000000000000000` } });
      expect(wrong.status).toBe(401);
    });

    it('has the CSR auto-approved and signed, and authenticates with the issued certificate', async () => {
      const csrPath = `/apis/${certificates}/v1/certificatesigningrequests/node-csr-worker-1`;
      const issued = await eventually(async () => {
        const r = await asToken('GET', csrPath);
        const approved = (r.body?.status?.conditions ?? []).some((c: any) => c.type === 'Approved' && c.status === 'True');
        return approved && r.body.status.certificate ? r.body : undefined;
      }, 'the CSR approved and signed', 30_000);
      const chain = Buffer.from(issued.status.certificate, 'base64').toString('utf8');
      const cert = new X509Certificate(chain);
      expect(cert.subject).toContain('CN=system:node:worker-1');
      expect(cert.subject).toContain('O=system:nodes');
      const ca = new X509Certificate(trustedCa);
      expect(cert.checkIssued(ca)).toBe(true);
      expect(cert.verify(ca.publicKey)).toBe(true);
      // The issued certificate is who the node is now: a refusal names the user it proved.
      const asNode = await httpCall({ url: s.url, tls: { ca: trustedCa, cert: chain, key: nodeKeyPem } }, 'GET', `/api/v1/namespaces/${names.system}/secrets`);
      expect(asNode.status, asNode.text).toBe(403);
      expect(asNode.body.message).toContain('User "system:node:worker-1"');
    });
  });
}
