/** Child processes of the benchmark: the server under test (the CLI) and the bare node:http baseline. */
import { execFileSync, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pinned } from './generators.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, '..', '..');
export const MAIN = join(ROOT, 'dist', 'main.js');
const BASELINE = join(here, '..', 'baseline-http.mjs');
const LOOP_DELAY_MONITOR = pathToFileURL(join(here, 'loop-delay-monitor.mjs')).href;
/** The non-admin user the secure server's load runs as (a static bearer token; RBAC via a RoleBinding). */
export const LOAD_USER = 'bench-user';

/** Every child still running (with its cleanup), so that an abort or a crash of the runner takes them along. */
const live = new Map();
export function killAll() {
  for (const [p, cleanup] of live) {
    p.kill('SIGKILL');
    cleanup?.();
  }
  live.clear();
}

export function tempDir(label) {
  return mkdtempSync(join(tmpdir(), `orch-bench-${label}-`));
}

/** Resolves with the first match of `re` in the child's stdout, or rejects on exit or after `ms`. */
function awaitLine(proc, re, ms, what) {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const done = (f) => {
      clearTimeout(timer);
      proc.stdout.off('data', onData);
      proc.off('exit', onExit);
      f();
    };
    const onData = (chunk) => {
      out += chunk;
      const m = re.exec(out);
      if (m) done(() => resolve(m));
    };
    const onExit = (code) => done(() => reject(new Error(`${what} exited (${code}) before it was ready: ${err.trim().slice(-500)}`)));
    const timer = setTimeout(() => done(() => reject(new Error(`${what} not ready within ${ms} ms`))), ms);
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', onData);
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (c) => (err += c));
    proc.on('exit', onExit);
  });
}

function stopper(proc, cleanup) {
  live.set(proc, cleanup);
  let stopping;
  return () =>
    (stopping ??= new Promise((resolve) => {
      const finish = () => {
        clearTimeout(kill);
        live.delete(proc);
        cleanup?.();
        resolve();
      };
      if (proc.exitCode !== null || proc.signalCode !== null) return finish();
      const kill = setTimeout(() => proc.kill('SIGKILL'), 5000);
      proc.once('exit', finish);
      proc.kill('SIGTERM');
    }));
}

/**
 * Starts `node dist/main.js` on port 0 and waits for the URL it prints. readyMs runs from spawn to
 * that line: process start, module loading and createServer() together.
 *   secure: false  plain HTTP/1.1 (--insecure-plain-http): no authentication, every request allowed.
 *   secure: true   as `npm start` runs it: TLS (the generated CA and serving certificate), HTTP/2 and
 *                  HTTP/1.1 by ALPN, RBAC; plus a static --token-auth-file naming the load user, because
 *                  wrk and h2load cannot present a client certificate. `admin` (the generated admin
 *                  client certificate) sets up; `user` (the bearer token) is what the load runs as.
 *   tools          with tools.pin, the server runs pinned with taskset (readyMs then includes taskset's exec).
 *   monitor        preloads loop-delay-monitor.mjs (readLoopDelay() then works).
 */
export async function startServer(backend, { timeoutMs = 30_000, secure = false, tools, monitor = false } = {}) {
  const dataDir = tempDir(backend);
  const args = [MAIN, '--secure-port', '0', '--bind-address', '127.0.0.1', '--data-dir', dataDir, '--storage-backend', backend, '--log-level', 'silent'];
  const token = randomBytes(24).toString('hex');
  if (secure) {
    const tokenFile = join(dataDir, 'bench-tokens.csv');
    writeFileSync(tokenFile, `${token},${LOAD_USER},${LOAD_USER}-uid,\n`, { mode: 0o600 });
    args.push('--token-auth-file', tokenFile);
  } else {
    args.push('--insecure-plain-http');
  }
  const loopDelayFile = join(dataDir, 'loop-delay.json');
  if (monitor) args.unshift('--import', LOOP_DELAY_MONITOR);
  const argv = tools ? pinned(tools, 'server', [process.execPath, ...args]) : [process.execPath, ...args];
  const started = process.hrtime.bigint();
  const proc = spawn(argv[0], argv.slice(1), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: monitor ? { ...process.env, BENCH_LOOP_DELAY_FILE: loopDelayFile } : process.env,
  });
  const stop = stopper(proc, () => rmSync(dataDir, { recursive: true, force: true }));
  try {
    const m = await awaitLine(proc, /serving (https?:\/\/\S+)/, timeoutMs, `orch-apiserver (${backend})`);
    const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
    const pki = join(dataDir, 'pki');
    const access = secure
      ? (() => {
          const ca = readFileSync(join(pki, 'ca.crt'));
          return {
            admin: { tls: { ca, cert: readFileSync(join(pki, 'admin.crt')), key: readFileSync(join(pki, 'admin.key')) } },
            user: { tls: { ca }, headers: { Authorization: `Bearer ${token}` } },
          };
        })()
      : { admin: undefined, user: undefined };
    return { url: m[1], pid: proc.pid, readyMs, dataDir, pkiDir: secure ? pki : undefined, secure, ...access, loopDelayFile: monitor ? loopDelayFile : undefined, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * The server's event-loop delay (ms: p50, p99, max) since the previous call, from the preloaded
 * monitor: SIGUSR2 makes it write its histogram and start a new one.
 */
export async function readLoopDelay(server, timeoutMs = 3000) {
  if (!server.loopDelayFile) return undefined;
  const before = readJson(server.loopDelayFile)?.seq ?? 0;
  process.kill(server.pid, 'SIGUSR2');
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const now = readJson(server.loopDelayFile);
    if (now && now.seq > before) return now;
    await new Promise((r) => setTimeout(r, 10));
  }
  return undefined;
}
/** The parsed file, or undefined when it is missing or caught mid-write. */
function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Starts the bare baseline (bench/baseline-http.mjs) with an IPC channel through which it is told
 * which bytes to serve: node:http, or with `tlsDir` (a secure server's pki directory) node:http2 with
 * that server's certificate and TLS settings. Pinned like the server when `tools.pin` allows.
 */
export async function startBaseline({ timeoutMs = 10_000, tlsDir, tools } = {}) {
  const started = process.hrtime.bigint();
  const proc = fork(BASELINE, [], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: tlsDir ? { ...process.env, BENCH_TLS_DIR: tlsDir } : process.env,
  });
  if (tools?.pin) {
    try {
      execFileSync('taskset', ['-pc', tools.pin.server, String(proc.pid)], { stdio: 'ignore' });
    } catch {
      // Not pinned: the report's pinning note still holds for the server itself.
    }
  }
  const stop = stopper(proc);
  try {
    const m = await awaitLine(proc, /listening (https?:\/\/\S+)/, timeoutMs, 'baseline server');
    const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
    let seq = 0;
    /** Serves `body` with `headers` at GET `path` (POST too, with `status`). */
    const serve = (path, body, headers, status = 200) =>
      new Promise((resolve, reject) => {
        const id = ++seq;
        const onMessage = (msg) => {
          if (msg?.ack !== id) return;
          proc.off('message', onMessage);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => reject(new Error('baseline server did not acknowledge')), timeoutMs);
        proc.on('message', onMessage);
        proc.send({ id, path, status, headers, body: Buffer.from(body).toString('base64') });
      });
    return { url: m[1], pid: proc.pid, readyMs, serve, stop, access: tlsDir ? { tls: { ca: readFileSync(join(tlsDir, 'ca.crt')) } } : undefined };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Resident set size of a process in bytes (Linux /proc), or NaN where there is no /proc. */
export function rssBytes(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}
