/** Child processes of the benchmark: the server under test (the CLI) and the bare node:http baseline. */
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, '..', '..');
export const MAIN = join(ROOT, 'dist', 'main.js');
const BASELINE = join(here, '..', 'baseline-http.mjs');

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
 */
export async function startServer(backend, { timeoutMs = 30_000 } = {}) {
  const dataDir = tempDir(backend);
  const started = process.hrtime.bigint();
  const proc = spawn(process.execPath, [MAIN, '--secure-port', '0', '--bind-address', '127.0.0.1', '--insecure-plain-http', '--data-dir', dataDir, '--storage-backend', backend, '--log-level', 'silent'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = stopper(proc, () => rmSync(dataDir, { recursive: true, force: true }));
  try {
    const m = await awaitLine(proc, /serving (https?:\/\/\S+)/, timeoutMs, `orch-apiserver (${backend})`);
    const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
    return { url: m[1], pid: proc.pid, readyMs, dataDir, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * Starts the bare node:http baseline (bench/baseline-http.mjs) with an IPC channel through which it
 * is told which bytes to serve.
 */
export async function startBaseline({ timeoutMs = 10_000 } = {}) {
  const started = process.hrtime.bigint();
  const proc = fork(BASELINE, [], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const stop = stopper(proc);
  try {
    const m = await awaitLine(proc, /listening (http:\/\/\S+)/, timeoutMs, 'baseline server');
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
    return { url: m[1], pid: proc.pid, readyMs, serve, stop };
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
