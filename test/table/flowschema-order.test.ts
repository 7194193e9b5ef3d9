/**
 * A Table of FlowSchemas lists them as Kubernetes' printer does: by matching precedence, then by
 * name, in every served version; the plain list keeps the store's order (by name).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const GROUP = '/apis/flowcontrol.apiserver.orch.io';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';
// Created in an order that is neither the name order nor the precedence order; gamma takes the default 1000.
const SCHEMAS: [string, number | undefined][] = [['zeta', 10], ['gamma', undefined], ['alpha', 500], ['delta', 2], ['beta', 10]];
const EXPECTED = ['delta', 'beta', 'zeta', 'alpha', 'gamma'];

describe('FlowSchema Table rows', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    for (const [name, precedence] of SCHEMAS) {
      const spec = {
        priorityLevelConfiguration: { name: 'global-default' },
        ...(precedence === undefined ? {} : { matchingPrecedence: precedence }),
        rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }],
      };
      const r = await s.post(`${GROUP}/v1beta2/flowschemas`, { metadata: { name, labels: { order: 'test' } }, spec });
      expect(r.status, r.text).toBe(201);
    }
  });
  afterAll(() => s.close());

  for (const version of ['v1beta2', 'v1beta1']) {
    it(`${version}: sorts list rows by matchingPrecedence, then name`, async () => {
      const path = `${GROUP}/${version}/flowschemas?labelSelector=order%3Dtest`;
      const plain = await s.get(path);
      expect(plain.status, plain.text).toBe(200);
      expect(plain.body.items.map((i: any) => i.metadata.name)).toEqual(['alpha', 'beta', 'delta', 'gamma', 'zeta']);
      const table = await s.get(path, { accept: TABLE });
      expect(table.status, table.text).toBe(200);
      expect(table.body.rows.map((r: any) => [r.cells[0], r.cells[2]])).toEqual([['delta', 2], ['beta', 10], ['zeta', 10], ['alpha', 500], ['gamma', 1000]]);
      expect(table.body.rows.map((r: any) => r.object.metadata.name)).toEqual(EXPECTED);
    });
  }

  it('sorts the whole list, whatever else it holds', async () => {
    const table = await s.get(`${GROUP}/v1beta2/flowschemas`, { accept: TABLE });
    expect(table.status).toBe(200);
    const rows: [string, number][] = table.body.rows.map((r: any) => [r.cells[0], r.cells[2]]);
    const sorted = [...rows].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    expect(rows).toEqual(sorted);
    expect(rows.map((r) => r[0]).filter((n) => EXPECTED.includes(n))).toEqual(EXPECTED);
  });
});
