/**
 * Impersonation over HTTPS by a caller who authenticated with a token and holds only impersonate
 * grants (document 3, every header): users, groups, extras (percent-decoded keys) and uids checked
 * with resourceNames, a service account impersonated by its username with a namespaced grant, the
 * impersonated identity as the server then sees it (a dry-run CSR records its requester), 403s in
 * Kubernetes' words naming the first value refused, and 400 for headers without a user.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall, startTestServer, type Reply, type Target, type TestServer } from '../helpers/server.js';
import { letEveryoneAskWhoami, whoami } from '../helpers/whoami.js';
import { RBAC_V1, clusterRole, clusterRoleBinding, eventually, role, roleBinding, userSubject } from './helpers.js';

const AUTHN = 'authentication.orch.io';
const TOKEN = 'imp-token-0123456789';
let s: TestServer;
let dir: string;
let imp: Target;

/** Headers of the caller, with repeats kept as separate lines (Impersonate-Group). */
const asImp = (headers: Record<string, string | string[]>) => ({ Authorization: `Bearer ${TOKEN}`, ...headers });
const call = (headers: Record<string, string | string[]>, path = '/api/v1/namespaces/team/configmaps'): Promise<Reply> => httpCall(imp, 'GET', path, { headers: asImp(headers) });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-impersonation-'));
  writeFileSync(join(dir, 'tokens.csv'), `${TOKEN},imp,9\n`);
  s = await startTestServer({ tls: true, storageBackend: 'memory', dataDir: join(dir, 'data'), tokenAuthFile: join(dir, 'tokens.csv') });
  imp = { url: s.url, tls: { ca: s.tls!.ca as string } };
  await letEveryoneAskWhoami(s.target);
  expect((await s.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
  const setup: [string, unknown][] = [
    [`${RBAC_V1}/clusterroles`, clusterRole('impersonator', [
      { verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['ivy'] },
      { verbs: ['impersonate'], apiGroups: [''], resources: ['groups'], resourceNames: ['qa'] },
      { verbs: ['impersonate'], apiGroups: [AUTHN], resources: ['userextras/scopes'], resourceNames: ['view'] },
      { verbs: ['impersonate'], apiGroups: [AUTHN], resources: ['userextras/acme.com/project'], resourceNames: ['apollo'] },
      { verbs: ['impersonate'], apiGroups: [AUTHN], resources: ['uids'], resourceNames: ['u-1'] },
    ])],
    [`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('imp', 'impersonator', [userSubject('imp')])],
    // A service account is impersonated in its namespace: a grant in team does not reach other namespaces.
    [`${RBAC_V1}/namespaces/team/roles`, role('sa-impersonator', [{ verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['robot'] }])],
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('imp', 'Role', 'sa-impersonator', [userSubject('imp')])],
  ];
  for (const [path, body] of setup) expect((await s.post(path, body)).status, path).toBe(201);
  // Once impersonation is granted, the refusal names the service account, not imp.
  await eventually(async () => String((await call({ 'Impersonate-User': 'system:serviceaccount:team:robot' })).body?.message).includes('User "system:serviceaccount:team:robot"'), 'the grants are in effect');
});
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('impersonation over HTTPS', () => {
  it('acts as the user, groups, extras and uid granted; the impersonated user is in system:authenticated', async () => {
    const { reply, user } = await whoami(imp, asImp({ 'Impersonate-User': 'ivy', 'Impersonate-Group': 'qa', 'Impersonate-Extra-Scopes': 'view', 'Impersonate-Extra-Acme.com%2Fproject': 'apollo', 'Impersonate-Uid': 'u-1' }) as Record<string, string>);
    expect(reply.status, reply.text).toBe(201);
    expect(user).toEqual({ username: 'ivy', uid: 'u-1', groups: ['qa', 'system:authenticated'], extra: { scopes: ['view'], 'acme.com/project': ['apollo'] } });
  });

  it('acts as a service account by its username, with its groups', async () => {
    const { user } = await whoami(imp, asImp({ 'Impersonate-User': 'system:serviceaccount:team:robot' }) as Record<string, string>);
    expect(user).toEqual({ username: 'system:serviceaccount:team:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] });
  });

  it('runs the rest of the request as the impersonated user', async () => {
    const r = await call({ 'Impersonate-User': 'ivy' });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('configmaps is forbidden: User "ivy" cannot list resource "configmaps" in API group "" in the namespace "team"');
  });

  it.each<[string, Record<string, string | string[]>, string]>([
    ['a user not granted', { 'Impersonate-User': 'root' }, 'users "root" is forbidden: User "imp" cannot impersonate resource "users" in API group "" at the cluster scope'],
    ['a group not granted (the first refused is named)', { 'Impersonate-User': 'ivy', 'Impersonate-Group': ['qa', 'ops'] }, 'groups "ops" is forbidden: User "imp" cannot impersonate resource "groups" in API group "" at the cluster scope'],
    ['an extra value not granted', { 'Impersonate-User': 'ivy', 'Impersonate-Extra-Scopes': 'admin' }, `userextras.${AUTHN} "admin" is forbidden: User "imp" cannot impersonate resource "userextras/scopes" in API group "${AUTHN}" at the cluster scope`],
    ['an extra key not granted', { 'Impersonate-User': 'ivy', 'Impersonate-Extra-Reason': 'view' }, `userextras.${AUTHN} "view" is forbidden: User "imp" cannot impersonate resource "userextras/reason" in API group "${AUTHN}" at the cluster scope`],
    ['a uid not granted', { 'Impersonate-User': 'ivy', 'Impersonate-Uid': 'u-2' }, `uids.${AUTHN} "u-2" is forbidden: User "imp" cannot impersonate resource "uids" in API group "${AUTHN}" at the cluster scope`],
    ['a service account of another namespace', { 'Impersonate-User': 'system:serviceaccount:other:robot' }, 'serviceaccounts "robot" is forbidden: User "imp" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "other"'],
  ])('refuses %s with 403 in Kubernetes words', async (_what, headers, message) => {
    const r = await call(headers);
    expect(r.status, r.text).toBe(403);
    expect(r.body).toMatchObject({ reason: 'Forbidden', message });
  });

  it.each<[string, Record<string, string>]>([
    ['a group', { 'Impersonate-Group': 'qa' }],
    ['an extra', { 'Impersonate-Extra-Scopes': 'view' }],
    ['a uid', { 'Impersonate-Uid': 'u-1' }],
  ])('answers 400 to %s without Impersonate-User', async (_what, headers) => {
    const r = await call(headers);
    expect(r.status).toBe(400);
    expect(r.body.reason).toBe('BadRequest');
    expect(r.body.message).toMatch(/without impersonating a user: add the Impersonate-User header$/);
  });
});
