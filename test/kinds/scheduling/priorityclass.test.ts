/** PriorityClass (scheduling.orch.io/v1) over HTTP: the preemption policy's default, reserved names and values, immutable value and policy, kubectl's columns. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE } from '../core/helpers.js';

const PCS = '/apis/scheduling.orch.io/v1/priorityclasses';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';

describe('PriorityClass', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served cluster-wide in scheduling.orch.io/v1 (short name pc)', async () => {
    const entry = (await s.get('/apis/scheduling.orch.io/v1')).body.resources.find((r: any) => r.name === 'priorityclasses');
    expect(entry).toMatchObject({ kind: 'PriorityClass', namespaced: false, shortNames: ['pc'] });
  });

  it('defaults the preemption policy, prints Value and Global-Default', async () => {
    const made = await s.post(PCS, { metadata: { name: 'high' }, value: 100000, globalDefault: true });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ value: 100000, globalDefault: true, preemptionPolicy: 'PreemptLowerPriority' });
    const zero = await s.post(PCS, { metadata: { name: 'zero' } });
    expect(zero.status, zero.text).toBe(201);
    expect(zero.body.value).toBe(0);
    const row = (await s.get(`${PCS}/high`, { accept: TABLE })).body.rows[0].cells;
    expect(row.slice(0, 3)).toEqual(['high', 100000, true]);
  });

  it('reserves values above one billion and the system- prefix', async () => {
    expectCauses(await s.post(PCS, { metadata: { name: 'too-high' }, value: 1000000001 }), [
      { reason: 'FieldValueForbidden', field: 'value', message: 'Forbidden: maximum allowed value of a user defined priority is 1000000000' },
    ]);
    expectCauses(await s.post(PCS, { metadata: { name: 'system-mine' }, value: 5 }), [
      { reason: 'FieldValueForbidden', field: 'metadata.name', message: "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class" },
    ]);
    expectCauses(await s.post(PCS, { metadata: { name: 'system-node-critical' }, value: 5 }), [
      { field: 'metadata.name', message: "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000" },
    ]);
    // The system classes exist from the start; one deleted may be made again with its own value.
    expect((await s.get(`${PCS}/system-cluster-critical`)).body).toMatchObject({ value: 2000000000, preemptionPolicy: 'PreemptLowerPriority' });
    expect((await s.get(`${PCS}/system-node-critical`)).body).toMatchObject({ value: 2000001000 });
    expect((await s.del(`${PCS}/system-cluster-critical`)).status).toBe(200);
    expect((await s.post(PCS, { metadata: { name: 'system-cluster-critical' }, value: 2000000000 })).status).toBe(201);
    expectCauses(await s.post(PCS, { metadata: { name: 'bad-policy' }, value: 1, preemptionPolicy: 'Sometimes' }), [
      { reason: 'FieldValueNotSupported', field: 'preemptionPolicy', message: 'Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"' },
    ]);
  });

  it('keeps the value and the preemption policy; the description may change', async () => {
    expect((await s.post(PCS, { metadata: { name: 'fixed' }, value: 10, preemptionPolicy: 'Never' })).status).toBe(201);
    expectCauses(await s.patch(`${PCS}/fixed`, { value: 11, preemptionPolicy: 'PreemptLowerPriority' }, MERGE), [
      { reason: 'FieldValueForbidden', field: 'value', message: 'Forbidden: may not be changed in an update.' },
      { reason: 'FieldValueInvalid', field: 'preemptionPolicy', message: 'Invalid value: "PreemptLowerPriority": field is immutable' },
    ]);
    const described = await s.patch(`${PCS}/fixed`, { description: 'batch work' }, MERGE);
    expect(described.status, described.text).toBe(200);
    expect(described.body.metadata.generation).toBeUndefined();
  });
});
