/**
 * A small OpenID Connect identity provider for tests: HTTPS on a free loopback port with a
 * certificate from a CA of its own (written to `caFile` for `--oidc-ca-file`), a discovery document
 * at `<issuer>/.well-known/openid-configuration`, its key set at `<issuer>/keys`, and `idToken()` to
 * sign ID tokens with its key. Counts the reads of each document, can rotate keys and go down.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createCertificateAuthority, issueCertificate } from '../../src/machinery/x509/certificates.js';

export interface IdentityProvider {
  issuer: string;
  caFile: string;
  caPem: string;
  clientId: string;
  reads: { discovery: number; keys: number };
  /** Signs an ID token: iss, aud (the client id), sub, iat and exp (10 minutes) unless `claims` says otherwise. */
  idToken(claims?: Record<string, unknown>, opts?: { kid?: string; signWith?: 'current' | 'stranger' }): Promise<string>;
  /** A new signing key with a new key id, published beside the old one. */
  rotate(): Promise<string>;
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function newKey(kid: string): Promise<SigningKey> {
  const pair = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey: pair.privateKey, publicJwk: { ...(await exportJWK(pair.publicKey)), kid, use: 'sig', alg: 'RS256' } };
}

export async function startIdentityProvider(opts: { clientId?: string; path?: string } = {}): Promise<IdentityProvider> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-idp-'));
  const ca = await createCertificateAuthority('test-idp-ca', 1);
  const serving = await issueCertificate(ca, { commonName: 'idp', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], usage: 'server', validForDays: 1 });
  const caFile = join(dir, 'idp-ca.crt');
  writeFileSync(caFile, ca.certPem);
  const keys: SigningKey[] = [await newKey('key-1')];
  const stranger = await newKey('key-1');
  const reads = { discovery: 0, keys: 0 };
  const path = opts.path ?? '/realms/test';
  let issuer = '';

  const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    const send = (body: unknown): void => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === `${path}/.well-known/openid-configuration`) {
      reads.discovery++;
      send({ issuer, jwks_uri: `${issuer}/keys`, id_token_signing_alg_values_supported: ['RS256'], response_types_supported: ['id_token'], subject_types_supported: ['public'] });
    } else if (req.url === `${path}/keys`) {
      reads.keys++;
      send({ keys: keys.map((k) => k.publicJwk) });
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  const clientId = opts.clientId ?? 'orch-cluster';

  return {
    issuer,
    caFile,
    caPem: ca.certPem,
    clientId,
    reads,
    async idToken(claims = {}, o = {}) {
      const current = keys.at(-1) as SigningKey;
      const key = o.signWith === 'stranger' ? stranger : current;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, aud: clientId, sub: 'jane', iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: o.kid ?? key.kid, typ: 'JWT' })
        .sign(key.privateKey);
    },
    async rotate() {
      const next = await newKey(`key-${keys.length + 1}`);
      keys.push(next);
      return next.kid;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
