/**
 * The load generators (wrk for HTTP/1.1, h2load for HTTP/2), CPU pinning with taskset, and CPU time
 * of processes read from /proc: what drives the throughput figures, and how the report knows whether
 * the generator rather than the server was the limit.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

const INSTALL_HINT = 'apt-get install -y wrk nghttp2-client';

function which(cmd) {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function versionOf(cmd, args, re) {
  try {
    const out = execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return re.exec(out)?.[1] ?? out.split('\n')[0].trim();
  } catch (e) {
    // wrk -v prints its version and exits non-zero.
    const out = `${e.stdout ?? ''}${e.stderr ?? ''}`;
    return re.exec(out)?.[1] ?? 'unknown';
  }
}

/**
 * What this machine offers: the generators found (path and version), or why one is missing, and the
 * CPUs the server and the generator are pinned to (none on a 1-CPU machine or without taskset).
 */
export function detectTools() {
  const wrk = which('wrk');
  const h2load = which('h2load');
  const taskset = which('taskset');
  const n = cpus().length;
  const pin = taskset && n >= 2 ? { server: '0', generator: String(n - 1) } : undefined;
  return {
    wrk: wrk ? { path: wrk, version: versionOf(wrk, ['-v'], /^(wrk \S+)/m) } : { missing: `wrk not found (install: ${INSTALL_HINT})` },
    h2load: h2load ? { path: h2load, version: versionOf(h2load, ['--version'], /^(h2load \S+)/m) } : { missing: `h2load not found (install: ${INSTALL_HINT})` },
    pin,
    pinNote: pin
      ? `server processes pinned to CPU ${pin.server}, load generators to CPU ${pin.generator} (taskset)`
      : `no pinning (${taskset ? `${n} CPU` : 'taskset not found'}): server and generator share the CPUs`,
  };
}

/** argv prefixed with `taskset -c <cpu>` when pinning is possible. */
export function pinned(tools, role, argv) {
  return tools.pin ? ['taskset', '-c', tools.pin[role], ...argv] : argv;
}

/** CPU time (user + system) of a process so far, in microseconds, from /proc/<pid>/stat; NaN without /proc. */
export function cpuMicros(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    return (ticks * 1e6) / CLK_TCK;
  } catch {
    return NaN;
  }
}
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A generator busier than this share of its one core is taken to be the limit of the figure. */
export const GENERATOR_LIMIT = 0.9;

/**
 * Runs a generator to completion while sampling the CPU time of the generator and of `serverPid`.
 * Resolves with its stdout, wall time, the generator's CPU share of one core and the server's CPU µs.
 */
function runGenerator(argv, serverPid, timeoutMs) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const server0 = cpuMicros(serverPid);
    const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let genCpu = 0;
    // Sample the generator's CPU until it exits (its /proc entry is gone by the time 'exit' fires).
    const sampler = setInterval(() => {
      const c = cpuMicros(proc.pid);
      if (Number.isFinite(c)) genCpu = c;
    }, 50);
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.stdout.on('data', (c) => (out += c));
    proc.stderr.on('data', (c) => (err += c));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      clearInterval(sampler);
      clearTimeout(timer);
      const wallUs = Number(process.hrtime.bigint() - t0) / 1e3;
      const serverUs = cpuMicros(serverPid) - server0;
      if (code !== 0) return reject(new Error(`${argv.join(' ')} exited ${code}: ${(err || out).trim().slice(-400)}`));
      resolve({ out, wallUs, generatorCpuShare: genCpu / wallUs, serverCpuUs: serverUs });
    });
  });
}

/**
 * wrk against `url` (HTTP/1.1, one thread so it fits its pinned core) for `durationS` seconds at
 * `connections`; `script` is a Lua file, `headers` extra request headers. Resolves with requests/s,
 * non-2xx count, and the CPU figures of runGenerator().
 */
export async function wrk(tools, { url, connections, durationS, script, headers = {}, serverPid }) {
  if (!tools.wrk.path) throw new Error(tools.wrk.missing);
  const argv = [tools.wrk.path, '-t1', `-c${connections}`, `-d${durationS}s`, '--latency'];
  for (const [k, v] of Object.entries(headers)) argv.push('-H', `${k}: ${v}`);
  if (script) argv.push('-s', script);
  argv.push(url);
  const r = await runGenerator(pinned(tools, 'generator', argv), serverPid, (durationS + 30) * 1000);
  return { ...parseWrk(r.out), ...r };
}

/** wrk's report: requests/s, requests, non-2xx/3xx answers and its socket-error line (if any). */
export function parseWrk(out) {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const total = Number(/(\d+) requests in/.exec(out)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors:.*/.exec(out)?.[0];
  if (!Number.isFinite(rps) || !(total > 0)) throw new Error(`wrk completed no requests: ${out.slice(-400)}`);
  return { rps, total, non2xx, errors };
}

/**
 * h2load against `url` (HTTP/2 over TLS with ALPN h2, one thread) for `durationS` seconds, `connections` connections each with one stream at a time (c=connections in flight).
 */
export async function h2load(tools, { url, connections, durationS, warmupS = 0, headers = {}, serverPid }) {
  if (!tools.h2load.path) throw new Error(tools.h2load.missing);
  const argv = [tools.h2load.path, '-t1', `-c${connections}`, '-m1', `-D${durationS}`];
  if (warmupS) argv.push(`--warm-up-time=${warmupS}`);
  for (const [k, v] of Object.entries(headers)) argv.push('-H', `${k}: ${v}`);
  argv.push(url);
  const r = await runGenerator(pinned(tools, 'generator', argv), serverPid, (durationS + warmupS + 30) * 1000);
  return { ...parseH2load(r.out), ...r };
}

/**
 * h2load's report: requests/s, requests answered, answers other than 2xx; fails when requests failed
 * (connection or stream errors) or when ALPN chose another protocol than h2.
 */
export function parseH2load(out) {
  const rps = Number(/finished in [\d.]+\w+, ([\d.]+) req\/s/.exec(out)?.[1]);
  const m = /status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(out);
  const total = m ? Number(m[1]) + Number(m[2]) + Number(m[3]) + Number(m[4]) : NaN;
  const non2xx = m ? total - Number(m[1]) : NaN;
  const failed = Number(/requests: \d+ total, \d+ started, \d+ done, \d+ succeeded, (\d+) failed/.exec(out)?.[1] ?? 0);
  const protocol = /Application protocol: (\S+)/.exec(out)?.[1];
  if (protocol && protocol !== 'h2') throw new Error(`h2load negotiated ${protocol}, not h2`);
  if (!Number.isFinite(rps) || !(total > 0) || failed > 0) throw new Error(`h2load: ${failed} requests failed, ${total} answered: ${out.slice(-400)}`);
  return { rps, total, non2xx, failed };
}
