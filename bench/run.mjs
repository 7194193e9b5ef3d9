/**
 * `npm run bench`: the server (sqlite and memory backends) runs in its own process, this process drives
 * it, and every figure stands beside a baseline measured in the same run. Prints one table and writes
 * .bench/results.json.
 *   --quick            fewer and shorter rounds
 *   --only=<pattern>   run the sections whose `section:backend` matches the pattern (a regular
 *                      expression), e.g. --only=get, --only=watch:memory, --only=sqlite
 * Sections: get, create, watch, list-rss, ready.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { killAll, MAIN, ROOT, startBaseline, startServer } from './lib/procs.mjs';
import { formatNumber, formatRatio, formatTable, summarize } from './lib/stats.mjs';
import { benchBulk } from './sections/bulk.mjs';
import { benchCreate } from './sections/create.mjs';
import { benchGet } from './sections/get.mjs';
import { benchReady } from './sections/ready.mjs';
import { benchWatch } from './sections/watch.mjs';

const CONFIGS = {
  full: { rounds: 7, watchRounds: 5, warmupMs: 200, durationMs: 600, watchEvents1: 100, watchEvents1000: 20, objects: 10_000, bulkRounds: 3, listReps: 5, readyRounds: 5, fillDeadlineMs: 120_000, maxMs: 10 * 60_000 },
  quick: { rounds: 3, watchRounds: 2, warmupMs: 150, durationMs: 400, watchEvents1: 40, watchEvents1000: 8, objects: 10_000, bulkRounds: 1, listReps: 3, readyRounds: 2, fillDeadlineMs: 120_000, maxMs: 5 * 60_000 },
};
const BACKENDS = ['sqlite', 'memory'];

const { values: args } = parseArgs({ options: { quick: { type: 'boolean' }, only: { type: 'string' }, help: { type: 'boolean' } }, strict: true });
if (args.help) {
  process.stdout.write('usage: npm run bench -- [--quick] [--only=<pattern>]   (sections: get, create, watch, list-rss, ready; backends: sqlite, memory)\n');
  process.exit(0);
}
const mode = args.quick ? 'quick' : 'full';
const cfg = CONFIGS[mode];
const only = args.only ? new RegExp(args.only, 'i') : undefined;
const selected = (section, backend) => !only || only.test(`${section}:${backend}`);
const log = (msg) => process.stderr.write(`${msg}\n`);

if (!existsSync(MAIN)) {
  log(`bench: ${MAIN} is missing; run npm run build first (npm run bench does)`);
  process.exit(2);
}

const machine = {
  node: process.version,
  platform: `${process.platform} ${release()} ${process.arch}`,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model?.trim() ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  loadAtStart: loadavg()[0],
};
const rows = [];
/** Seconds each section took, for the JSON (and for keeping the full run near five minutes). */
const sectionSeconds = {};
async function timed(label, fn) {
  log(`${label}…`);
  const t0 = Date.now();
  try {
    return await fn();
  } finally {
    sectionSeconds[label] = Math.round((Date.now() - t0) / 100) / 10;
  }
}
const record = (row) => {
  const summary = summarize(row.values);
  const base = row.baseline ? { ...row.baseline, ...summarize(row.baseline.values) } : undefined;
  rows.push({ ...row, ...summary, baseline: base, ratio: base ? summary.median / base.median : undefined });
  log(`  ${row.measure} [${row.backend}]: ${formatNumber(summary.median)}${base ? ` (baseline ${formatNumber(base.median)})` : ''}`);
};

function report(complete) {
  machine.loadAtEnd = loadavg()[0];
  const order = [...new Set(rows.map((r) => r.id))];
  const sorted = [...rows].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id) || BACKENDS.indexOf(a.backend) - BACKENDS.indexOf(b.backend));
  const columns = [
    { title: 'measure' },
    { title: 'backend' },
    { title: 'median', align: 'right' },
    { title: 'min', align: 'right' },
    { title: 'max', align: 'right' },
    { title: 'baseline median', align: 'right' },
    { title: 'ratio', align: 'right' },
  ];
  const table = formatTable(
    columns,
    sorted.map((r) => [r.measure, r.backend, formatNumber(r.median), formatNumber(r.min), formatNumber(r.max), formatNumber(r.baseline?.median), r.baseline ? formatRatio(r.median, r.baseline.median) : '-']),
  );
  const baselines = new Map();
  for (const r of sorted) if (r.baseline && !baselines.has(r.measure)) baselines.set(r.measure, r.baseline.what);
  const header = [
    `orch-apiserver bench (${mode}${args.only ? `, --only=${args.only}` : ''}${complete ? '' : ', INCOMPLETE'}): node ${machine.node}, ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, ${machine.platform}`,
    `Loopback; server and baselines each in their own process. Each figure: median of its rounds, with min and max;`,
    `throughputs ran ${cfg.durationMs} ms per round after ${cfg.warmupMs} ms of warm-up, ${cfg.rounds} rounds, server and baseline alternating. ratio = median / baseline median`,
    `(req/s and /s: higher is better; ms and MiB: lower is better). 1-minute load average: ${machine.loadAtStart.toFixed(1)} at start, ${machine.loadAtEnd.toFixed(1)} at end.`,
  ].join('\n');
  const legend = ['Baselines:', ...[...baselines].map(([m, what]) => `  ${m}: ${what}`)].join('\n');
  process.stdout.write(`\n${header}\n\n${table}\n\n${legend}\n`);
  const dir = join(ROOT, '.bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'results.json');
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), mode, only: args.only ?? null, complete, machine, config: cfg, sectionSeconds, rows: sorted }, null, 2)}\n`);
  log(`\nresults written to ${file}`);
}

const watchdog = setTimeout(() => {
  log(`bench: stopped after ${cfg.maxMs / 60_000} minutes`);
  killAll();
  report(false);
  process.exit(1);
}, cfg.maxMs);
process.on('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => (killAll(), process.exit(130)));

const started = Date.now();
const baseline = await startBaseline();
try {
  for (const backend of BACKENDS) {
    const sections = [
      ['get', benchGet],
      ['create', benchCreate],
      ['watch', benchWatch],
    ].filter(([name]) => selected(name, backend));
    if (sections.length) {
      const server = await startServer(backend);
      try {
        for (const [name, fn] of sections) await timed(`${name}:${backend}`, () => fn({ cfg, server, baseline, backend, record, log }));
      } finally {
        await server.stop();
      }
    }
    if (selected('list-rss', backend)) await timed(`list-rss:${backend}`, () => benchBulk({ cfg, baseline, backend, record, log }));
    if (selected('ready', backend)) await timed(`ready:${backend}`, () => benchReady({ cfg, backend, record, log }));
  }
} catch (e) {
  log(`bench failed: ${e?.stack ?? e}`);
  clearTimeout(watchdog);
  await baseline.stop();
  if (rows.length) report(false);
  process.exit(1);
}
clearTimeout(watchdog);
await baseline.stop();
report(true);
log(`bench took ${((Date.now() - started) / 1000).toFixed(0)} s`);
