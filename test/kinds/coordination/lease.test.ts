/** Lease (coordination.orch.io/v1) over HTTP: discovery, the spec as sent, Kubernetes' two rules, the Holder column. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE } from '../core/helpers.js';

const LEASES = '/apis/coordination.orch.io/v1/namespaces/default/leases';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';

describe('Lease', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served namespaced in coordination.orch.io/v1, without short names or categories', async () => {
    const list = await s.get('/apis/coordination.orch.io/v1');
    expect(list.status).toBe(200);
    const entry = list.body.resources.find((r: any) => r.name === 'leases');
    expect(entry).toMatchObject({ kind: 'Lease', namespaced: true, singularName: 'lease' });
    expect(entry.shortNames).toBeUndefined();
    expect(entry.categories).toBeUndefined();
  });

  it('keeps the spec as sent, microsecond times included, with no generation', async () => {
    const spec = { holderIdentity: 'node-a', leaseDurationSeconds: 15, acquireTime: '2024-05-01T10:00:00.123456Z', renewTime: '2024-05-01T10:00:05.000001Z', leaseTransitions: 0 };
    const made = await s.post(LEASES, { metadata: { name: 'leader' }, spec });
    expect(made.status, made.text).toBe(201);
    expect(made.body.spec).toEqual(spec);
    expect(made.body.metadata.generation).toBeUndefined();
    const renewed = await s.patch(`${LEASES}/leader`, { spec: { renewTime: '2024-05-01T10:00:15.5Z' } }, MERGE);
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body.spec.renewTime).toBe('2024-05-01T10:00:15.500000Z');
    const table = await s.get(`${LEASES}/leader`, { accept: TABLE });
    expect(table.body.rows[0].cells.slice(0, 2)).toEqual(['leader', 'node-a']);
  });

  it('an empty lease is valid and shows an empty holder', async () => {
    expect((await s.post(LEASES, { metadata: { name: 'free' } })).status).toBe(201);
    const table = await s.get(`${LEASES}/free`, { accept: TABLE });
    expect(table.body.rows[0].cells[1]).toBe('');
  });

  it('refuses a duration that is not positive and a negative transition count, on create and update', async () => {
    expectCauses(await s.post(LEASES, { metadata: { name: 'bad' }, spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } }), [
      { reason: 'FieldValueInvalid', field: 'spec.leaseDurationSeconds', message: 'Invalid value: 0: must be greater than 0' },
      { reason: 'FieldValueInvalid', field: 'spec.leaseTransitions', message: 'Invalid value: -1: must be greater than or equal to 0' },
    ]);
    expect((await s.post(LEASES, { metadata: { name: 'ok' }, spec: { leaseDurationSeconds: 1 } })).status).toBe(201);
    expectCauses(await s.patch(`${LEASES}/ok`, { spec: { leaseDurationSeconds: -5 } }, MERGE), [
      { reason: 'FieldValueInvalid', field: 'spec.leaseDurationSeconds', message: 'Invalid value: -5: must be greater than 0' },
    ]);
    expect((await s.get(`${LEASES}/ok`)).body.spec.leaseDurationSeconds).toBe(1);
  });
});
