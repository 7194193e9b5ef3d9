/** FlowSchema (flowcontrol.apiserver.<domain>/v1beta2): defaults and Kubernetes' validation over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectStatus } from '../../rest/fixtures.js';

const FS = '/apis/flowcontrol.apiserver.orch.io/v1beta2/flowschemas';
const MERGE = 'application/merge-patch+json';
const group = (name: string) => ({ kind: 'Group', group: { name } });
const nonResource = { verbs: ['get'], nonResourceURLs: ['/healthz'] };
const allResources = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] };
const spec = (extra: Record<string, unknown> = {}, rule: Record<string, unknown> = {}) => ({
  priorityLevelConfiguration: { name: 'workload' },
  rules: [{ subjects: [group('system:authenticated')], nonResourceRules: [nonResource], ...rule }],
  ...extra,
});

describe('FlowSchema', () => {
  let s: TestServer;
  let n = 0;
  const create = (body: unknown, name = `fs-${++n}`) => s.post(FS, { metadata: { name }, spec: body });
  const invalid = async (body: unknown, name?: string) => expectStatus(await create(body, name), 422, 'Invalid').details.causes;

  beforeAll(async () => {
    // The kind alone: with APF off the server neither creates the bootstrap objects nor writes their conditions (test/flowcontrol/ covers both).
    s = await startTestServer({ enablePriorityAndFairness: false });
  });
  afterAll(() => s.close());

  it('is served cluster-scoped, defaults matchingPrecedence to 1000 and stores the full schema', async () => {
    const body = spec(
      { distinguisherMethod: { type: 'ByNamespace' } },
      {
        subjects: [
          { kind: 'User', user: { name: 'alice' } },
          group('*'),
          { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } },
          { kind: 'ServiceAccount', serviceAccount: { namespace: 'apps', name: 'builder' } },
        ],
        resourceRules: [{ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods', 'deployments/scale'], namespaces: ['default', 'team-a'] }, allResources],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/', '/healthz/*', '/metrics'] }],
      },
    );
    const r = await create(body);
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec).toEqual({ ...body, matchingPrecedence: 1000 });
    expect(r.body.metadata.generation).toBe(1);
    const list = await s.get('/apis/flowcontrol.apiserver.orch.io/v1beta2');
    expect(list.body.resources.find((x: any) => x.name === 'flowschemas')).toMatchObject({ namespaced: false, kind: 'FlowSchema' });
  });

  it('keeps matchingPrecedence within 1 to 10000, with 1 only for exempt', async () => {
    const at = 'spec.matchingPrecedence';
    expect(await invalid(spec({ matchingPrecedence: -5 }))).toEqual([{ reason: 'FieldValueInvalid', field: at, message: 'Invalid value: -5: must be a positive value' }]);
    expect(await invalid(spec({ matchingPrecedence: 10001 }))).toEqual([{ reason: 'FieldValueInvalid', field: at, message: 'Invalid value: 10001: must not be greater than 10000' }]);
    expect(await invalid(spec({ matchingPrecedence: 1 }))).toEqual([
      { reason: 'FieldValueInvalid', field: at, message: "Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1" },
    ]);
    expect((await create(spec({ matchingPrecedence: 10000 }))).status).toBe(201);
    expect((await create(spec({ matchingPrecedence: 2 }))).status).toBe(201);
  });

  it('requires the priority level name, a DNS subdomain', async () => {
    expect(await invalid(spec({ priorityLevelConfiguration: {} }))).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.priorityLevelConfiguration.name', message: 'Required value: must reference a priority level' },
    ]);
    expect(await invalid(spec({ priorityLevelConfiguration: { name: 'Bad_Level' } }))).toEqual([
      expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec.priorityLevelConfiguration.name' }),
    ]);
  });

  it('accepts distinguisherMethod ByUser or ByNamespace only', async () => {
    expect(await invalid(spec({ distinguisherMethod: { type: 'ByGroup' } }))).toEqual([
      { reason: 'FieldValueNotSupported', field: 'spec.distinguisherMethod.type', message: 'Unsupported value: {"type":"ByGroup"}: supported values: "ByNamespace", "ByUser"' },
    ]);
    expect((await create(spec({ distinguisherMethod: { type: 'ByUser' } }))).status).toBe(201);
  });

  it('needs subjects and at least one resource or non-resource rule in each rule', async () => {
    expect(await invalid({ priorityLevelConfiguration: { name: 'p' }, rules: [{ subjects: [] }] })).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.rules[0].subjects', message: 'Required value: subjects must contain at least one value' },
      { reason: 'FieldValueRequired', field: 'spec.rules[0]', message: 'Required value: at least one of resourceRules and nonResourceRules has to be non-empty' },
    ]);
  });

  it('checks subjects: kind User, Group or ServiceAccount with the matching member only', async () => {
    const subjects = [
      { kind: 'Robot' },
      { kind: 'User' },
      { kind: 'User', user: { name: '' }, group: { name: 'g' } },
      { kind: 'Group', serviceAccount: { namespace: 'a', name: 'b' }, user: { name: 'u' } },
      { kind: 'ServiceAccount', serviceAccount: { name: 'Bad_Name' }, group: { name: 'g' } },
      { kind: 'ServiceAccount', serviceAccount: { namespace: 'Bad_NS', name: '' } },
    ];
    const at = (i: number) => `spec.rules[0].subjects[${i}]`;
    expect(await invalid(spec({}, { subjects }))).toEqual([
      { reason: 'FieldValueNotSupported', field: `${at(0)}.kind`, message: 'Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"' },
      { reason: 'FieldValueRequired', field: `${at(1)}.user`, message: "Required value: user is required when subject kind is 'User'" },
      { reason: 'FieldValueRequired', field: `${at(2)}.user.name`, message: 'Required value' },
      { reason: 'FieldValueForbidden', field: `${at(2)}.group`, message: "Forbidden: group is forbidden when subject kind is not 'Group'" },
      { reason: 'FieldValueRequired', field: `${at(3)}.group`, message: "Required value: group is required when subject kind is 'Group'" },
      { reason: 'FieldValueForbidden', field: `${at(3)}.serviceAccount`, message: "Forbidden: serviceAccount is forbidden when subject kind is not 'ServiceAccount'" },
      { reason: 'FieldValueForbidden', field: `${at(3)}.user`, message: "Forbidden: user is forbidden when subject kind is not 'User'" },
      expect.objectContaining({ reason: 'FieldValueInvalid', field: `${at(4)}.serviceAccount.name` }),
      { reason: 'FieldValueRequired', field: `${at(4)}.serviceAccount.namespace`, message: 'Required value: must specify namespace for service account' },
      { reason: 'FieldValueForbidden', field: `${at(4)}.group`, message: "Forbidden: group is forbidden when subject kind is not 'Group'" },
      { reason: 'FieldValueRequired', field: `${at(5)}.serviceAccount.name`, message: 'Required value' },
      expect.objectContaining({ reason: 'FieldValueInvalid', field: `${at(5)}.serviceAccount.namespace` }),
    ]);
  });

  it('checks resource rules: verbs, groups, resources, and namespaces unless cluster-scoped', async () => {
    const resourceRules = [
      { verbs: [], apiGroups: [], resources: [], namespaces: [] },
      { verbs: ['*', 'get'], apiGroups: ['*', 'apps'], resources: ['*', 'pods'], namespaces: ['*', 'default'] },
      { verbs: ['get', 'fly'], apiGroups: ['apps'], resources: ['pods'], namespaces: ['Bad_NS'] },
      { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'], clusterScope: true },
    ];
    const at = (i: number) => `spec.rules[0].resourceRules[${i}]`;
    expect(await invalid(spec({}, { resourceRules }))).toEqual([
      { reason: 'FieldValueRequired', field: `${at(0)}.verbs`, message: 'Required value: verbs must contain at least one value' },
      { reason: 'FieldValueRequired', field: `${at(0)}.apiGroups`, message: 'Required value: resource rules must supply at least one api group' },
      { reason: 'FieldValueRequired', field: `${at(0)}.resources`, message: 'Required value: resource rules must supply at least one resource' },
      { reason: 'FieldValueRequired', field: `${at(0)}.namespaces`, message: 'Required value: resource rules that are not cluster scoped must supply at least one namespace' },
      { reason: 'FieldValueInvalid', field: `${at(1)}.verbs`, message: `Invalid value: ["*","get"]: if '*' is present, must not specify other verbs` },
      { reason: 'FieldValueInvalid', field: `${at(1)}.apiGroups`, message: `Invalid value: ["*","apps"]: if '*' is present, must not specify other api groups` },
      { reason: 'FieldValueInvalid', field: `${at(1)}.resources`, message: `Invalid value: ["*","pods"]: if '*' is present, must not specify other resources` },
      { reason: 'FieldValueInvalid', field: `${at(1)}.namespaces`, message: `Invalid value: ["*","default"]: if '*' is present, must not specify other namespaces` },
      {
        reason: 'FieldValueNotSupported',
        field: `${at(2)}.verbs`,
        message:
          'Unsupported value: ["get","fly"]: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
      },
      {
        reason: 'FieldValueInvalid',
        field: `${at(2)}.namespaces[0]`,
        message: expect.stringMatching(/^Invalid value: "Bad_NS": each member of this list must be '\*' or a DNS-1123 label; a lowercase RFC 1123 label/),
      },
    ]);
  });

  it('checks non-resource rules: verbs and URLs ending in at most one /*', async () => {
    const nonResourceRules = [
      { verbs: [], nonResourceURLs: [] },
      { verbs: ['get'], nonResourceURLs: ['*', '/x'] },
      { verbs: ['get'], nonResourceURLs: ['', 'healthz', '/a b', '/a//b', '/a*', '/a/*/b/*', '/ok/*', '/'] },
    ];
    const at = (i: number) => `spec.rules[0].nonResourceRules[${i}]`;
    const urls = `${at(2)}.nonResourceURLs`;
    expect(await invalid(spec({}, { nonResourceRules }))).toEqual([
      { reason: 'FieldValueRequired', field: `${at(0)}.verbs`, message: 'Required value: verbs must contain at least one value' },
      { reason: 'FieldValueRequired', field: `${at(0)}.nonResourceURLs`, message: 'Required value: nonResourceURLs must contain at least one value' },
      { reason: 'FieldValueInvalid', field: `${at(1)}.nonResourceURLs`, message: `Invalid value: ["*","/x"]: if '*' is present, must not specify other non-resource URLs` },
      { reason: 'FieldValueInvalid', field: `${urls}[0]`, message: 'Invalid value: "": must not be empty' },
      { reason: 'FieldValueInvalid', field: `${urls}[1]`, message: 'Invalid value: "healthz": must start with slash' },
      { reason: 'FieldValueInvalid', field: `${urls}[2]`, message: 'Invalid value: "/a b": must not contain white-space' },
      { reason: 'FieldValueInvalid', field: `${urls}[3]`, message: 'Invalid value: "/a//b": must not contain double slash' },
      { reason: 'FieldValueInvalid', field: `${urls}[4]`, message: 'Invalid value: "/a*": wildcard can only do suffix matching' },
      { reason: 'FieldValueInvalid', field: `${urls}[5]`, message: 'Invalid value: "/a/*/b/*": wildcard can only do suffix matching' },
    ]);
  });

  it('holds the mandatory exempt and catch-all schemas to their fixed specs', async () => {
    const everything = { resourceRules: [allResources], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] };
    const exempt = { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 1, rules: [{ subjects: [group('system:masters')], ...everything }] };
    expect((await create({ ...exempt, distinguisherMethod: { type: 'ByUser' } }, 'exempt')).status).toBe(422);
    expect((await create(exempt, 'exempt')).status).toBe(201);
    const catchAll = {
      priorityLevelConfiguration: { name: 'catch-all' },
      matchingPrecedence: 10000,
      distinguisherMethod: { type: 'ByUser' },
      rules: [{ subjects: [group('system:unauthenticated'), group('system:authenticated')], ...everything }],
    };
    const wrongOrder = { ...catchAll, rules: [{ subjects: [group('system:authenticated'), group('system:unauthenticated')], ...everything }] };
    expect(await invalid(wrongOrder, 'catch-all')).toEqual([
      expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec', message: expect.stringMatching(/: spec of 'catch-all' must equal the fixed value$/) }),
    ]);
    expect((await create(catchAll, 'catch-all')).status).toBe(201);
    expectStatus(await s.patch(`${FS}/catch-all`, { spec: { matchingPrecedence: 9000 } }, MERGE), 422, 'Invalid');
  });

  it('writes status only through /status, which keeps spec and metadata; generation follows the spec', async () => {
    expect((await create(spec(), 'st')).status).toBe(201);
    const conditions = [{ type: 'Dangling', status: 'False', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'Found', message: 'ok' }];
    const st = await s.patch(`${FS}/st/status`, { metadata: { annotations: { x: 'y' } }, spec: { matchingPrecedence: 5 }, status: { conditions } }, MERGE);
    expect(st.status, st.text).toBe(200);
    expect(st.body.status.conditions).toEqual(conditions);
    expect(st.body.spec.matchingPrecedence).toBe(1000);
    expect(st.body.metadata.annotations).toBeUndefined();
    const main = await s.patch(`${FS}/st`, { spec: { matchingPrecedence: 5 }, status: null }, MERGE);
    expect(main.body.status.conditions).toEqual(conditions);
    expect(main.body.metadata.generation).toBe(2);
    const dup = await s.patch(`${FS}/st/status`, { status: { conditions: [...conditions, { type: 'Dangling' }] } }, MERGE);
    expect(expectStatus(dup, 422, 'Invalid').details.causes).toEqual([{ reason: 'FieldValueDuplicate', field: 'status.conditions[1].type', message: 'Duplicate value: "Dangling"' }]);
  });
});
