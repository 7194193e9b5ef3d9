/**
 * API Priority and Fairness over HTTPS with real users (static tokens), a real authorization webhook
 * that holds each request 150 ms, and a small server concurrency limit: the configuration objects
 * at start and their upkeep, Dangling conditions, the PF headers, 429 with Retry-After, watches
 * that count only while they start, the metrics and the debug dumps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FC, eventually, levelAndSchema, metricSum, startFlowControlServer, type FlowControlServer } from './helpers.js';

let f: FlowControlServer;
const USERS = ['tina', 'wally', 'stranger'];

beforeAll(async () => {
  // SCL 4: the suggested levels' 245 shares and a test level's 100 give it ceil(4 * 100 / 345) = 2 seats.
  f = await startFlowControlServer(USERS, 150, { maxRequestsInflight: 3, maxMutatingRequestsInflight: 1 });
});
afterAll(() => f?.close());

const names = (r: { body: { items: { metadata: { name: string } }[] } }) => r.body.items.map((i) => i.metadata.name).sort();

describe('the configuration objects', () => {
  it('the mandatory and suggested objects of 1.25 exist at start, annotated for auto-update', async () => {
    const levels = await f.as('admin', 'GET', `${FC}/prioritylevelconfigurations`);
    expect(names(levels)).toEqual(['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
    const schemas = await f.as('admin', 'GET', `${FC}/flowschemas`);
    expect(names(schemas)).toEqual([
      'catch-all',
      'endpoint-controller',
      'exempt',
      'global-default',
      'kube-controller-manager',
      'kube-scheduler',
      'orch-system-service-accounts',
      'probes',
      'service-accounts',
      'system-leader-election',
      'system-node-high',
      'system-nodes',
      'workload-leader-election',
    ]);
    for (const o of [...levels.body.items, ...schemas.body.items]) expect(o.metadata.annotations).toEqual({ 'apf.orch.io/autoupdate-spec': 'true' });
    const globalDefault = levels.body.items.find((l: { metadata: { name: string } }) => l.metadata.name === 'global-default');
    expect(globalDefault.spec).toEqual({ type: 'Limited', limited: { assuredConcurrencyShares: 20, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } } } });
    // Served in both versions of 1.25.
    expect((await f.as('admin', 'GET', '/apis/flowcontrol.apiserver.orch.io/v1beta1/flowschemas/exempt')).status).toBe(200);
  });

  it('puts back a deleted object, and the spec of one annotated "true", but keeps the spec of one annotated "false"', async () => {
    const merge = 'application/merge-patch+json';
    const changed = { spec: { limited: { assuredConcurrencyShares: 7 } } };
    expect((await f.as('admin', 'PATCH', `${FC}/prioritylevelconfigurations/node-high`, { body: changed, contentType: merge })).status).toBe(200);
    const kept = { ...changed, metadata: { annotations: { 'apf.orch.io/autoupdate-spec': 'false' } } };
    expect((await f.as('admin', 'PATCH', `${FC}/prioritylevelconfigurations/workload-low`, { body: kept, contentType: merge })).status).toBe(200);
    expect((await f.as('admin', 'DELETE', `${FC}/prioritylevelconfigurations/leader-election`)).status).toBe(200);
    const shares = async (name: string): Promise<number | undefined> => (await f.as('admin', 'GET', `${FC}/prioritylevelconfigurations/${name}`)).body?.spec?.limited?.assuredConcurrencyShares;
    await eventually(async () => (await shares('leader-election')) === 10, 'leader-election to be created again');
    await eventually(async () => (await shares('node-high')) === 40, 'node-high to be put back');
    expect(await shares('workload-low')).toBe(7);
  });

  it('writes the Dangling condition of each FlowSchema, following its level', async () => {
    const orphan = levelAndSchema('missing-level', ['nobody'], 1).schema;
    expect((await f.as('admin', 'POST', `${FC}/flowschemas`, { body: { ...orphan, metadata: { name: 'orphan' } } })).status).toBe(201);
    const dangling = async () => (await f.as('admin', 'GET', `${FC}/flowschemas/orphan`)).body.status?.conditions?.find((c: { type: string }) => c.type === 'Dangling');
    await eventually(async () => (await dangling())?.status === 'True', 'Dangling True');
    expect(await dangling()).toMatchObject({
      reason: 'NotFound',
      message: 'This FlowSchema references the PriorityLevelConfiguration object named "missing-level" but there is no such object',
    });
    expect((await f.as('admin', 'POST', `${FC}/prioritylevelconfigurations`, { body: levelAndSchema('missing-level', [], 1).level })).status).toBe(201);
    await eventually(async () => (await dangling())?.status === 'False', 'Dangling False');
    expect(await dangling()).toMatchObject({ reason: 'Found', message: 'This FlowSchema references the PriorityLevelConfiguration object named "missing-level" and it exists' });
    const exempt = (await f.as('admin', 'GET', `${FC}/flowschemas/exempt`)).body;
    expect(exempt.status.conditions).toEqual([expect.objectContaining({ type: 'Dangling', status: 'False', reason: 'Found' })]);
  });
});

describe('requests', () => {
  it('name the UIDs of their FlowSchema and priority level in headers', async () => {
    const uid = async (path: string) => (await f.as('admin', 'GET', `${FC}/${path}`)).body.metadata.uid;
    const mine = await f.as('tina', 'GET', '/api/v1/namespaces/default/configmaps');
    expect(mine.status).toBe(200);
    expect(mine.headers['x-orch-pf-flowschema-uid']).toBe(await uid('flowschemas/global-default'));
    expect(mine.headers['x-orch-pf-prioritylevel-uid']).toBe(await uid('prioritylevelconfigurations/global-default'));
    const admins = await f.as('admin', 'GET', '/api/v1/namespaces/default/configmaps');
    expect(admins.headers['x-orch-pf-flowschema-uid']).toBe(await uid('flowschemas/exempt'));
    expect(admins.headers['x-orch-pf-prioritylevel-uid']).toBe(await uid('prioritylevelconfigurations/exempt'));
  });

  it('a level that rejects: 300 parallel requests, at most its ACV at once, the rest 429 with Retry-After and Kubernetes\' message', async () => {
    const { level, schema } = levelAndSchema('reject-wally', ['wally'], 100);
    expect((await f.as('admin', 'POST', `${FC}/prioritylevelconfigurations`, { body: level })).status).toBe(201);
    expect((await f.as('admin', 'POST', `${FC}/flowschemas`, { body: schema })).status).toBe(201);
    await eventually(async () => (await f.as('wally', 'GET', '/version')).headers['x-orch-pf-flowschema-uid'] === (await f.as('admin', 'GET', `${FC}/flowschemas/reject-wally`)).body.metadata.uid, 'the new schema to apply');
    const replies = await Promise.all(Array.from({ length: 300 }, () => f.as('wally', 'GET', '/api/v1/namespaces/default/configmaps')));
    const rejected = replies.filter((r) => r.status === 429);
    expect(replies.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
    expect(rejected.length).toBeGreaterThan(200);
    expect(f.peak('wally')).toBeLessThanOrEqual(2);
    for (const r of rejected) {
      expect(r.headers['retry-after']).toBe('1');
      expect(r.body).toMatchObject({ kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'Too many requests, please try again later.', details: { retryAfterSeconds: 1 } });
      expect(r.headers['x-orch-pf-flowschema-uid']).toBeTruthy();
    }
    const metrics = (await f.as('admin', 'GET', '/metrics')).text;
    expect(metricSum(metrics, 'apiserver_flowcontrol_request_concurrency_limit', { priority_level: 'reject-wally' })).toBe(2);
    expect(metricSum(metrics, 'apiserver_flowcontrol_rejected_requests_total', { priority_level: 'reject-wally', flow_schema: 'reject-wally', reason: 'concurrency-limit' })).toBe(rejected.length);
    expect(metricSum(metrics, 'apiserver_flowcontrol_dispatched_requests_total', { priority_level: 'reject-wally' })).toBeGreaterThanOrEqual(300 - rejected.length);
    expect(metricSum(metrics, 'apiserver_dropped_requests_total', { request_kind: 'readOnly' })).toBeGreaterThanOrEqual(rejected.length);

    // A watch holds a seat only while it starts: with three watches open, both seats are free.
    const watches = [];
    for (let i = 0; i < 3; i++) watches.push(await f.watchAs('wally', '/api/v1/namespaces/default/configmaps?watch=1'));
    expect(watches.map((w) => w.status)).toEqual([200, 200, 200]);
    const during = await Promise.all([0, 1].map(() => f.as('wally', 'GET', '/api/v1/namespaces/default/configmaps')));
    expect(during.map((r) => r.status)).toEqual([200, 200]);
    for (const w of watches) w.close();
  });

  it('the debug dumps: plain text for whom authorization allows, 403 for others', async () => {
    const levels = await f.as('admin', 'GET', '/debug/api_priority_and_fairness/dump_priority_levels');
    expect(levels.status).toBe(200);
    expect(levels.headers['content-type']).toMatch(/^text\/plain/);
    const lines = levels.text.trimEnd().split('\n');
    expect(lines[0]?.split(/,\s*/)).toEqual(['PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests']);
    expect(lines.find((l) => l.startsWith('exempt,'))?.split(/,\s*/)).toEqual(['exempt', '<none>', '<none>', '<none>', '<none>', '<none>']);
    expect(lines.find((l) => l.startsWith('global-default,'))?.split(/,\s*/)).toEqual(['global-default', '0', 'true', 'false', '0', '0']);
    const queues = await f.as('admin', 'GET', '/debug/api_priority_and_fairness/dump_queues');
    expect(queues.text.split('\n')[0]?.split(/,\s*/)).toEqual(['PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR', 'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum']);
    expect(queues.text.split('\n').filter((l) => l.startsWith('global-default,')).length).toBe(128);
    const requests = await f.as('admin', 'GET', '/debug/api_priority_and_fairness/dump_requests?includeRequestDetails=1');
    expect(requests.text.split('\n')[0]?.split(/,\s*/).slice(-8)).toEqual(['UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource']);
    expect((await f.as('admin', 'GET', '/debug/api_priority_and_fairness/dump_nothing')).status).toBe(404);
    const refused = await f.as('stranger', 'GET', '/debug/api_priority_and_fairness/dump_queues');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('forbidden: User "stranger" cannot get path "/debug/api_priority_and_fairness/dump_queues"');
  });
});
