/**
 * The overload test of API Priority and Fairness (issue 13's "done when"), bounded and on loopback:
 * - a Limited level of 2 seats (ACV) with queues; every request of it holds its seat ~100 ms (the
 *   authorization webhook's delay, so that the load costs the server little CPU);
 * - a noisy flow sends ten times the level's concurrency limit (20 clients, each sending again
 *   200 ms after a 429, well before the second Retry-After asks for); it gets 429s with Retry-After, never a timeout;
 * - a quiet flow at the same level, in another queue (two clients, ten requests each in a row):
 *   fair queuing serves every one of them, and about as many as the noisy flow's in the same time
 *   (fairness asserted by counts);
 * - meanwhile the administrator (system:masters, the exempt level) reads, and its p99 latency stays
 *   under 250 ms (the issue's criterion; the limits are small so the test stays cheap on a loaded
 *   machine).
 * The figures are printed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dealHand, hashFlow } from '../../src/flowcontrol/shuffle-sharding.js';
import { FC, eventually, levelAndSchema, metricSum, startFlowControlServer, type FlowControlServer } from './helpers.js';

const NOISY_CLIENTS = 20;
/** Two quiet clients, 10 requests each in a row: the quiet flow asks for both seats, so its fair share is one of them. */
const QUIET_CLIENTS = 2;
const QUIET_REQUESTS = 20;
const QUEUING = { queues: 16, handSize: 2, queueLengthLimit: 4 };
const PATH = '/api/v1/namespaces/default/configmaps';

let f: FlowControlServer;

beforeAll(async () => {
  // SCL 4: the suggested levels' 245 shares and this level's 100 give it ceil(4 * 100 / 345) = 2 seats.
  f = await startFlowControlServer(['noisy', 'quiet'], 100, { maxRequestsInflight: 3, maxMutatingRequestsInflight: 1 });
  const { level, schema } = levelAndSchema('shared', ['noisy', 'quiet'], 100, QUEUING);
  expect((await f.as('admin', 'POST', `${FC}/prioritylevelconfigurations`, { body: level })).status).toBe(201);
  expect((await f.as('admin', 'POST', `${FC}/flowschemas`, { body: schema })).status).toBe(201);
  const uid = (await f.as('admin', 'GET', `${FC}/flowschemas/shared`)).body.metadata.uid;
  await eventually(async () => (await f.as('quiet', 'GET', '/version')).headers['x-orch-pf-flowschema-uid'] === uid, 'the schema to apply');
});
afterAll(() => f?.close());

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

it('ten times the concurrency limit from a Limited flow: 429s with Retry-After, an exempt user keeps p99 under 250 ms, a quiet flow is not starved', async () => {
  // The flows' hands of queues share none, so the quiet flow always has a queue of its own.
  const hand = (user: string) => dealHand(hashFlow('shared', user), QUEUING.queues, QUEUING.handSize);
  expect(hand('noisy').filter((q) => hand('quiet').includes(q))).toEqual([]);

  const statuses = { noisy: new Map<number, number>(), quiet: new Map<number, number>() };
  let quietActive = false;
  let noisyServedWhileQuietAsked = 0;
  const count = (who: 'noisy' | 'quiet', status: number) => {
    statuses[who].set(status, (statuses[who].get(status) ?? 0) + 1);
    if (who === 'noisy' && status === 200 && quietActive) noisyServedWhileQuietAsked++;
  };
  const badRejections: unknown[] = [];
  let stop = false;
  const noisyClient = async () => {
    while (!stop) {
      const r = await f.as('noisy', 'GET', PATH);
      count('noisy', r.status);
      if (r.status === 429) {
        if (r.headers['retry-after'] !== '1' || r.body?.reason !== 'TooManyRequests') badRejections.push({ headers: r.headers, body: r.body });
        await new Promise((res) => setTimeout(res, 200));
      }
    }
  };
  const exemptLatencies: number[] = [];
  const exemptClient = async () => {
    while (!stop) {
      const started = performance.now();
      const r = await f.as('admin', 'GET', `${PATH}?limit=5`);
      exemptLatencies.push(performance.now() - started);
      expect(r.status).toBe(200);
      await new Promise((res) => setTimeout(res, 10));
    }
  };
  const started = performance.now();
  const noisy = Array.from({ length: NOISY_CLIENTS }, noisyClient);
  const exempt = exemptClient();
  // Let the noisy flow fill its queues before the quiet one starts.
  await new Promise((res) => setTimeout(res, 300));
  const quietLatencies: number[] = [];
  quietActive = true;
  const quietClient = async () => {
    for (let i = 0; i < QUIET_REQUESTS / QUIET_CLIENTS; i++) {
      const t = performance.now();
      const r = await f.as('quiet', 'GET', PATH);
      quietLatencies.push(performance.now() - t);
      count('quiet', r.status);
    }
  };
  await Promise.all(Array.from({ length: QUIET_CLIENTS }, quietClient));
  quietActive = false;
  stop = true;
  await Promise.all([...noisy, exempt]);
  const elapsed = performance.now() - started;

  const metrics = (await f.as('admin', 'GET', '/metrics')).text;
  const rejected = (reason: string) => metricSum(metrics, 'apiserver_flowcontrol_rejected_requests_total', { priority_level: 'shared', reason });
  exemptLatencies.sort((a, b) => a - b);
  quietLatencies.sort((a, b) => a - b);
  const figures = {
    seconds: +(elapsed / 1000).toFixed(1),
    noisy: Object.fromEntries(statuses.noisy),
    quiet: Object.fromEntries(statuses.quiet),
    rejectedByReason: { 'queue-full': rejected('queue-full'), 'time-out': rejected('time-out'), cancelled: rejected('cancelled') },
    servedWhileQuietAsked: { quiet: QUIET_REQUESTS, noisy: noisyServedWhileQuietAsked },
    peakConcurrentAtWebhook: { noisy: f.peak('noisy'), quiet: f.peak('quiet') },
    exemptMs: { requests: exemptLatencies.length, p50: +percentile(exemptLatencies, 50).toFixed(1), p99: +percentile(exemptLatencies, 99).toFixed(1), max: +(exemptLatencies.at(-1) as number).toFixed(1) },
    quietMs: { p50: +percentile(quietLatencies, 50).toFixed(1), max: +(quietLatencies.at(-1) as number).toFixed(1) },
  };
  console.log('APF overload figures', JSON.stringify(figures));

  // The noisy flow: only 200s and 429s (no 504, no hanging request), plenty of 429s, each with Retry-After: 1.
  expect([...statuses.noisy.keys()].sort()).toEqual([200, 429]);
  expect(statuses.noisy.get(429)).toBeGreaterThan(NOISY_CLIENTS);
  expect(badRejections).toEqual([]);
  expect(rejected('time-out')).toBe(0);
  // Never more than the level's 2 seats at once.
  expect(f.peak('noisy')).toBeLessThanOrEqual(2);
  // The quiet flow: every request served, none rejected, and about as many served as the noisy
  // flow's in the same time (each gets one of the two seats), not a trickle.
  expect(Object.fromEntries(statuses.quiet)).toEqual({ 200: QUIET_REQUESTS });
  expect(QUIET_REQUESTS).toBeGreaterThanOrEqual(noisyServedWhileQuietAsked / 2);
  // The exempt user.
  expect(exemptLatencies.length).toBeGreaterThan(20);
  expect(percentile(exemptLatencies, 99)).toBeLessThan(250);
});
