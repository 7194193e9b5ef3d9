/** PriorityLevelConfiguration (flowcontrol.apiserver.<domain>/v1beta2): document 2's rows over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectStatus } from '../../rest/fixtures.js';

const PL = '/apis/flowcontrol.apiserver.orch.io/v1beta2/prioritylevelconfigurations';
const MERGE = 'application/merge-patch+json';
const queue = (queuing: Record<string, unknown> = {}) => ({ type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing } } });

describe('PriorityLevelConfiguration', () => {
  let s: TestServer;
  let n = 0;
  const create = (spec: unknown, name = `pl-${++n}`) => s.post(PL, { metadata: { name }, spec });
  const invalid = async (spec: unknown, name?: string) => expectStatus(await create(spec, name), 422, 'Invalid').details.causes;

  beforeAll(async () => {
    // The kind alone: with APF off the server neither creates the bootstrap objects nor writes their conditions (test/flowcontrol/ covers both).
    s = await startTestServer({ enablePriorityAndFairness: false });
  });
  afterAll(() => s.close());

  it('is served cluster-scoped with /status, as the preferred version of its group', async () => {
    const group = await s.get('/apis/flowcontrol.apiserver.orch.io');
    expect(group.body.preferredVersion).toEqual({ groupVersion: 'flowcontrol.apiserver.orch.io/v1beta2', version: 'v1beta2' });
    expect(group.body.versions.map((v: any) => v.version)).toEqual(['v1beta2', 'v1beta1']);
    const list = await s.get('/apis/flowcontrol.apiserver.orch.io/v1beta2');
    const names = list.body.resources.map((r: any) => r.name);
    expect(names).toEqual(['flowschemas', 'flowschemas/status', 'prioritylevelconfigurations', 'prioritylevelconfigurations/status']);
    expect(list.body.resources.find((r: any) => r.name === 'prioritylevelconfigurations')).toMatchObject({ namespaced: false, kind: 'PriorityLevelConfiguration' });
  });

  it('defaults assuredConcurrencyShares 30 and, when queuing is given, handSize 8, queueLengthLimit 50, queues 64', async () => {
    const r = await create(queue());
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec).toEqual({
      type: 'Limited',
      limited: { assuredConcurrencyShares: 30, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } } },
    });
    expect(r.body.metadata.generation).toBe(1);
    const reject = await create({ type: 'Limited', limited: { assuredConcurrencyShares: 7, limitResponse: { type: 'Reject' } } });
    expect(reject.body.spec.limited).toEqual({ assuredConcurrencyShares: 7, limitResponse: { type: 'Reject' } });
  });

  it('requires a type of Exempt or Limited, Exempt only for the level named exempt', async () => {
    expect(await invalid({})).toEqual([
      { reason: 'FieldValueNotSupported', field: 'spec.type', message: 'Unsupported value: "": supported values: "Exempt", "Limited"' },
    ]);
    expect(await invalid({ type: 'Exempt' })).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.type', message: `Invalid value: "Exempt": type must be 'Exempt' if and only if name is 'exempt'` },
    ]);
    expect(await invalid(queue(), 'exempt')).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.type', message: `Invalid value: "Limited": type must be 'Exempt' if and only if name is 'exempt'` },
      expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec', message: expect.stringMatching(/spec of 'exempt' must equal the fixed value$/) }),
    ]);
  });

  it('needs limited if and only if the type is Limited', async () => {
    expect(await invalid({ type: 'Limited' })).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.limited', message: 'Required value: must not be empty when type is Limited' },
    ]);
    expect(await invalid({ ...queue(), type: 'Exempt' }, 'exempt')).toEqual([
      { reason: 'FieldValueForbidden', field: 'spec.limited', message: 'Forbidden: must be nil if the type is not Limited' },
      expect.objectContaining({ field: 'spec' }),
    ]);
  });

  it('needs queuing for the Queue response only, and a response type of Queue or Reject', async () => {
    expect(await invalid({ type: 'Limited', limited: { limitResponse: { type: 'Queue' } } })).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.limited.limitResponse.queuing', message: 'Required value: must not be empty if limited.limitResponse.type is Limited' },
    ]);
    expect(await invalid({ type: 'Limited', limited: { limitResponse: { type: 'Reject', queuing: {} } } })).toEqual([
      { reason: 'FieldValueForbidden', field: 'spec.limited.limitResponse.queuing', message: 'Forbidden: must be nil if limited.limitResponse.type is not Limited' },
    ]);
    expect(await invalid({ type: 'Limited', limited: {} })).toEqual([
      { reason: 'FieldValueNotSupported', field: 'spec.limited.limitResponse.type', message: 'Unsupported value: "": supported values: "Queue", "Reject"' },
    ]);
  });

  it('keeps every number positive', async () => {
    const spec = { type: 'Limited', limited: { assuredConcurrencyShares: -1, limitResponse: { type: 'Queue', queuing: { queues: -2, handSize: -3, queueLengthLimit: -4 } } } };
    const q = 'spec.limited.limitResponse.queuing';
    expect(await invalid(spec)).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.limited.assuredConcurrencyShares', message: 'Invalid value: -1: must be positive' },
      { reason: 'FieldValueInvalid', field: `${q}.queueLengthLimit`, message: 'Invalid value: -4: must be positive' },
      { reason: 'FieldValueInvalid', field: `${q}.queues`, message: 'Invalid value: -2: must be positive' },
      { reason: 'FieldValueInvalid', field: `${q}.handSize`, message: 'Invalid value: -3: must be positive' },
    ]);
  });

  it('keeps handSize at most queues, within 60 bits of shuffle-sharding entropy, and queues at most 10^7', async () => {
    const q = 'spec.limited.limitResponse.queuing';
    expect(await invalid(queue({ queues: 4, handSize: 5 }))).toEqual([
      { reason: 'FieldValueInvalid', field: `${q}.handSize`, message: 'Invalid value: 5: should not be greater than queues (4)' },
    ]);
    // ceil(log2(128) * 9) = 63 bits: too many; handSize 8 needs 56.
    expect(await invalid(queue({ queues: 128, handSize: 9 }))).toEqual([
      { reason: 'FieldValueInvalid', field: `${q}.handSize`, message: 'Invalid value: 9: required entropy bits of deckSize 128 and handSize 9 should not be greater than 60' },
    ]);
    expect((await create(queue({ queues: 128, handSize: 8 }))).status).toBe(201);
    expect((await create(queue({ queues: 1, handSize: 1 }))).status).toBe(201);
    expect(await invalid(queue({ queues: 10_000_001, handSize: 1 }))).toEqual([
      { reason: 'FieldValueInvalid', field: `${q}.queues`, message: 'Invalid value: 10000001: must not be greater than 10000000' },
    ]);
  });

  it('holds the mandatory exempt and catch-all levels to their fixed specs', async () => {
    expect((await create({ type: 'Exempt' }, 'exempt')).status).toBe(201);
    const catchAll = { type: 'Limited', limited: { assuredConcurrencyShares: 5, limitResponse: { type: 'Reject' } } };
    expect((await create({ ...catchAll, limited: { ...catchAll.limited, assuredConcurrencyShares: 6 } }, 'catch-all')).status).toBe(422);
    const created = await create(catchAll, 'catch-all');
    expect(created.status, created.text).toBe(201);
    const st = expectStatus(await s.patch(`${PL}/catch-all`, { spec: { limited: { assuredConcurrencyShares: 10 } } }, MERGE), 422, 'Invalid');
    expect(st.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec',
        message: `Invalid value: {"type":"Limited","limited":{"assuredConcurrencyShares":10,"limitResponse":{"type":"Reject"}}}: spec of 'catch-all' must equal the fixed value`,
      },
    ]);
  });

  it('writes status.conditions only through /status, which keeps spec and metadata; generation follows the spec', async () => {
    const created = await s.post(PL, { metadata: { name: 'st', labels: { a: '1' } }, spec: queue(), status: { conditions: [{ type: 'X', status: 'True' }] } });
    expect(created.status).toBe(201);
    expect(created.body.status).toEqual({});
    const conditions = [{ type: 'ConcurrencyShared', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'Because', message: 'm' }];
    const st = await s.patch(`${PL}/st/status`, { metadata: { labels: { a: '2' } }, spec: { limited: { assuredConcurrencyShares: 99 } }, status: { conditions } }, MERGE);
    expect(st.status, st.text).toBe(200);
    expect(st.body.status.conditions).toEqual(conditions);
    expect(st.body.spec.limited.assuredConcurrencyShares).toBe(30);
    expect(st.body.metadata.labels).toEqual({ a: '1' });
    expect(st.body.metadata.generation).toBe(1);
    const main = await s.patch(`${PL}/st`, { spec: { limited: { assuredConcurrencyShares: 40 } }, status: { conditions: [] } }, MERGE);
    expect(main.body.status.conditions).toEqual(conditions);
    expect(main.body.metadata.generation).toBe(2);
  });

  it('refuses conditions without a type or with a repeated type', async () => {
    expect((await create(queue(), 'cond')).status).toBe(201);
    const r = await s.put(`${PL}/cond/status`, {
      metadata: { name: 'cond' },
      spec: queue(),
      status: { conditions: [{ type: 'A', status: 'True' }, { type: 'A', status: 'False' }, { status: 'Unknown' }] },
    });
    expect(expectStatus(r, 422, 'Invalid').details.causes).toEqual([
      { reason: 'FieldValueDuplicate', field: 'status.conditions[1].type', message: 'Duplicate value: "A"' },
      { reason: 'FieldValueRequired', field: 'status.conditions[2].type', message: 'Required value: must not be empty' },
    ]);
  });
});
