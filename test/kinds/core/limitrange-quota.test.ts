/** LimitRange and ResourceQuota (core/v1) over HTTP: container defaults, bounds and names in Kubernetes' words; quota names, scopes, an empty status on create, /status, the quota columns. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE } from './helpers.js';

const LIMITS = '/api/v1/namespaces/default/limitranges';
const QUOTAS = '/api/v1/namespaces/default/resourcequotas';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';

describe('LimitRange and ResourceQuota', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('are served in core/v1 as limitranges (limits) and resourcequotas (quota, with /status)', async () => {
    const resources = (await s.get('/api/v1')).body.resources;
    expect(resources.find((r: any) => r.name === 'limitranges')).toMatchObject({ kind: 'LimitRange', namespaced: true, shortNames: ['limits'] });
    expect(resources.find((r: any) => r.name === 'resourcequotas')).toMatchObject({ kind: 'ResourceQuota', namespaced: true, shortNames: ['quota'] });
    expect(resources.find((r: any) => r.name === 'resourcequotas/status')).toMatchObject({ kind: 'ResourceQuota' });
  });

  it('LimitRange: a container item gets its default limit from max and default request from min', async () => {
    const made = await s.post(LIMITS, { metadata: { name: 'bounds' }, spec: { limits: [{ type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m' }, defaultRequest: { memory: '256Mi' } }, { type: 'Pod', max: { cpu: '4' } }] } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.spec.limits[0]).toEqual({
      type: 'Container',
      max: { cpu: '2', memory: '1Gi' },
      min: { cpu: '100m' },
      default: { cpu: '2', memory: '1Gi' },
      defaultRequest: { cpu: '2', memory: '256Mi' },
    });
    expect(made.body.spec.limits[1]).toEqual({ type: 'Pod', max: { cpu: '4' } });
    const table = await s.get(`${LIMITS}/bounds`, { accept: TABLE });
    expect(table.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Created At']);
  });

  it('LimitRange: types, names, bounds and ratios checked', async () => {
    expectCauses(
      await s.post(LIMITS, {
        metadata: { name: 'bad' },
        spec: {
          limits: [
            { type: 'Container', max: { cpu: '1' }, min: { cpu: '2' }, default: { cpu: '1' }, defaultRequest: { cpu: '1' } },
            { type: 'Pod', default: { cpu: '1' }, maxLimitRequestRatio: { cpu: '500m' } },
            { type: 'Container' },
            { type: 'Volume' },
            { type: 'PersistentVolumeClaim', max: { pods: '1' } },
          ],
        },
      }),
      [
        { field: 'spec.limits[0].min[cpu]', message: 'Invalid value: "2": min value 2 is greater than max value 1' },
        { field: 'spec.limits[0].defaultRequest[cpu]', message: 'Invalid value: "1": min value 2 is greater than default request value 1' },
        { field: 'spec.limits[0].default[cpu]', message: 'Invalid value: "2": min value 2 is greater than default value 1' },
        { reason: 'FieldValueForbidden', field: 'spec.limits[1].default', message: "Forbidden: may not be specified when `type` is 'Pod'" },
        { field: 'spec.limits[1].maxLimitRequestRatio[cpu]', message: 'Invalid value: "500m": ratio 500m is less than 1' },
        { reason: 'FieldValueDuplicate', field: 'spec.limits[2].type', message: 'Duplicate value: "Container"' },
        { field: 'spec.limits[3].type', message: 'Invalid value: "Volume": must be a standard limit type or fully qualified' },
        { reason: 'FieldValueRequired', field: 'spec.limits[4].limits', message: 'Required value: either minimum or maximum storage value is required, but neither was provided' },
      ],
    );
  });

  it('ResourceQuota: an empty status on create, checked names and scopes, fixed scopes, /status, its columns', async () => {
    const made = await s.post(QUOTAS, { metadata: { name: 'team' }, spec: { hard: { pods: '10', 'requests.cpu': '4', 'limits.memory': '8Gi' }, scopes: ['NotBestEffort'] }, status: { used: { pods: '3' } } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.status).toEqual({});
    expectCauses(await s.post(QUOTAS, { metadata: { name: 'bad' }, spec: { hard: { pods: '1.5', gpus: '1', 'secrets': '-1' }, scopes: ['BestEffort', 'NotBestEffort'] } }), [
      { field: 'spec.hard[gpus]', message: 'Invalid value: "gpus": must be a standard resource type or fully qualified' },
      { field: 'spec.hard[gpus]', message: 'Invalid value: "gpus": must be a standard resource for quota' },
      { field: 'spec.hard[pods]', message: 'Invalid value: "1500m": must be an integer' },
      { field: 'spec.hard[secrets]', message: 'Invalid value: "-1": must be greater than or equal to 0' },
      // secrets counts in neither scope: one error per scope.
      { field: 'spec.scopes', message: 'Invalid value: ["BestEffort","NotBestEffort"]: unsupported scope applied to resource' },
      { field: 'spec.scopes', message: 'Invalid value: ["BestEffort","NotBestEffort"]: unsupported scope applied to resource' },
      { field: 'spec.scopes', message: 'Invalid value: ["BestEffort","NotBestEffort"]: conflicting scopes' },
    ]);
    expectCauses(await s.post(QUOTAS, { metadata: { name: 'selector' }, spec: { hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'BestEffort', operator: 'In', values: ['x'] }, { scopeName: 'PriorityClass', operator: 'In' }] } } }), [
      { field: 'spec.scopeSelector.matchExpressions.operator', message: expect.stringContaining("Invalid value: \"In\": must be 'Exist' when scope is any of") },
      { reason: 'FieldValueRequired', field: 'spec.scopeSelector.matchExpressions.values', message: "Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector" },
    ]);
    expectCauses(await s.patch(`${QUOTAS}/team`, { spec: { scopes: ['Terminating'] } }, MERGE), [{ field: 'spec.scopes', message: 'Invalid value: ["Terminating"]: field is immutable' }]);
    const status = await s.patch(`${QUOTAS}/team/status`, { status: { hard: { pods: '10', 'requests.cpu': '4', 'limits.memory': '8Gi' }, used: { pods: '2', 'requests.cpu': '500m' } } }, MERGE);
    expect(status.status, status.text).toBe(200);
    const row = (await s.get(`${QUOTAS}/team`, { accept: TABLE })).body;
    expect(row.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Age', 'Request', 'Limit']);
    expect(row.rows[0].cells[2]).toBe('pods: 2/10, requests.cpu: 500m/4');
    expect(row.rows[0].cells[3]).toBe('limits.memory: 0/8Gi');
    expectCauses(await s.patch(`${QUOTAS}/team/status`, { status: { used: { pods: '-1' } } }, MERGE), [{ field: 'status.used[pods]', message: 'Invalid value: "-1": must be greater than or equal to 0' }]);
  });
});
