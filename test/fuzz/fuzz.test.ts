/**
 * The fuzz suite in CI: a fixed seed and a bounded count of generated requests (every verb, body
 * type, query parameter, path and header form, mixed with valid writes) against the real CLI in a
 * child process, on the memory backend and once on SQLite. No answer may be a 5xx, the server must
 * stay up and answering, and a rejected or dry-run write must leave the resourceVersion where it was.
 * `npm run fuzz -- --count N [--seed S]` runs a longer campaign with the same generator.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { httpCall } from '../helpers/server.js';
import { ensureBuilt } from '../e2e/helpers/cli.js';
import { formatFailure, formatSummary, runCampaign } from './campaign.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const SEED = 1825;

describe('fuzz: no request crashes the server, gets a 5xx, or changes state when rejected', () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it.each([
    ['memory', 2000],
    ['sqlite', 500],
  ] as const)('%s backend: %i requests from seed 1825', async (backend, count) => {
    ensureBuilt();
    server = await startServerProcess(backend);
    const summary = await runCampaign(server, { seed: SEED, count });
    console.log(`fuzz ${backend}: ${formatSummary(summary)}`);
    expect(summary.failures.map(formatFailure)).toEqual([]);
    expect(summary.requests).toBe(count);
    // The valid part of the mix did reach the store: state grew while the bad requests ran.
    expect(summary.byStatus['201'] ?? 0).toBeGreaterThan(count / 20);
    expect(server.exitReason()).toBeUndefined();
    expect((await httpCall(server.url, 'GET', '/readyz')).status).toBe(200);
  }, 120_000);
});
