/**
 * End-to-end helpers: the real CLI (`node dist/main.js`) as a child process.
 *
 * `ensureBuilt()` compiles src/ into dist/ with tsconfig.build.json when dist/main.js is missing or older
 * than any source file, under a lock so that test files running in parallel build once and never read a
 * half-written dist/. `npm test` builds before vitest runs, so there this is only a freshness check.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const MAIN = join(ROOT, 'dist', 'main.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function isStale(): boolean {
  if (!existsSync(MAIN)) return true;
  return newestMtime(join(ROOT, 'src')) > statSync(MAIN).mtimeMs;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleepSync = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Builds dist/ if it is missing or older than src/; returns what it did, for the test log. */
export function ensureBuilt(): string {
  const lock = join(tmpdir(), `orch-e2e-build-${createHash('sha1').update(ROOT).digest('hex').slice(0, 12)}`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      // Someone else builds; take the lock over only if its holder died.
      let holder = 0;
      try {
        holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // The holder has made the directory but not yet written its pid.
      }
      if (holder && !pidAlive(holder)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`timed out waiting for the build lock ${lock}`);
      else sleepSync(100);
    }
  }
  try {
    if (!isStale()) return `using the build in ${join(ROOT, 'dist')} (newer than src/)`;
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'pipe' });
    return `built ${join(ROOT, 'dist')} with tsc -p tsconfig.build.json`;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion (for --help, --version and flags that must be refused). */
export function runCli(args: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: opts.cwd ?? tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`orch-apiserver ${args.join(' ')} did not exit; stdout: ${stdout}; stderr: ${stderr}`));
    }, opts.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr });
    });
  });
}

export interface CliServer {
  url: string;
  /** With `tls`: the CA and administrator certificate the server made in DATA/pki, for https and h2 clients. */
  tls?: { ca: string; cert: string; key: string };
  /** The kubeconfig the server wrote to DATA/kubeconfig. */
  kubeconfig(): string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends SIGKILL and waits for the process to be gone. */
  kill(): Promise<void>;
  /** Sends SIGTERM and waits for a clean exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function tempDir(prefix = 'orch-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Starts `node dist/main.js --secure-port 0 --bind-address 127.0.0.1 --data-dir DIR --log-level warn
 * ...args` and resolves once it has printed the address it serves (which is how a user learns the
 * port when asking for port 0). Plain HTTP (`--insecure-plain-http`) unless `tls` is set: the suites
 * on plain HTTP are about storage, flags and crashes, not transport (see the README).
 */
export function startCli(args: string[] = [], opts: { dataDir?: string; tls?: boolean } = {}): Promise<CliServer> {
  const dataDir = opts.dataDir ?? tempDir();
  const transport = opts.tls ? [] : ['--insecure-plain-http'];
  const fullArgs = ['--secure-port', '0', '--bind-address', '127.0.0.1', ...transport, '--data-dir', dataDir, '--log-level', 'warn', ...args];
  const child = spawn(process.execPath, [MAIN, ...fullArgs], { cwd: dataDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const pki = (file: string): string => readFileSync(join(dataDir, 'pki', file), 'utf8');
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('close', (code, signal) => r({ code, signal })));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not print its address; stdout: ${stdout}; stderr: ${stderr}`));
    }, 20_000);
    const onData = (): void => {
      const m = /serving (https?:\/\/[^\s]+:(\d+)) /.exec(stdout);
      if (!m) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      resolveStart({
        url: m[1] as string,
        port: Number(m[2]),
        ...(opts.tls ? { tls: { ca: pki('ca.crt'), cert: pki('admin.crt'), key: pki('admin.key') } } : {}),
        kubeconfig: () => readFileSync(join(dataDir, 'kubeconfig'), 'utf8'),
        dataDir,
        child,
        stdout: () => stdout,
        stderr: () => stderr,
        exited,
        async kill() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.stdout.on('data', onData);
    child.on('error', reject);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (code ${code}, signal ${signal}) before serving; stdout: ${stdout}; stderr: ${stderr}`));
    });
  });
}
