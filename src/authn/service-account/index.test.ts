import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../test/helpers/chain-server.js';
import { staticLister } from '../../../test/helpers/static-lister.js';
import type { Pod } from '../../apis/core/v1/pod.js';
import type { Secret } from '../../apis/core/v1/secret.js';
import type { ServiceAccount } from '../../apis/core/v1/serviceaccount.js';
import { createApiNames } from '../../machinery/api-names.js';
import { unionTokenAuthenticators } from '../union.js';
import { serviceAccountTokens, resolveServiceAccountSettings, type ServiceAccountFlags } from './index.js';
import { signingKeyFromPem } from './keys.js';

const names = createApiNames();
const signal = new AbortController().signal;
const servingKeyPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }) as string;
const otherKeyPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }) as string;
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const T0 = new Date('2025-06-01T00:00:00Z');

function world(flags: ServiceAccountFlags = {}) {
  let now = T0;
  const logs: { level: string; msg: string }[] = [];
  const serviceAccounts = staticLister<ServiceAccount>([{ metadata: { name: 'robot', namespace: 'ns1', uid: 'sa-uid' } }]);
  const pods = staticLister<Pod>([{ metadata: { name: 'p1', namespace: 'ns1', uid: 'pod-uid' }, spec: { containers: [], serviceAccountName: 'robot' }, status: {} } as Pod]);
  const secrets = staticLister<Secret>([{ metadata: { name: 's1', namespace: 'ns1', uid: 'secret-uid' } }]);
  const settings = resolveServiceAccountSettings(flags, servingKeyPem);
  const tokens = serviceAccountTokens({ names, settings, getters: { serviceAccounts, pods, secrets }, log: memoryLogger(logs), now: () => now });
  const authenticator = unionTokenAuthenticators(tokens.authenticators);
  const issue = (extra: Partial<Parameters<NonNullable<typeof tokens.issuer>['issue']>[0]> = {}) =>
    tokens.issuer!.issue({ serviceAccount: { namespace: 'ns1', name: 'robot', uid: 'sa-uid' }, audiences: [ISSUER], expirationSeconds: 3600, ...extra }, now);
  return {
    tokens,
    logs,
    serviceAccounts,
    pods,
    secrets,
    issue,
    advance: (seconds: number) => void (now = new Date(now.getTime() + seconds * 1000)),
    authenticate: (token: string, audiences?: string[]) => authenticator.authenticateToken({ token, ...(audiences ? { audiences } : {}) }, signal),
  };
}

const errorOf = (r: { kind: string; error?: Error }) => (r.kind === 'error' ? r.error?.message : r.kind);

describe('bound service-account tokens', () => {
  it('prove system:serviceaccount:<ns>:<name> with the uid, the two groups and the audiences', async () => {
    const w = world();
    expect(await w.authenticate(await w.issue())).toEqual({
      kind: 'user',
      user: { username: 'system:serviceaccount:ns1:robot', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1'] },
      audiences: [ISSUER],
    });
  });

  it('carry Kubernetes\' claims under the domain\'s name, signed with the key id in the header', async () => {
    const w = world();
    const token = await w.issue({ pod: { name: 'p1', uid: 'pod-uid' } });
    const [header, payload] = token.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>);
    expect(header).toEqual({ alg: 'ES256', kid: signingKeyFromPem(servingKeyPem).keyId });
    const at = T0.getTime() / 1000;
    expect(payload).toEqual({
      aud: [ISSUER], exp: at + 3600, iat: at, nbf: at, iss: ISSUER, sub: 'system:serviceaccount:ns1:robot',
      'orch.io': { namespace: 'ns1', serviceaccount: { name: 'robot', uid: 'sa-uid' }, pod: { name: 'p1', uid: 'pod-uid' } },
    });
  });

  it('put the bound pod\'s name and uid in extra', async () => {
    const w = world();
    const r = await w.authenticate(await w.issue({ pod: { name: 'p1', uid: 'pod-uid' } }));
    expect(r.kind === 'user' && r.user.extra).toEqual({ 'authentication.orch.io/pod-name': ['p1'], 'authentication.orch.io/pod-uid': ['pod-uid'] });
  });

  it('expire a minute after exp (go-jose leeway), and are not valid a minute before nbf', async () => {
    const w = world();
    const token = await w.issue();
    w.advance(3600 + 60);
    expect((await w.authenticate(token)).kind).toBe('user');
    w.advance(1);
    expect(errorOf(await w.authenticate(token))).toBe('service account token has expired');
    const early = world();
    const future = await early.issue();
    early.advance(-61);
    expect(errorOf(await early.authenticate(future))).toBe('service account token is not valid yet');
  });

  it('stop working when the account, the bound Pod or Secret is gone or replaced (lookup is not optional for them)', async () => {
    for (const lookup of [true, false]) {
      const w = world({ lookup });
      const plain = await w.issue();
      const podBound = await w.issue({ pod: { name: 'p1', uid: 'pod-uid' } });
      const secretBound = await w.issue({ secret: { name: 's1', uid: 'secret-uid' } });
      w.pods.objects[0]!.metadata.uid = 'pod-uid-2';
      expect(errorOf(await w.authenticate(podBound))).toBe('pod UID (pod-uid-2) does not match service account pod ref claim (pod-uid)');
      w.pods.objects.length = 0;
      expect(errorOf(await w.authenticate(podBound))).toBe('service account token has been invalidated');
      w.secrets.objects.length = 0;
      expect(errorOf(await w.authenticate(secretBound))).toBe('service account token has been invalidated');
      w.serviceAccounts.objects[0]!.metadata.uid = 'other';
      expect(errorOf(await w.authenticate(plain))).toBe('service account UID (other) does not match claim (sa-uid)');
      w.serviceAccounts.objects.length = 0;
      expect(errorOf(await w.authenticate(plain))).toBe('serviceaccounts "robot" not found');
    }
  });

  it('count an object marked for deletion as gone only after the leeway', async () => {
    const w = world();
    const token = await w.issue();
    w.serviceAccounts.objects[0]!.metadata.deletionTimestamp = T0.toISOString();
    expect((await w.authenticate(token)).kind).toBe('user');
    w.advance(61);
    expect(errorOf(await w.authenticate(token))).toBe('service account ns1/robot has been deleted');
  });

  it('refuse audiences that were not asked for; a request without audiences asks for the API audiences', async () => {
    const w = world({ apiAudiences: ['api'] });
    const token = await w.issue({ audiences: ['vault'] });
    expect(errorOf(await w.authenticate(token))).toBe('token audiences ["vault"] is invalid for the target audiences ["api"]');
    expect(await w.authenticate(token, ['vault', 'x'])).toMatchObject({ kind: 'user', audiences: ['vault'] });
  });

  it('leave tokens of other issuers and non-JWTs to other authenticators; refuse forged ones', async () => {
    const w = world();
    const other = await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'ES256' }).setIssuer('https://elsewhere').sign(signingKeyFromPem(otherKeyPem).key);
    expect(await w.authenticate(other)).toEqual({ kind: 'no-opinion' });
    for (const malformed of ['abc', 'a.b', '{"iss":"x"}.a.b', 'a.b.c.d', `x.${Buffer.from(JSON.stringify({ iss: ISSUER })).toString('base64url')}.y`]) {
      expect(await w.authenticate(malformed), malformed).toEqual({ kind: 'no-opinion' });
    }
    const forged = await new SignJWT({ sub: 'system:serviceaccount:ns1:robot', 'orch.io': { namespace: 'ns1', serviceaccount: { name: 'robot', uid: 'sa-uid' } } })
      .setProtectedHeader({ alg: 'ES256', kid: signingKeyFromPem(servingKeyPem).keyId })
      .setIssuer(ISSUER).setAudience(ISSUER).setExpirationTime('1h')
      .sign(signingKeyFromPem(otherKeyPem).key);
    const r = await w.authenticate(forged);
    expect(errorOf(r)).toBe('token signature is invalid');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${forged.split('.')[1]}.`;
    expect(errorOf(await w.authenticate(unsigned))).toBe('token signature algorithm does not fit the key');
    const hmac = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer(ISSUER).sign(new TextEncoder().encode('secret'));
    expect(errorOf(await w.authenticate(hmac))).toBe('token signature algorithm does not fit the key');
  });

  it('are verified with every key file and accepted from every issuer; the first issues', async () => {
    const a = world({ issuers: ['https://new', ISSUER] });
    const token = await a.issue({ audiences: ['https://new'] });
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).iss).toBe('https://new');
    const b = world({ issuers: [ISSUER, 'https://new'] });
    expect((await b.authenticate(token)).kind).toBe('user');
  });
});

describe('legacy (Secret-based) service-account tokens', () => {
  async function legacyWorld(lookup: boolean) {
    const w = world({ lookup });
    const token = await w.tokens.signLegacyToken!({ namespace: 'ns1', name: 'robot', uid: 'sa-uid' }, 'robot-token');
    w.secrets.objects.push({ metadata: { name: 'robot-token', namespace: 'ns1', uid: 'u' }, type: 'orch.io/service-account-token', data: { token: Buffer.from(token).toString('base64') } });
    return { w, token };
  }

  it('carry the flat claims under the domain with issuer orch/serviceaccount, and no expiry', async () => {
    const { token } = await legacyWorld(true);
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).toEqual({
      iss: 'orch/serviceaccount',
      sub: 'system:serviceaccount:ns1:robot',
      'orch.io/serviceaccount/namespace': 'ns1',
      'orch.io/serviceaccount/secret.name': 'robot-token',
      'orch.io/serviceaccount/service-account.name': 'robot',
      'orch.io/serviceaccount/service-account.uid': 'sa-uid',
    });
  });

  it('prove the account while its Secret holds exactly the token; with lookup on, not after', async () => {
    const { w, token } = await legacyWorld(true);
    expect(await w.authenticate(token)).toMatchObject({ kind: 'user', user: { username: 'system:serviceaccount:ns1:robot', uid: 'sa-uid' }, audiences: [ISSUER] });
    w.secrets.objects[1]!.data = { token: Buffer.from('other').toString('base64') };
    expect(errorOf(await w.authenticate(token))).toBe("Token does not match server's copy");
    w.secrets.objects.length = 1;
    expect(errorOf(await w.authenticate(token))).toBe('Token has been invalidated');
  });

  it('with lookup off, outlive their Secret and account', async () => {
    const { w, token } = await legacyWorld(false);
    w.secrets.objects.length = 0;
    w.serviceAccounts.objects.length = 0;
    expect((await w.authenticate(token)).kind).toBe('user');
  });
});

describe('service-account settings', () => {
  it('default the issuer, the API audiences and both keys to the serving key', () => {
    const s = resolveServiceAccountSettings({}, servingKeyPem);
    expect(s.issuers).toEqual([ISSUER]);
    expect(s.apiAudiences).toEqual([ISSUER]);
    expect(s.verificationKeys.map((k) => k.keyId)).toEqual([signingKeyFromPem(servingKeyPem).keyId]);
    expect(s.signingKey?.keyId).toBe(signingKeyFromPem(servingKeyPem).keyId);
    expect(s.lookup).toBe(true);
    expect(resolveServiceAccountSettings({}, undefined).signingKey).toBeUndefined();
  });

  it.each<[ServiceAccountFlags, string]>([
    [{ issuers: ['a', 'a'] }, 'service-account-issuer "a" is already specified'],
    [{ issuers: [''] }, 'service-account-issuer should not be an empty string'],
    [{ issuers: ['http://[::1'] }, `service-account-issuer "http://[::1" contained a ':' but was not a valid URL`],
    [{ maxTokenExpirationSeconds: 60 }, 'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds'],
    [{ jwksUri: 'http://x/jwks' }, 'service-account-jwks-uri requires https scheme, parsed as: http://x/jwks'],
    [{ keyFiles: ['/nonexistent/key.pem'] }, 'error reading public key file /nonexistent/key.pem: --service-account-key-file /nonexistent/key.pem: no such file'],
    [{ signingKeyFile: '/nonexistent/key.pem' }, 'failed to parse --service-account-signing-key-file /nonexistent/key.pem: --service-account-signing-key-file /nonexistent/key.pem: no such file'],
  ])('refuse %j', (flags, message) => {
    expect(() => resolveServiceAccountSettings(flags, servingKeyPem)).toThrow(message);
  });
});
