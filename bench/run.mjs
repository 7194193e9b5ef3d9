/**
 * `npm run bench`: the server (sqlite and memory backends; plain and as `npm start` runs it, secure)
 * runs in its own process, wrk and h2load drive its throughput figures, Node clients its watch, list and
 * start figures, and every figure stands beside a baseline measured in the same run. Prints one table
 * and writes .bench/results.json.
 *   --quick            fewer and shorter rounds
 *   --only=<pattern>   run the sections whose `section:backend:mode` matches the pattern (a regular
 *                      expression), e.g. --only=get, --only=watch:memory, --only=get:sqlite:secure
 * Sections: get and create (modes plain and secure), watch, list-rss, ready (mode plain).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { detectTools } from './lib/generators.mjs';
import { killAll, MAIN, ROOT, startBaseline, startServer } from './lib/procs.mjs';
import { formatNumber, formatRatio, formatTable, summarize } from './lib/stats.mjs';
import { benchBulk } from './sections/bulk.mjs';
import { benchCreate } from './sections/create.mjs';
import { benchGet } from './sections/get.mjs';
import { benchReady } from './sections/ready.mjs';
import { benchWatch } from './sections/watch.mjs';

const CONFIGS = {
  full: { rounds: 3, durationS: 4, warmupS: 1, getConcurrency: [1, 16, 64], createConcurrency: [1, 16], watchRounds: 5, watchEvents1: 100, watchEvents1000: 20, objects: 10_000, bulkRounds: 3, listReps: 5, readyRounds: 5, fillDeadlineMs: 120_000, maxMs: 25 * 60_000 },
  quick: { rounds: 2, durationS: 2, warmupS: 1, getConcurrency: [16], createConcurrency: [16], watchRounds: 2, watchEvents1: 40, watchEvents1000: 8, objects: 10_000, bulkRounds: 1, listReps: 3, readyRounds: 2, fillDeadlineMs: 120_000, maxMs: 10 * 60_000 },
};
const BACKENDS = ['sqlite', 'memory'];
const MODES = ['plain', 'secure'];

const { values: args } = parseArgs({ options: { quick: { type: 'boolean' }, only: { type: 'string' }, help: { type: 'boolean' } }, strict: true });
if (args.help) {
  process.stdout.write('usage: npm run bench -- [--quick] [--only=<pattern>]   (pattern over section:backend:mode; sections: get, create, watch, list-rss, ready; backends: sqlite, memory; modes: plain, secure)\n');
  process.exit(0);
}
const mode = args.quick ? 'quick' : 'full';
const cfg = CONFIGS[mode];
const only = args.only ? new RegExp(args.only, 'i') : undefined;
const selected = (section, backend, mode = 'plain') => !only || only.test(`${section}:${backend}:${mode}`);
const log = (msg) => process.stderr.write(`${msg}\n`);

if (!existsSync(MAIN)) {
  log(`bench: ${MAIN} is missing; run npm run build first (npm run bench does)`);
  process.exit(2);
}

const tools = detectTools();
for (const g of ['wrk', 'h2load']) log(tools[g].path ? `bench: ${g}: ${tools[g].version} (${tools[g].path})` : `bench: ${tools[g].missing}; its figures are skipped`);
log(`bench: ${tools.pinNote}`);
/** Figures not measured, with the reason. */
const skipped = [];
const skip = (what, reason) => {
  skipped.push({ what, reason });
  log(`  skipped ${what}: ${reason}`);
};

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
  log(`  ${row.measure} [${row.backend}${row.mode ? `, ${row.mode}` : ''}]: ${formatNumber(summary.median)}${base ? ` (baseline ${formatNumber(base.median)})` : ''}${row.notes?.length ? ` ${row.notes.join('; ')}` : ''}`);
};

function report(complete) {
  machine.loadAtEnd = loadavg()[0];
  const order = [...new Set(rows.map((r) => r.id))];
  const sorted = [...rows].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id) || BACKENDS.indexOf(a.backend) - BACKENDS.indexOf(b.backend) || MODES.indexOf(a.mode ?? 'plain') - MODES.indexOf(b.mode ?? 'plain'));
  const columns = [
    { title: 'measure' },
    { title: 'backend' },
    { title: 'mode' },
    { title: 'median', align: 'right' },
    { title: 'min', align: 'right' },
    { title: 'max', align: 'right' },
    { title: 'baseline median', align: 'right' },
    { title: 'ratio', align: 'right' },
    { title: 'server µs/req', align: 'right' },
    { title: 'loop p99 ms', align: 'right' },
    { title: 'flags' },
  ];
  const table = formatTable(
    columns,
    sorted.map((r) => [
      r.measure,
      r.backend,
      r.mode ?? 'plain',
      formatNumber(r.median),
      formatNumber(r.min),
      formatNumber(r.max),
      formatNumber(r.baseline?.median),
      r.baseline ? formatRatio(r.median, r.baseline.median) : '-',
      formatNumber(r.serverCpuUs),
      formatNumber(r.loopDelayP99Ms),
      r.notes?.some((n) => n.includes('GENERATOR-LIMITED')) ? 'GENERATOR-LIMITED' : '',
    ]),
  );
  const baselines = new Map();
  const header = [
    `orch-apiserver bench (${mode}${args.only ? `, --only=${args.only}` : ''}${complete ? '' : ', INCOMPLETE'}): node ${machine.node}, ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, ${machine.platform}`,
    `Generators: ${['wrk', 'h2load'].map((g) => tools[g].version ?? 'none').join(', ')}; ${tools.pinNote}.`,
    `Loopback; server and baselines each in their own process. Each figure: median of its rounds, with min and max; wrk/h2load`,
    `rounds ran ${cfg.durationS} s each (after one uncounted ${cfg.warmupS} s run per target), ${cfg.rounds} rounds, server and baseline alternating. ratio = median / baseline median`,
    `(req/s and /s: higher is better; ms and MiB: lower is better). plain = --insecure-plain-http; secure = as npm start runs it (TLS, h2,`,
    `RBAC) with the load as a non-admin user by bearer token (wrk and h2load cannot present client certificates), allowed by a RoleBinding.`,
    `server µs/req: the server's CPU time (/proc/<pid>/stat) over the load / requests. loop p99: event-loop delay p99 under the load.`,
    `GENERATOR-LIMITED: the load generator used >= 90% of its core, so the figure is the generator's limit, not the server's.`,
    `1-minute load average: ${machine.loadAtStart.toFixed(1)} at start, ${machine.loadAtEnd.toFixed(1)} at end.`,
  ].join('\n');
  for (const r of sorted) if (r.baseline) baselines.set(`${r.measure} [${r.mode ?? 'plain'}]`, r.baseline.what);
  const flagged = sorted.flatMap((r) => (r.notes ?? []).map((n) => `  ${r.measure} [${r.backend}, ${r.mode ?? 'plain'}]: ${n}`));
  const legend = [
    'Baselines:',
    ...[...baselines].map(([m, what]) => `  ${m}: ${what}`),
    ...(flagged.length ? ['Flags:', ...flagged] : []),
    ...(skipped.length ? ['Skipped:', ...skipped.map((s) => `  ${s.what}: ${s.reason}`)] : []),
  ].join('\n');
  process.stdout.write(`\n${header}\n\n${table}\n\n${legend}\n`);
  const dir = join(ROOT, '.bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'results.json');
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), mode, only: args.only ?? null, complete, machine, tools, config: cfg, sectionSeconds, skipped, rows: sorted }, null, 2)}\n`);
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
const baseline = await startBaseline({ tools });
try {
  for (const backend of BACKENDS) {
    for (const serverMode of MODES) {
      const sections = [
        ['get', benchGet],
        ['create', benchCreate],
        // Watch latency runs on the plain server with Node clients (one figure per backend).
        ...(serverMode === 'plain' ? [['watch', benchWatch]] : []),
      ].filter(([name]) => selected(name, backend, serverMode));
      if (!sections.length) continue;
      const server = await startServer(backend, { secure: serverMode === 'secure', tools, monitor: true });
      // The secure server's baseline: node:http2 with its certificate and TLS settings.
      const base = server.secure ? await startBaseline({ tlsDir: server.pkiDir, tools }) : baseline;
      try {
        for (const [name, fn] of sections) {
          await timed(`${name}:${backend}:${serverMode}`, () => fn({ cfg, tools, server, baseline: base, backend, mode: serverMode, record, log, skip }));
        }
      } finally {
        await server.stop();
        if (base !== baseline) await base.stop();
      }
    }
    if (selected('list-rss', backend)) await timed(`list-rss:${backend}`, () => benchBulk({ cfg, tools, baseline, backend, record, log }));
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
// Keep-alive agents of the setup requests would hold the process open.
process.exit(0);
