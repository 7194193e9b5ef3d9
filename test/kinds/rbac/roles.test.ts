/**
 * ClusterRole and Role over HTTP: rules (verbs required, resources or non-resource URLs but not
 * both, non-resource URLs only in ClusterRoles), aggregation rules, path-segment names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { causesOf, expectInvalid } from './helpers.js';

const GROUP = 'rbac.authorization.orch.io';
const CR = `/apis/${GROUP}/v1/clusterroles`;
const ROLES = `/apis/${GROUP}/v1/namespaces/team/roles`;

describe('ClusterRole', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('stores rules with apiGroups, resources, verbs and resourceNames', async () => {
    const rules = [
      { verbs: ['get', 'update'], apiGroups: ['', 'apps'], resources: ['configmaps'], resourceNames: ['settings'] },
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    ];
    const r = await s.post(CR, { metadata: { name: 'rules' }, rules });
    expect(r.status, r.text).toBe(201);
    expect(r.body.rules).toEqual(rules);
    expect((await s.get(`${CR}/rules`)).body.rules).toEqual(rules);
  });

  it('prints rules as null when there are none, as Kubernetes does', async () => {
    const r = await s.post(CR, { metadata: { name: 'empty' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toHaveProperty('rules', null);
  });

  it('requires verbs in every rule', async () => {
    const st = expectInvalid(await s.post(CR, { metadata: { name: 'no-verbs' }, rules: [{ apiGroups: [''], resources: ['pods'] }] }), 'ClusterRole', 'no-verbs');
    expect(causesOf(st)).toEqual([['FieldValueRequired', 'rules[0].verbs', 'Required value: verbs must contain at least one value']]);
  });

  it('requires apiGroups and resources in a resource rule', async () => {
    const st = expectInvalid(await s.post(CR, { metadata: { name: 'half' }, rules: [{ verbs: ['get'] }] }), 'ClusterRole', 'half');
    expect(causesOf(st)).toEqual([
      ['FieldValueRequired', 'rules[0].apiGroups', 'Required value: resource rules must supply at least one api group'],
      ['FieldValueRequired', 'rules[0].resources', 'Required value: resource rules must supply at least one resource'],
    ]);
  });

  it('accepts resourceNames across several resources, as Kubernetes does', async () => {
    const r = await s.post(CR, { metadata: { name: 'names' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['a'] }] });
    expect(r.status, r.text).toBe(201);
    expect(r.body.rules).toEqual([{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['a'] }]);
  });

  it('allows nonResourceURLs, but not together with resources', async () => {
    expect((await s.post(CR, { metadata: { name: 'urls' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/api/*'] }] })).status).toBe(201);
    const st = expectInvalid(
      await s.post(CR, { metadata: { name: 'both' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] }] }),
      'ClusterRole',
      'both',
    );
    expect(causesOf(st)).toEqual([['FieldValueInvalid', 'rules[0].nonResourceURLs', 'Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs']]);
  });

  it('takes an aggregation rule of label selectors', async () => {
    const aggregationRule = { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }, { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] }] };
    const r = await s.post(CR, { metadata: { name: 'aggregate' }, aggregationRule });
    expect(r.status, r.text).toBe(201);
    expect(r.body.aggregationRule).toEqual(aggregationRule);
  });

  it('requires at least one selector in an aggregation rule', async () => {
    const st = expectInvalid(await s.post(CR, { metadata: { name: 'agg-empty' }, aggregationRule: {} }), 'ClusterRole', 'agg-empty');
    expect(causesOf(st)).toEqual([['FieldValueRequired', 'aggregationRule.clusterRoleSelectors', 'Required value: at least one clusterRoleSelector required if aggregationRule is non-nil']]);
  });

  it('checks aggregation selectors', async () => {
    const st = expectInvalid(
      await s.post(CR, { metadata: { name: 'agg-bad' }, aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Near', values: ['b'] }] }] } }),
      'ClusterRole',
      'agg-bad',
    );
    expect(causesOf(st)).toEqual([
      ['FieldValueInvalid', 'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator', 'Invalid value: "Near": not a valid selector operator'],
      ['FieldValueInvalid', 'aggregationRule.clusterRoleSelectors[0]', 'Invalid value: "null": invalid label selector.'],
    ]);
  });

  it('takes names that are path segments (system:aggregate-to-reports)', async () => {
    expect((await s.post(CR, { metadata: { name: 'system:aggregate-to-reports' } })).status).toBe(201);
    const st = expectInvalid(await s.post(CR, { metadata: { name: '.' } }), 'ClusterRole', '.');
    expect(causesOf(st)).toEqual([['FieldValueInvalid', 'metadata.name', `Invalid value: ".": may not be '.'`]]);
  });

  it('is created by PUT', async () => {
    expect((await s.put(`${CR}/put-made`, { metadata: { name: 'put-made' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/version'] }] })).status).toBe(201);
  });
});

describe('Role', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it('lives in a namespace', async () => {
    const r = await s.post(ROLES, { metadata: { name: 'reader' }, rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }] });
    expect(r.status, r.text).toBe(201);
    expect(r.body.metadata.namespace).toBe('team');
  });

  it('may not name non-resource URLs', async () => {
    const st = expectInvalid(await s.post(ROLES, { metadata: { name: 'urls' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }), 'Role', 'urls');
    expect(causesOf(st)).toEqual([['FieldValueInvalid', 'rules[0].nonResourceURLs', 'Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs']]);
  });

  it('has no aggregation rule', async () => {
    const r = await s.post(`${ROLES}?fieldValidation=Strict`, { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{}] } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('unknown field "aggregationRule"');
  });
});
