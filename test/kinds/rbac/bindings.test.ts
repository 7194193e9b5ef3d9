/**
 * ClusterRoleBinding and RoleBinding over HTTP: document 2's ClusterRoleBinding table (required
 * fields, subject kinds and their apiGroup defaults, the immutable roleRef, path-segment names),
 * and what Kubernetes' validation itself rejects among the rows document 2 gives the authorizer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { causesOf, expectInvalid } from './helpers.js';

const GROUP = 'rbac.authorization.orch.io';
const CRB = `/apis/${GROUP}/v1/clusterrolebindings`;
const RB = `/apis/${GROUP}/v1/namespaces/team/rolebindings`;
const MERGE = 'application/merge-patch+json';

const crb = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  metadata: { name },
  roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'view' },
  ...extra,
});

describe('ClusterRoleBinding', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served cluster-scoped under rbac.authorization.<domain>/v1', async () => {
    const r = await s.get(`/apis/${GROUP}/v1`);
    expect(r.status).toBe(200);
    const res = r.body.resources.find((x: any) => x.name === 'clusterrolebindings');
    expect(res).toMatchObject({ kind: 'ClusterRoleBinding', namespaced: false, singularName: 'clusterrolebinding' });
    expect(res.verbs).toEqual(expect.arrayContaining(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']));
    const created = await s.post(CRB, crb('served'));
    expect(created.status, created.text).toBe(201);
    expect(created.body.apiVersion).toBe(`${GROUP}/v1`);
    expect(created.body.metadata.namespace).toBeUndefined();
  });

  it('defaults roleRef.apiGroup and each subject apiGroup by kind', async () => {
    const r = await s.post(CRB, {
      metadata: { name: 'defaults' },
      roleRef: { kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
      ],
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.roleRef).toEqual({ apiGroup: GROUP, kind: 'ClusterRole', name: 'view' });
    expect(r.body.subjects).toEqual([
      { kind: 'User', apiGroup: GROUP, name: 'alice' },
      { kind: 'Group', apiGroup: GROUP, name: 'devs' },
      { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
    ]);
  });

  it('requires roleRef kind and name, and takes only the RBAC group', async () => {
    const st = expectInvalid(await s.post(CRB, { metadata: { name: 'no-ref' } }), 'ClusterRoleBinding', 'no-ref');
    expect(causesOf(st)).toEqual([
      ['FieldValueNotSupported', 'roleRef.kind', 'Unsupported value: "": supported values: "ClusterRole"'],
      ['FieldValueRequired', 'roleRef.name', 'Required value'],
    ]);
    const wrongGroup = expectInvalid(await s.post(CRB, crb('wrong-group', { roleRef: { apiGroup: 'example.com', kind: 'ClusterRole', name: 'view' } })), 'ClusterRoleBinding', 'wrong-group');
    expect(causesOf(wrongGroup)).toEqual([['FieldValueNotSupported', 'roleRef.apiGroup', `Unsupported value: "example.com": supported values: "${GROUP}"`]]);
  });

  it('may reference only a ClusterRole', async () => {
    const st = expectInvalid(await s.post(CRB, crb('to-role', { roleRef: { apiGroup: GROUP, kind: 'Role', name: 'view' } })), 'ClusterRoleBinding', 'to-role');
    expect(causesOf(st)).toEqual([['FieldValueNotSupported', 'roleRef.kind', 'Unsupported value: "Role": supported values: "ClusterRole"']]);
  });

  it('checks roleRef.name as a path segment', async () => {
    const st = expectInvalid(await s.post(CRB, crb('bad-ref-name', { roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'a%b' } })), 'ClusterRoleBinding', 'bad-ref-name');
    expect(causesOf(st)).toEqual([['FieldValueInvalid', 'roleRef.name', `Invalid value: "a%b": may not contain '%'`]]);
  });

  it('accepts a roleRef to a role that does not exist (the authorizer resolves it, not the API)', async () => {
    const r = await s.post(CRB, crb('dangling', { roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'no-such-role' } }));
    expect(r.status, r.text).toBe(201);
  });

  it('requires subject names', async () => {
    const st = expectInvalid(
      await s.post(CRB, crb('no-subject-name', { subjects: [{ kind: 'User' }, { kind: 'Group', name: '' }, { kind: 'ServiceAccount', namespace: 'x' }] })),
      'ClusterRoleBinding',
      'no-subject-name',
    );
    expect(causesOf(st)).toEqual([
      ['FieldValueRequired', 'subjects[0].name', 'Required value'],
      ['FieldValueInvalid', 'subjects[0].name', 'Invalid value: "": user name cannot be empty'],
      ['FieldValueRequired', 'subjects[1].name', 'Required value'],
      ['FieldValueInvalid', 'subjects[1].name', 'Invalid value: "": group name cannot be empty'],
      ['FieldValueRequired', 'subjects[2].name', 'Required value'],
    ]);
  });

  it('refuses an unknown subject kind (Kubernetes validation, before any authorizer sees it)', async () => {
    const st = expectInvalid(await s.post(CRB, crb('robot', { subjects: [{ kind: 'Robot', name: 'r2' }] })), 'ClusterRoleBinding', 'robot');
    expect(causesOf(st)).toEqual([['FieldValueNotSupported', 'subjects[0].kind', 'Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"']]);
  });

  it('requires a namespace on ServiceAccount subjects, a DNS subdomain name and the empty group', async () => {
    const st = expectInvalid(
      await s.post(CRB, crb('sa', { subjects: [{ kind: 'ServiceAccount', name: 'Builder_1', apiGroup: GROUP }] })),
      'ClusterRoleBinding',
      'sa',
    );
    const causes = causesOf(st);
    expect(causes.map((c) => c.slice(0, 2))).toEqual([
      ['FieldValueInvalid', 'subjects[0].name'],
      ['FieldValueNotSupported', 'subjects[0].apiGroup'],
      ['FieldValueRequired', 'subjects[0].namespace'],
    ]);
    expect(causes[0]?.[2]).toMatch(/^Invalid value: "Builder_1": a lowercase RFC 1123 subdomain must consist of/);
    expect(causes[1]?.[2]).toBe(`Unsupported value: "${GROUP}": supported values: ""`);
  });

  it('requires the RBAC group on User and Group subjects', async () => {
    const st = expectInvalid(await s.post(CRB, crb('user-group', { subjects: [{ kind: 'User', name: 'bob', apiGroup: 'example.com' }] })), 'ClusterRoleBinding', 'user-group');
    expect(causesOf(st)).toEqual([['FieldValueNotSupported', 'subjects[0].apiGroup', `Unsupported value: "example.com": supported values: "${GROUP}"`]]);
  });

  it('accepts a namespace on User and Group subjects (the authorizer reports it, not the API)', async () => {
    const r = await s.post(CRB, crb('user-ns', { subjects: [{ kind: 'User', name: 'bob', namespace: 'team' }, { kind: 'Group', name: 'g', namespace: 'team' }] }));
    expect(r.status, r.text).toBe(201);
    expect(r.body.subjects[0]).toEqual({ kind: 'User', apiGroup: GROUP, name: 'bob', namespace: 'team' });
  });

  it('never changes roleRef after create, but subjects may change', async () => {
    expect((await s.post(CRB, crb('fixed', { subjects: [{ kind: 'User', name: 'a' }] }))).status).toBe(201);
    const st = expectInvalid(await s.patch(`${CRB}/fixed`, { roleRef: { name: 'edit' } }, MERGE), 'ClusterRoleBinding', 'fixed');
    expect(causesOf(st)).toEqual([['FieldValueInvalid', 'roleRef', `Invalid value: {"apiGroup":"${GROUP}","kind":"ClusterRole","name":"edit"}: cannot change roleRef`]]);
    expect(st.message).toBe(
      `ClusterRoleBinding.${GROUP} "fixed" is invalid: roleRef: Invalid value: {"apiGroup":"${GROUP}","kind":"ClusterRole","name":"edit"}: cannot change roleRef`,
    );
    expect((await s.get(`${CRB}/fixed`)).body.roleRef.name).toBe('view');
    const moved = await s.patch(`${CRB}/fixed`, { subjects: [{ kind: 'Group', name: 'b' }] }, MERGE);
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.subjects).toEqual([{ kind: 'Group', apiGroup: GROUP, name: 'b' }]);
  });

  it('takes names that are path segments, not only DNS names', async () => {
    const r = await s.post(CRB, crb('system:controller:Job_Runner'));
    expect(r.status, r.text).toBe(201);
    for (const [name, msg] of [
      ['a%2Fb', "may not contain '%'"],
      ['..', "may not be '..'"],
    ] as const) {
      const st = expectInvalid(await s.post(CRB, crb(name)), 'ClusterRoleBinding', name);
      expect(causesOf(st)).toEqual([['FieldValueInvalid', 'metadata.name', `Invalid value: "${name}": ${msg}`]]);
    }
  });

  it('is created by PUT', async () => {
    const r = await s.put(`${CRB}/by-put`, crb('by-put'));
    expect(r.status, r.text).toBe(201);
  });
});

describe('RoleBinding', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it('references a Role or a ClusterRole, nothing else', async () => {
    for (const kind of ['Role', 'ClusterRole']) {
      const r = await s.post(RB, { metadata: { name: `to-${kind.toLowerCase()}` }, roleRef: { kind, name: 'x' } });
      expect(r.status, r.text).toBe(201);
      expect(r.body.metadata.namespace).toBe('team');
      expect(r.body.roleRef.apiGroup).toBe(GROUP);
    }
    const st = expectInvalid(await s.post(RB, { metadata: { name: 'to-binding' }, roleRef: { kind: 'RoleBinding', name: 'x' } }), 'RoleBinding', 'to-binding');
    expect(causesOf(st)).toEqual([['FieldValueNotSupported', 'roleRef.kind', 'Unsupported value: "RoleBinding": supported values: "Role", "ClusterRole"']]);
  });

  it('lets a ServiceAccount subject leave out its namespace', async () => {
    const r = await s.post(RB, { metadata: { name: 'sa' }, roleRef: { kind: 'Role', name: 'x' }, subjects: [{ kind: 'ServiceAccount', name: 'default' }] });
    expect(r.status, r.text).toBe(201);
    expect(r.body.subjects).toEqual([{ kind: 'ServiceAccount', name: 'default' }]);
  });

  it('never changes roleRef after create', async () => {
    expect((await s.post(RB, { metadata: { name: 'fixed' }, roleRef: { kind: 'Role', name: 'x' } })).status).toBe(201);
    const st = expectInvalid(await s.put(`${RB}/fixed`, { metadata: { name: 'fixed' }, roleRef: { kind: 'ClusterRole', name: 'x' } }), 'RoleBinding', 'fixed');
    expect(causesOf(st)).toEqual([['FieldValueInvalid', 'roleRef', `Invalid value: {"apiGroup":"${GROUP}","kind":"ClusterRole","name":"x"}: cannot change roleRef`]]);
  });
});

describe('with --api-domain=k8s.io', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
  });
  afterAll(() => s.close());

  it("speaks Kubernetes' RBAC group", async () => {
    const r = await s.post('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { metadata: { name: 'k' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'u' }] });
    expect(r.status, r.text).toBe(201);
    expect(r.body.roleRef.apiGroup).toBe('rbac.authorization.k8s.io');
    expect(r.body.subjects[0].apiGroup).toBe('rbac.authorization.k8s.io');
  });
});
