/**
 * The limits around API Priority and Fairness over HTTPS: a queued request that waits past the
 * wait limit (a quarter of --request-timeout) is answered 429, not left hanging until the deadline;
 * with APF off, the classic max-inflight limits apply (system:masters excepted); bad limits are
 * refused at start with Kubernetes' messages.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../../src/index.js';
import { FC, eventually, levelAndSchema, metricSum, startFlowControlServer, type FlowControlServer } from './helpers.js';

let f: FlowControlServer | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

describe('waiting', () => {
  it('a request queued longer than a quarter of --request-timeout is rejected 429 (time-out), before its deadline', async () => {
    // Requests hold their seat 1.5 s; the wait limit is 0.5 s of the 2 s timeout.
    f = await startFlowControlServer(['ann'], 1500, { maxRequestsInflight: 1, maxMutatingRequestsInflight: 0, requestTimeoutSeconds: 2 });
    const { level, schema } = levelAndSchema('one-seat', ['ann'], 100, { queues: 1, handSize: 1, queueLengthLimit: 10 });
    expect((await f.as('admin', 'POST', `${FC}/prioritylevelconfigurations`, { body: level })).status).toBe(201);
    expect((await f.as('admin', 'POST', `${FC}/flowschemas`, { body: schema })).status).toBe(201);
    const uid = (await f.as('admin', 'GET', `${FC}/flowschemas/one-seat`)).body.metadata.uid;
    await eventually(async () => (await f!.as('admin', 'GET', '/version')).status === 200 && (await f!.as('ann', 'GET', '/version')).headers['x-orch-pf-flowschema-uid'] === uid, 'the schema to apply');
    const replies = await Promise.all([0, 1, 2].map(() => f!.as('ann', 'GET', '/api/v1/namespaces/default/configmaps')));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 429, 429]);
    for (const r of replies.filter((x) => x.status === 429)) expect(r.headers['retry-after']).toBe('1');
    const metrics = (await f.as('admin', 'GET', '/metrics')).text;
    expect(metricSum(metrics, 'apiserver_flowcontrol_rejected_requests_total', { priority_level: 'one-seat', reason: 'time-out' })).toBe(2);
    expect(metricSum(metrics, 'apiserver_flowcontrol_request_wait_duration_seconds_count', { priority_level: 'one-seat', execute: 'false' })).toBe(2);
  });
});

describe('with --enable-priority-and-fairness=false', () => {
  it('read-only requests beyond --max-requests-inflight get 429 at once; system:masters always get an answer', async () => {
    f = await startFlowControlServer(['ann'], 200, { enablePriorityAndFairness: false, maxRequestsInflight: 2, maxMutatingRequestsInflight: 0 });
    const replies = await Promise.all(Array.from({ length: 10 }, () => f!.as('ann', 'GET', '/api/v1/namespaces/default/configmaps')));
    expect(replies.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(2);
    const rejected = replies.filter((r) => r.status === 429);
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected[0]?.body).toMatchObject({ reason: 'TooManyRequests', message: 'Too many requests, please try again later.' });
    expect(rejected[0]?.headers['retry-after']).toBe('1');
    expect(rejected[0]?.headers['x-orch-pf-flowschema-uid']).toBeUndefined();
    expect(f.peak('ann')).toBeLessThanOrEqual(2);
    // Mutating requests have no limit (0), and the administrator is never turned away.
    const writes = await Promise.all(Array.from({ length: 5 }, (_, i) => f!.as('ann', 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: `cm-${i}` } } })));
    expect(writes.map((w) => w.status)).toEqual([201, 201, 201, 201, 201]);
    const admin = await Promise.all(Array.from({ length: 10 }, () => f!.as('admin', 'GET', '/api/v1/namespaces/default/configmaps')));
    expect(admin.every((r) => r.status === 200)).toBe(true);
    // No APF dumps without APF.
    expect((await f.as('admin', 'GET', '/debug/api_priority_and_fairness/dump_queues')).status).toBe(404);
  });
});

describe('flags', () => {
  it.each([
    [{ maxRequestsInflight: -1 }, '--max-requests-inflight can not be negative value'],
    [{ maxMutatingRequestsInflight: -1 }, '--max-mutating-requests-inflight can not be negative value'],
    [{ maxRequestsInflight: 0, maxMutatingRequestsInflight: 0 }, 'invalid configuration: MaxRequestsInFlight=0 and MaxMutatingRequestsInFlight=0; they must add up to something positive'],
  ])('%j is refused', async (opts, message) => {
    await expect(createServer({ plainHttp: true, port: 0, logLevel: 'silent', ...opts })).rejects.toThrow(message);
  });

  it('both limits 0 are fine without APF (no limits)', async () => {
    const s = await createServer({ plainHttp: true, port: 0, logLevel: 'silent', enablePriorityAndFairness: false, maxRequestsInflight: 0, maxMutatingRequestsInflight: 0 });
    await s.close();
  });
});
