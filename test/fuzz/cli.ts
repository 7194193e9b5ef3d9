/**
 * `npm run fuzz -- --count N [--seed S] [--backend memory|sqlite] [--stop-on-failure]`: a fuzz
 * campaign against the CLI in a child process. Prints progress, each failure with its reproducer as
 * it happens, and a summary; exits 1 when anything failed.
 */
import { parseArgs } from 'node:util';
import { formatFailure, formatSummary, runCampaign } from './campaign.js';
import { startServerProcess, type Backend } from './server-process.js';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '10000' },
      seed: { type: 'string' },
      backend: { type: 'string', default: 'memory' },
      'stop-on-failure': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const count = Number(values.count);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  const backend = values.backend as Backend;
  if (!Number.isSafeInteger(count) || count < 1) throw new Error(`--count must be a positive integer, not ${values.count}`);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`--seed must be a non-negative integer, not ${values.seed}`);
  if (backend !== 'memory' && backend !== 'sqlite') throw new Error(`--backend must be memory or sqlite, not ${backend}`);

  const server = await startServerProcess(backend);
  process.stdout.write(`fuzz: seed ${seed}, ${count} requests, ${backend} backend, server at ${server.url}\n`);
  const stop = (): void => {
    void server.stop().then(() => process.exit(130));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const summary = await runCampaign(server, {
      seed,
      count,
      stopOnFailure: values['stop-on-failure'],
      progressEvery: Math.max(1000, Math.floor(count / 20)),
      progress: (done, s) => process.stdout.write(`  ${done}/${count} after ${(s.elapsedMs / 1000).toFixed(0)} s: 5xx ${s.serverErrors}, crashes ${s.crashes}, state changed ${s.stateChanged}\n`),
      onFailure: (f) => process.stdout.write(`\n${formatFailure(f)}\n\n`),
    });
    process.stdout.write(`\n${formatSummary(summary)}\n`);
    return summary.failures.length === 0 ? 0 : 1;
  } finally {
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`fuzz: ${(e as Error).message}\n`);
    process.exit(2);
  },
);
