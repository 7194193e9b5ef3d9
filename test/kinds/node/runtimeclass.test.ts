/** RuntimeClass (node.orch.io/v1) over HTTP: the handler as a DNS label and fixed, overhead and scheduling checked, the Handler column. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE } from '../core/helpers.js';

const RCS = '/apis/node.orch.io/v1/runtimeclasses';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';

describe('RuntimeClass', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served cluster-wide in node.orch.io/v1 only', async () => {
    expect((await s.get('/apis/node.orch.io/v1')).body.resources).toEqual([expect.objectContaining({ name: 'runtimeclasses', kind: 'RuntimeClass', namespaced: false })]);
    expect((await s.get('/apis/node.orch.io')).body.versions.map((v: any) => v.version)).toEqual(['v1']);
  });

  it('keeps what it is given and prints the handler', async () => {
    const rc = { metadata: { name: 'gvisor' }, handler: 'runsc', overhead: { podFixed: { cpu: '250m' } }, scheduling: { nodeSelector: { sandbox: 'true' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] } };
    const made = await s.post(RCS, rc);
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ handler: 'runsc', overhead: rc.overhead, scheduling: rc.scheduling });
    expect((await s.get(`${RCS}/gvisor`, { accept: TABLE })).body.rows[0].cells.slice(0, 2)).toEqual(['gvisor', 'runsc']);
  });

  it('checks the handler, the overhead and the tolerations, and keeps the handler fixed', async () => {
    expectCauses(
      await s.post(RCS, {
        metadata: { name: 'bad' },
        handler: 'Run.SC',
        overhead: { podFixed: { cpu: '-1', gpus: '1' } },
        scheduling: { tolerations: [{ key: 'a', operator: 'Equal', value: 'b' }, { key: 'a', operator: 'Equal', value: 'b', tolerationSeconds: 5 }] },
      }),
      [
        { field: 'handler', message: expect.stringContaining('Invalid value: "Run.SC": a lowercase RFC 1123 label must consist of') },
        { field: 'overhead.limits[cpu]', message: 'Invalid value: "-1": must be greater than or equal to 0' },
        { field: 'overhead.limits[gpus]', message: 'Invalid value: "gpus": must be a standard resource type or fully qualified' },
        { field: 'overhead.limits[gpus]', message: 'Invalid value: "gpus": must be a standard resource for containers' },
        { field: 'scheduling.tolerations.tolerations[1].effect', reason: 'FieldValueInvalid' },
        { reason: 'FieldValueDuplicate', field: 'scheduling.tolerations[1]' },
      ],
    );
    expect((await s.post(RCS, { metadata: { name: 'fixed' }, handler: 'runc' })).status).toBe(201);
    expectCauses(await s.patch(`${RCS}/fixed`, { handler: 'crun' }, MERGE), [{ field: 'handler', message: 'Invalid value: "crun": field is immutable' }]);
  });
});
