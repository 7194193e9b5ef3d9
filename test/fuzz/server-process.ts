/**
 * The server under fuzz as a child process (`node dist/main.js`), so that a crash ends the child and
 * not the fuzzer, and shows as a crash with its exit code and the last lines it wrote.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Target } from './campaign.js';

/** The repository root: the nearest directory above this file whose package.json is ours. */
export function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'orch-apiserver') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the orch-apiserver repository above the fuzz suite');
    dir = up;
  }
}

export type Backend = 'memory' | 'sqlite';

export interface ServerProcess extends Target {
  stop(): Promise<void>;
}

const STDERR_TAIL = 16_000;

/** Starts the CLI on a free port with the given backend; restart() replaces a dead one with a fresh one. */
export async function startServerProcess(backend: Backend, extraArgs: string[] = []): Promise<ServerProcess> {
  const main = join(repositoryRoot(), 'dist', 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
  let child: ChildProcess | undefined;
  let dataDir = '';
  let exit: string | undefined;
  let stderr = '';
  /** Characters the server has written to stderr so far (stderr keeps only the tail). */
  let written = 0;

  const start = (): Promise<string> => {
    dataDir = mkdtempSync(join(tmpdir(), 'orch-fuzz-'));
    exit = undefined;
    stderr = '';
    const args = [main, '--secure-port', '0', '--insecure-plain-http', '--data-dir', dataDir, '--storage-backend', backend, '--log-level', 'error', '--service-cluster-ip-range', '10.96.0.0/16', ...extraArgs];
    const c = spawn(process.execPath, args, { cwd: dataDir, stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    let stdout = '';
    c.stderr?.setEncoding('utf8').on('data', (s: string) => {
      written += s.length;
      stderr = (stderr + s).slice(-STDERR_TAIL);
    });
    c.on('exit', (code, signal) => {
      exit = `the server exited (code ${code}, signal ${signal}); its last words: ${stderr.trim().split('\n').slice(-15).join('\n')}`;
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start: ${stdout} ${stderr}`)), 30_000);
      c.stdout?.setEncoding('utf8').on('data', (s: string) => {
        stdout += s;
        const m = /serving (http:\/\/\S+) /.exec(stdout);
        if (m) {
          clearTimeout(timer);
          resolve(m[1] as string);
        }
      });
      c.on('exit', () => {
        clearTimeout(timer);
        reject(new Error(exit));
      });
    });
  };

  const stopChild = async (): Promise<void> => {
    const c = child;
    if (c && c.exitCode === null && c.signalCode === null) {
      const gone = new Promise<void>((r) => c.once('exit', () => r()));
      c.kill('SIGKILL');
      await gone;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  const url = await start();
  return {
    url,
    exitReason: () => exit,
    logMark: () => written,
    logSince: (mark) => stderr.slice(Math.max(0, stderr.length - (written - mark))),
    async restart() {
      await stopChild();
      return start();
    },
    stop: stopChild,
  };
}
