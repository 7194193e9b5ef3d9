/**
 * Leader election across two processes on one etcd: only the Lease holder's controllers act (each
 * process signs with a CA of its own, so a certificate's issuer names the instance that signed it);
 * when the holder is killed, the other takes the Lease over and its controllers carry on; every
 * request is signed exactly once.
 */
import { X509Certificate } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority } from '../../src/machinery/x509/certificates.js';
import { ensureBuilt, startCli, tempDir, type CliServer } from '../e2e/helpers/cli.js';
import { makeCertificateRequest } from '../helpers/csr.js';
import { etcdSkipReason, startEtcd, uniquePrefix, type TestEtcd } from '../helpers/etcd.js';
import { httpCall } from '../helpers/server.js';
import { CSRS, csrBody, decide, waitForCsr } from '../certificates/helpers.js';

const skip = etcdSkipReason();
if (skip) console.warn(skip);

const LEASE = '/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-controller-manager';

async function eventually<T>(f: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(skip)('controllers on two instances elect one leader through the Lease', () => {
  let etcd: TestEtcd;
  const running: CliServer[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    console.log(`leader election: ${ensureBuilt()}`);
    etcd = await startEtcd();
  }, 180_000);
  afterAll(async () => {
    await Promise.all(running.map((s) => s.kill()));
    for (const d of [...dirs, ...running.map((s) => s.dataDir)]) rmSync(d, { recursive: true, force: true });
    await etcd?.close();
  });

  async function signingFlags(name: string): Promise<{ flags: string[]; caSubject: string }> {
    const dir = tempDir('orch-ca-');
    dirs.push(dir);
    const ca = await createCertificateAuthority(name, 1);
    writeFileSync(join(dir, 'ca.crt'), ca.certPem);
    writeFileSync(join(dir, 'ca.key'), ca.keyPem, { mode: 0o600 });
    return { flags: [`--cluster-signing-cert-file=${join(dir, 'ca.crt')}`, `--cluster-signing-key-file=${join(dir, 'ca.key')}`], caSubject: `CN=${name}` };
  }

  const issuerOf = (csr: any): string => new X509Certificate(Buffer.from(csr.status.certificate, 'base64')).issuer;

  it('only the holder signs; killing it hands the Lease and the signing over', async () => {
    const prefix = uniquePrefix('leader');
    const common = [
      '--storage-backend=etcd', `--etcd-servers=${etcd.endpoint}`, `--etcd-prefix=${prefix}`,
      '--leader-elect-lease-duration=3s', '--leader-elect-renew-deadline=2s', '--leader-elect-retry-period=500ms',
    ];
    const caA = await signingFlags('instance-a-ca');
    const caB = await signingFlags('instance-b-ca');
    const a = await startCli([...common, ...caA.flags]);
    running.push(a);
    const holderA = await eventually(async () => (await httpCall(a.url, 'GET', LEASE)).body?.spec?.holderIdentity || undefined, 'A to take the Lease');
    const b = await startCli([...common, ...caB.flags]);
    running.push(b);

    // While A holds the Lease, everything is signed by A, whichever instance the request went to.
    for (const [i, via] of [a, b, a, b].entries()) {
      const { request } = makeCertificateRequest({ commonName: `first-${i}` });
      expect((await httpCall(via.url, 'POST', CSRS, { body: csrBody(`first-${i}`, request, 'orch.io/kube-apiserver-client', ['client auth']) })).status).toBe(201);
      expect((await decide({ url: via.url }, `first-${i}`, 'Approved')).status).toBe(200);
      const csr = await waitForCsr({ url: b.url }, `first-${i}`, (c) => !!c.status?.certificate, 'was signed');
      expect(issuerOf(csr)).toBe(caA.caSubject);
    }
    expect((await httpCall(b.url, 'GET', LEASE)).body.spec.holderIdentity).toBe(holderA);

    // Requests approved just before the holder dies are signed once, by one of the two.
    for (let i = 0; i < 3; i++) {
      const { request } = makeCertificateRequest({ commonName: `racing-${i}` });
      expect((await httpCall(b.url, 'POST', CSRS, { body: csrBody(`racing-${i}`, request, 'orch.io/kube-apiserver-client', ['client auth']) })).status).toBe(201);
      expect((await decide({ url: b.url }, `racing-${i}`, 'Approved')).status).toBe(200);
    }
    await a.kill();

    const lease = await eventually(async () => {
      const l = (await httpCall(b.url, 'GET', LEASE)).body;
      return l?.spec?.holderIdentity && l.spec.holderIdentity !== holderA ? l : undefined;
    }, 'B to take the Lease over');
    expect(lease.spec.leaseTransitions).toBe(1);
    expect(lease.spec.leaseDurationSeconds).toBe(3);

    for (let i = 0; i < 3; i++) {
      const csr = await waitForCsr({ url: b.url }, `racing-${i}`, (c) => !!c.status?.certificate, 'was signed');
      expect([caA.caSubject, caB.caSubject]).toContain(issuerOf(csr));
      expect(Buffer.from(csr.status.certificate, 'base64').toString().match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
    }
    const { request } = makeCertificateRequest({ commonName: 'after' });
    expect((await httpCall(b.url, 'POST', CSRS, { body: csrBody('after', request, 'orch.io/kube-apiserver-client', ['client auth']) })).status).toBe(201);
    expect((await decide({ url: b.url }, 'after', 'Approved')).status).toBe(200);
    expect(issuerOf(await waitForCsr({ url: b.url }, 'after', (c) => !!c.status?.certificate, 'was signed by B'))).toBe(caB.caSubject);

    // The hand-over is recorded as Kubernetes records it: an Event on the Lease.
    const events = (await httpCall(b.url, 'GET', '/api/v1/namespaces/orch-system/events')).body.items as any[];
    const messages = events.filter((e) => e.reason === 'LeaderElection' && e.involvedObject.kind === 'Lease').map((e) => e.message);
    expect(messages).toContain(`${holderA} became leader`);
    expect(messages).toContain(`${lease.spec.holderIdentity} became leader`);
  }, 120_000);
});
