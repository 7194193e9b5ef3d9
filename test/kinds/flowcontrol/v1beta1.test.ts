/**
 * flowcontrol.apiserver.<domain>/v1beta1: served from the v1beta2 store through conversion,
 * deprecated (Warning header on every request, apiserver_requested_deprecated_apis in /metrics).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertFlowSchema, convertPriorityLevel } from '../../../src/apis/flowcontrol/v1beta1/conversion.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { warningsOf } from '../../rest/fixtures.js';

const G = 'flowcontrol.apiserver.orch.io';
const V1 = `/apis/${G}/v1beta1`;
const V2 = `/apis/${G}/v1beta2`;
const MERGE = 'application/merge-patch+json';
const warning = (kind: string) => `${G}/v1beta1 ${kind} is deprecated in v1.23+, unavailable in v1.26+; use ${G}/v1beta2 ${kind}`;

const fullFlowSchema = (apiVersion: string) => ({
  apiVersion,
  kind: 'FlowSchema',
  metadata: { name: 'full', labels: { a: 'b' }, annotations: { c: 'd' } },
  spec: {
    priorityLevelConfiguration: { name: 'workload' },
    matchingPrecedence: 500,
    distinguisherMethod: { type: 'ByNamespace' },
    rules: [
      {
        subjects: [
          { kind: 'User', user: { name: 'alice' } },
          { kind: 'Group', group: { name: 'devs' } },
          { kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: 'sa' } },
        ],
        resourceRules: [
          { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'], clusterScope: true, namespaces: ['default'] },
          { verbs: ['list'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] },
        ],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez/*'] }],
      },
    ],
  },
  status: { conditions: [{ type: 'Dangling', status: 'False', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'Found', message: 'ok' }] },
});

const fullPriorityLevel = (apiVersion: string) => ({
  apiVersion,
  kind: 'PriorityLevelConfiguration',
  metadata: { name: 'full' },
  spec: { type: 'Limited', limited: { assuredConcurrencyShares: 12, limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 4, queueLengthLimit: 20 } } } },
  status: { conditions: [{ type: 'ConcurrencyShared', status: 'True', lastTransitionTime: null, reason: 'R', message: 'm' }] },
});

describe('flowcontrol v1beta1 conversion (pure)', () => {
  it('round-trips every field of a FlowSchema and a PriorityLevelConfiguration, changing only apiVersion', () => {
    const fs = fullFlowSchema(`${G}/v1beta1`);
    const hub = convertFlowSchema(fs as any, `${G}/v1beta2`);
    expect(hub).toEqual({ ...fs, apiVersion: `${G}/v1beta2` });
    expect(convertFlowSchema(hub, `${G}/v1beta1`)).toEqual(fs);
    const pl = fullPriorityLevel(`${G}/v1beta1`);
    const plHub = convertPriorityLevel(pl as any, `${G}/v1beta2`);
    expect(plHub).toEqual({ ...pl, apiVersion: `${G}/v1beta2` });
    expect(convertPriorityLevel(plHub, `${G}/v1beta1`)).toEqual(pl);
  });

  it('keeps absent optional fields absent, and never shares or changes its input', () => {
    const pl = { apiVersion: `${G}/v1beta2`, kind: 'PriorityLevelConfiguration', metadata: { name: 'e' }, spec: { type: 'Exempt' }, status: {} };
    const frozen = structuredClone(pl);
    const out = convertPriorityLevel(pl as any, `${G}/v1beta1`);
    expect(out).toEqual({ ...pl, apiVersion: `${G}/v1beta1` });
    expect(pl).toEqual(frozen);
    (out.metadata as any).name = 'changed';
    expect(pl.metadata.name).toBe('e');
    const fs = { apiVersion: `${G}/v1beta2`, kind: 'FlowSchema', metadata: { name: 'f' }, spec: { priorityLevelConfiguration: { name: 'p' } }, status: {} };
    expect(convertFlowSchema(fs as any, `${G}/v1beta1`)).toEqual({ ...fs, apiVersion: `${G}/v1beta1` });
  });
});

describe('flowcontrol v1beta1 over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    // The kind alone: with APF off the server neither creates the bootstrap objects nor writes their conditions (test/flowcontrol/ covers both).
    s = await startTestServer({ enablePriorityAndFairness: false });
  });
  afterAll(() => s.close());

  it('is discoverable, with the same storage version hash as v1beta2', async () => {
    const list = await s.get(V1);
    expect(list.status).toBe(200);
    expect(list.body.groupVersion).toBe(`${G}/v1beta1`);
    const v2 = await s.get(V2);
    for (const name of ['flowschemas', 'prioritylevelconfigurations']) {
      const a = list.body.resources.find((r: any) => r.name === name);
      const b = v2.body.resources.find((r: any) => r.name === name);
      expect(a.storageVersionHash).toBe(b.storageVersionHash);
    }
    expect(list.body.resources.map((r: any) => r.name)).toContain('flowschemas/status');
  });

  it('stores what v1beta1 writes as v1beta2 and serves it back in either version without loss', async () => {
    const sent = fullFlowSchema(`${G}/v1beta1`);
    const created = await s.post(`${V1}/flowschemas`, { ...sent, status: undefined });
    expect(created.status, created.text).toBe(201);
    expect(created.body.apiVersion).toBe(`${G}/v1beta1`);
    expect(created.body.spec).toEqual(sent.spec);
    const st = await s.put(`${V1}/flowschemas/full/status`, { ...created.body, status: sent.status });
    expect(st.status, st.text).toBe(200);
    const asV2 = await s.get(`${V2}/flowschemas/full`);
    expect(asV2.body.apiVersion).toBe(`${G}/v1beta2`);
    expect(asV2.body.spec).toEqual(sent.spec);
    expect(asV2.body.status).toEqual(sent.status);
    const asV1 = await s.get(`${V1}/flowschemas/full`);
    expect({ ...asV1.body, metadata: undefined }).toEqual({ ...asV2.body, apiVersion: `${G}/v1beta1`, metadata: undefined });
    expect(asV1.body.metadata).toEqual(asV2.body.metadata);

    const plV2 = await s.post(`${V2}/prioritylevelconfigurations`, { ...fullPriorityLevel(`${G}/v1beta2`), status: undefined });
    expect(plV2.status, plV2.text).toBe(201);
    const plV1 = await s.get(`${V1}/prioritylevelconfigurations/full`);
    expect(plV1.body).toEqual({ ...plV2.body, apiVersion: `${G}/v1beta1` });
    const listed = await s.get(`${V1}/prioritylevelconfigurations`);
    expect(listed.body.apiVersion).toBe(`${G}/v1beta1`);
    expect(listed.body.kind).toBe('PriorityLevelConfigurationList');
    expect(listed.body.items.map((i: any) => i.apiVersion)).toEqual([`${G}/v1beta1`]);
  });

  it('applies v1beta2 defaults and validation to v1beta1 writes', async () => {
    const r = await s.post(`${V1}/prioritylevelconfigurations`, { metadata: { name: 'defaults' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.limited).toEqual({ assuredConcurrencyShares: 30, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } } });
    const bad = await s.post(`${V1}/flowschemas`, { metadata: { name: 'bad' }, spec: { priorityLevelConfiguration: {} } });
    expect(bad.status).toBe(422);
    expect(bad.body.details).toMatchObject({ group: G, kind: 'FlowSchema', name: 'bad' });
    // A body naming v1beta2 is refused at the v1beta1 endpoint.
    const wrong = await s.post(`${V1}/flowschemas`, { apiVersion: `${G}/v1beta2`, kind: 'FlowSchema', metadata: { name: 'w' }, spec: {} });
    expect(wrong.status).toBe(400);
  });

  it('answers every v1beta1 request with the deprecation warning, and none at v1beta2', async () => {
    const fsWarning = warning('FlowSchema');
    const plWarning = warning('PriorityLevelConfiguration');
    expect(warningsOf(await s.get(`${V1}/flowschemas`))).toEqual([fsWarning]);
    expect(warningsOf(await s.get(`${V1}/flowschemas/full`))).toEqual([fsWarning]);
    expect(warningsOf(await s.get(`${V1}/flowschemas/full/status`))).toEqual([fsWarning]);
    expect(warningsOf(await s.patch(`${V1}/flowschemas/full`, { metadata: { labels: { x: 'y' } } }, MERGE))).toEqual([fsWarning]);
    expect(warningsOf(await s.get(`${V1}/flowschemas/missing`))).toEqual([fsWarning]);
    expect(warningsOf(await s.get(`${V1}/prioritylevelconfigurations`))).toEqual([plWarning]);
    const created = await s.post(`${V1}/prioritylevelconfigurations`, { metadata: { name: 'warned' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } });
    expect(created.status).toBe(201);
    expect(warningsOf(created)).toEqual([plWarning]);
    expect(warningsOf(await s.del(`${V1}/prioritylevelconfigurations/warned`))).toEqual([plWarning]);
    const watch = await s.watch(`${V1}/flowschemas?watch=true`);
    expect(watch.status).toBe(200);
    const header = watch.headers.warning;
    watch.close();
    expect(String(header)).toContain(fsWarning);
    expect(warningsOf(await s.get(`${V2}/flowschemas`))).toEqual([]);
    expect(warningsOf(await s.get(`${V2}/prioritylevelconfigurations`))).toEqual([]);
  });

  it('sets apiserver_requested_deprecated_apis to 1 for each deprecated resource and subresource requested', async () => {
    const fresh = await startTestServer({ enablePriorityAndFairness: false });
    try {
      const metric = async () => (await fresh.get('/metrics')).text.split('\n').filter((l) => l.startsWith('apiserver_requested_deprecated_apis{'));
      await fresh.get(`${V2}/flowschemas`);
      expect(await metric()).toEqual([]);
      await fresh.get(`${V1}/flowschemas`);
      await fresh.get(`${V1}/flowschemas`);
      await fresh.get(`${V1}/prioritylevelconfigurations/none/status`);
      expect((await metric()).sort()).toEqual([
        `apiserver_requested_deprecated_apis{group="${G}",version="v1beta1",resource="flowschemas",subresource="",removed_release="1.26"} 1`,
        `apiserver_requested_deprecated_apis{group="${G}",version="v1beta1",resource="prioritylevelconfigurations",subresource="status",removed_release="1.26"} 1`,
      ]);
    } finally {
      await fresh.close();
    }
  });
});
