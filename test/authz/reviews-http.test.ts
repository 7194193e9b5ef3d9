/**
 * The access-review APIs answer as the chain decides: SubjectAccessReview for anyone (asked by an
 * administrator), LocalSubjectAccessReview within a namespace, SelfSubjectAccessReview and
 * SelfSubjectRulesReview for the caller, with evaluationError where RBAC met a bad binding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { AUTHZ_V1, RBAC, RBAC_V1, caller, clusterRoleBinding, eventually, role, roleBinding, userSubject } from './helpers.js';

let s: TestServer;
const podsIn = (namespace: string, verb = 'list') => ({ resourceAttributes: { namespace, verb, resource: 'pods' } });

beforeAll(async () => {
  s = await startTestServer();
  expect((await s.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
  expect((await s.post(`${RBAC_V1}/namespaces/team/roles`, role('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/log'] }]))).status).toBe(201);
  expect((await s.post(`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('alice-reads', 'Role', 'pod-reader', [userSubject('alice')]))).status).toBe(201);
  expect((await s.post(`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('alice-dangling', 'Role', 'gone', [userSubject('alice')]))).status).toBe(201);
  await eventually(async () => (await caller(s, 'alice').get('/api/v1/namespaces/team/pods')).status === 200, 'alice may list pods');
});
afterAll(() => s.close());

describe('SubjectAccessReview', () => {
  it('answers for another user as the chain would, with RBAC reason and evaluationError', async () => {
    const allowed = await s.post(`${AUTHZ_V1}/subjectaccessreviews`, { spec: { user: 'alice', ...podsIn('team') } });
    expect(allowed.status, allowed.text).toBe(201);
    expect(allowed.body).toMatchObject({
      apiVersion: 'authorization.orch.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'alice', resourceAttributes: { namespace: 'team', verb: 'list', resource: 'pods' } },
      status: { allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-reads/team" of Role "pod-reader" to User "alice"' },
    });
    const refused = await s.post(`${AUTHZ_V1}/subjectaccessreviews`, { spec: { user: 'alice', ...podsIn('team', 'delete') } });
    expect(refused.body.status).toEqual({ allowed: false, reason: `RBAC: role.${RBAC} "gone" not found`, evaluationError: `role.${RBAC} "gone" not found` });
    const other = await s.post(`${AUTHZ_V1}/subjectaccessreviews`, { spec: { user: 'alice', ...podsIn('default') } });
    expect(other.body.status).toEqual({ allowed: false });
    const masters = await s.post(`${AUTHZ_V1}/subjectaccessreviews`, { spec: { user: 'x', groups: ['system:masters'], ...podsIn('default', 'delete') } });
    expect(masters.body.status.allowed).toBe(true);
    const sub = await s.post(`${AUTHZ_V1}/subjectaccessreviews`, { spec: { user: 'alice', resourceAttributes: { namespace: 'team', verb: 'get', resource: 'pods', subresource: 'log', name: 'p' } } });
    expect(sub.body.status.allowed).toBe(true);
    const path = await s.post(`${AUTHZ_V1}/subjectaccessreviews`, { spec: { user: 'alice', groups: ['system:authenticated'], nonResourceAttributes: { path: '/version', verb: 'get' } } });
    expect(path.body.status).toMatchObject({ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' });
  });

  it('refuses a spec without attributes or subject, and a review with metadata, as Kubernetes', async () => {
    const r = await s.post(`${AUTHZ_V1}/subjectaccessreviews`, { spec: {} });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'SubjectAccessReview.authorization.orch.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    );
    const both = await s.post(`${AUTHZ_V1}/subjectaccessreviews`, { spec: { user: 'a', ...podsIn('x'), nonResourceAttributes: { path: '/', verb: 'get' } } });
    expect(both.status).toBe(422);
    expect(both.body.details.causes[0]).toMatchObject({ field: 'spec.nonResourceAttributes', message: expect.stringMatching(/cannot be specified in combination with resourceAttributes$/) });
    const named = await s.post(`${AUTHZ_V1}/subjectaccessreviews`, { metadata: { name: 'x' }, spec: { user: 'a', ...podsIn('x') } });
    expect(named.status).toBe(422);
    expect(named.body.details.causes[0]).toMatchObject({ field: 'metadata', message: expect.stringMatching(/must be empty$/) });
  });

  it('is itself authorized: a user without the grant may not ask about others', async () => {
    const r = await caller(s, 'alice').post(`${AUTHZ_V1}/subjectaccessreviews`, { spec: { user: 'bob', ...podsIn('team') } });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('subjectaccessreviews.authorization.orch.io is forbidden: User "alice" cannot create resource "subjectaccessreviews" in API group "authorization.orch.io" at the cluster scope');
  });

  it('is served for create only, and discovery says so', async () => {
    expect((await s.get(`${AUTHZ_V1}/subjectaccessreviews`)).status).toBe(405);
    const doc = (await s.get(AUTHZ_V1)).body;
    expect(doc.resources.map((r: any) => [r.name, r.namespaced, r.verbs])).toEqual([
      ['localsubjectaccessreviews', true, ['create']],
      ['selfsubjectaccessreviews', false, ['create']],
      ['selfsubjectrulesreviews', false, ['create']],
      ['subjectaccessreviews', false, ['create']],
    ]);
  });
});

describe('LocalSubjectAccessReview', () => {
  it('answers within its namespace, and refuses another namespace in the spec', async () => {
    const r = await s.post(`${AUTHZ_V1}/namespaces/team/localsubjectaccessreviews`, { spec: { user: 'alice', ...podsIn('team') } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ metadata: { namespace: 'team' }, status: { allowed: true } });
    const other = await s.post(`${AUTHZ_V1}/namespaces/team/localsubjectaccessreviews`, { spec: { user: 'alice', ...podsIn('default') } });
    expect(other.status).toBe(422);
    expect(other.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.resourceAttributes.namespace', message: 'Invalid value: "default": must match metadata.namespace' }]);
    const nonResource = await s.post(`${AUTHZ_V1}/namespaces/team/localsubjectaccessreviews`, { spec: { user: 'alice', nonResourceAttributes: { path: '/', verb: 'get' } } });
    expect(nonResource.status).toBe(422);
  });

  it('namespace admins may ask it (the admin role), and not the cluster-wide kind', async () => {
    expect((await s.post(`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('boss', 'ClusterRole', 'admin', [userSubject('boss')]))).status).toBe(201);
    const boss = caller(s, 'boss');
    await eventually(async () => (await boss.post(`${AUTHZ_V1}/namespaces/team/localsubjectaccessreviews`, { spec: { user: 'alice', ...podsIn('team') } })).status === 201, 'boss may ask');
    expect((await boss.post(`${AUTHZ_V1}/subjectaccessreviews`, { spec: { user: 'alice', ...podsIn('team') } })).status).toBe(403);
  });
});

describe('SelfSubjectAccessReview and SelfSubjectRulesReview', () => {
  it('answer for the caller (basic-user grants them to every authenticated user)', async () => {
    const alice = caller(s, 'alice');
    const yes = await alice.post(`${AUTHZ_V1}/selfsubjectaccessreviews`, { spec: podsIn('team') });
    expect(yes.status, yes.text).toBe(201);
    expect(yes.body.status.allowed).toBe(true);
    const no = await alice.post(`${AUTHZ_V1}/selfsubjectaccessreviews`, { spec: podsIn('default', 'create') });
    expect(no.body.status).toEqual({ allowed: false });
  });

  it('list the caller\'s rules in a namespace, with the evaluation errors', async () => {
    const r = await caller(s, 'alice').post(`${AUTHZ_V1}/selfsubjectrulesreviews`, { spec: { namespace: 'team' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec).toEqual({});
    expect(r.body.status.incomplete).toBe(false);
    expect(r.body.status.evaluationError).toBe(`role.${RBAC} "gone" not found`);
    expect(r.body.status.resourceRules).toContainEqual({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/log'] });
    expect(r.body.status.resourceRules).toContainEqual({ verbs: ['create'], apiGroups: ['authorization.orch.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] });
    expect(r.body.status.nonResourceRules).toContainEqual({ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] });
    const none = await caller(s, 'alice').post(`${AUTHZ_V1}/selfsubjectrulesreviews`, { spec: {} });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('no namespace on request');
  });

  it('follow a ClusterRoleBinding made a moment ago', async () => {
    expect((await s.post(`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('alice-views', 'view', [userSubject('alice')]))).status).toBe(201);
    await eventually(async () => (await caller(s, 'alice').post(`${AUTHZ_V1}/selfsubjectaccessreviews`, { spec: podsIn('default') })).body.status.allowed === true, 'alice may list pods everywhere');
  });
});
