/** PodDisruptionBudget (policy/v1) over HTTP: the zero status on create, Kubernetes' spec and status rules, a mutable spec, /status, kubectl's columns. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_SERVER_CONTROLLERS, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE } from '../core/helpers.js';

const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';
const pdb = (name: string, spec: Record<string, unknown>) => ({ metadata: { name }, spec });

describe('PodDisruptionBudget', () => {
  let s: TestServer;
  beforeAll(async () => {
    // The kind alone: these tests write status as the disruption controller would.
    s = await startTestServer({ controllerManager: { controllers: [...TEST_SERVER_CONTROLLERS, '-disruption'] } });
  });
  afterAll(() => s.close());

  it('is served in policy/v1 as poddisruptionbudgets (short name pdb) with /status', async () => {
    const resources = (await s.get('/apis/policy/v1')).body.resources;
    expect(resources.find((r: any) => r.name === 'poddisruptionbudgets')).toMatchObject({ kind: 'PodDisruptionBudget', namespaced: true, shortNames: ['pdb'] });
    expect(resources.map((r: any) => r.name)).toEqual(['poddisruptionbudgets', 'poddisruptionbudgets/status']);
    expect((await s.get('/apis')).body.groups.find((g: any) => g.name === 'policy').versions).toEqual([{ groupVersion: 'policy/v1', version: 'v1' }]);
  });

  it('starts with a zero status and generation 1, and prints N/A for the field not set', async () => {
    const made = await s.post(PDBS, { ...pdb('web', { maxUnavailable: '25%', selector: { matchLabels: { app: 'web' } } }), status: { disruptionsAllowed: 5 } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.metadata.generation).toBe(1);
    expect(made.body.status).toEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    const table = await s.get(`${PDBS}/web`, { accept: TABLE });
    expect(table.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age']);
    expect(table.body.rows[0].cells.slice(0, 4)).toEqual(['web', 'N/A', '25%', 0]);
  });

  it('refuses both bounds at once, bad counts and percentages, and bad selectors', async () => {
    expectCauses(await s.post(PDBS, pdb('both', { minAvailable: 1, maxUnavailable: 1 })), [
      { reason: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: {"minAvailable":1,"maxUnavailable":1}: minAvailable and maxUnavailable cannot be both set' },
    ]);
    expectCauses(await s.post(PDBS, pdb('bad', { minAvailable: '120%', selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } })), [
      { field: 'spec.minAvailable', message: 'Invalid value: "120%": must not be greater than 100%' },
      { reason: 'FieldValueRequired', field: 'spec.selector.matchExpressions[0].values', message: "Required value: must be specified when `operator` is 'In' or 'NotIn'" },
    ]);
    expectCauses(await s.post(PDBS, pdb('neg', { maxUnavailable: -1 })), [{ field: 'spec.maxUnavailable', message: 'Invalid value: -1: must be greater than or equal to 0' }]);
    expectCauses(await s.post(PDBS, pdb('word', { maxUnavailable: 'half' })), [
      {
        field: 'spec.maxUnavailable',
        message: "Invalid value: \"half\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      },
    ]);
  });

  it('lets the spec change (bumping the generation), keeps status on the main resource, and checks /status', async () => {
    expect((await s.post(PDBS, pdb('db', { minAvailable: 2, selector: { matchLabels: { app: 'db' } } }))).status).toBe(201);
    const changed = await s.patch(`${PDBS}/db`, { spec: { minAvailable: '50%' }, status: { expectedPods: 9 } }, MERGE);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.metadata.generation).toBe(2);
    expect(changed.body.spec.minAvailable).toBe('50%');
    expect(changed.body.status.expectedPods).toBe(0);
    const status = await s.patch(`${PDBS}/db/status`, { status: { observedGeneration: 2, disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, disruptedPods: { 'db-0': '2024-01-01T00:00:00Z' } } }, MERGE);
    expect(status.status, status.text).toBe(200);
    expect(status.body.metadata.generation).toBe(2);
    expect(status.body.status).toMatchObject({ disruptionsAllowed: 1, expectedPods: 3, disruptedPods: { 'db-0': '2024-01-01T00:00:00Z' } });
    expectCauses(await s.patch(`${PDBS}/db/status`, { status: { disruptionsAllowed: -1, conditions: [{ type: 'DisruptionAllowed', status: 'Maybe', reason: 'SufficientPods', message: '', lastTransitionTime: '2024-01-01T00:00:00Z' }] } }, MERGE), [
      { reason: 'FieldValueNotSupported', field: 'status.conditions[0].status', message: 'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"' },
      { field: 'status.disruptionsAllowed', message: 'Invalid value: -1: must be greater than or equal to 0' },
    ]);
    const row = (await s.get(`${PDBS}/db`, { accept: TABLE })).body.rows[0].cells;
    expect(row.slice(0, 4)).toEqual(['db', '50%', 'N/A', 1]);
  });
});
