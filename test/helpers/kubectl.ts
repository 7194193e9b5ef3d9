/**
 * Real kubectl binaries for tests: where they are, running one (always asynchronously: the server
 * answering kubectl often runs in the test's own process), and reading what a `-v=6` run requested.
 *
 * The kubectl on PATH is usually a link (or a dispatcher) in a directory that also holds versioned
 * binaries `kubectl.1.NN`; `installedKubectls()` finds them all, `kubectlPicks()` the two most tests
 * need: 1.27 (the oldest version claimed) and the newest installed.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './server.js';

export interface Kubectl {
  /** `kubectl 1.27`, or `kubectl (PATH)` for the one on PATH. */
  label: string;
  bin: string;
  /** The minor version: from the file name, or as the PATH one reports it (-1 if it cannot say). */
  minor: number;
  /** The kubectl on PATH rather than a versioned binary beside it. */
  onPath: boolean;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The oldest and newest minor versions the project claims to serve. */
export const CLAIMED_MINORS = { oldest: 27, newest: 33 } as const;

export function onPath(cmd: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

/** The `kubectl.1.NN` binaries beside the real path of the kubectl on PATH, oldest first. */
function versioned(pathBin: string): Kubectl[] {
  const dir = dirname(realpathSync(pathBin));
  return readdirSync(dir)
    .map((f) => /^kubectl\.1\.(\d+)$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ label: `kubectl 1.${m[1]}`, bin: join(dir, m[0]), minor: Number(m[1]), onPath: false }))
    .sort((a, b) => a.minor - b.minor);
}

/**
 * Every installed kubectl: each versioned binary, then the one on PATH (unless it is the very same
 * file as one of them). `absent` names the claimed versions 1.27 … 1.33 that are not installed.
 */
export function installedKubectls(): { found: Kubectl[]; absent: string[] } {
  const pathBin = onPath('kubectl');
  if (!pathBin) return { found: [], absent: claimedLabels() };
  const found = versioned(pathBin);
  if (!found.some((k) => realpathSync(k.bin) === realpathSync(pathBin))) found.push(pathKubectl(pathBin));
  const absent = claimedLabels().filter((l) => !found.some((k) => k.label === l));
  return { found, absent };
}

/**
 * The kubectl on PATH, its minor version asked synchronously so that tests can be defined (or not)
 * by version at collection time, before any server runs in this process.
 */
function pathKubectl(bin: string): Kubectl {
  let minor = -1;
  try {
    const out = execFileSync(bin, ['version', '--client', '-o', 'json'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] });
    minor = Number.parseInt((JSON.parse(out) as { clientVersion: { minor: string } }).clientVersion.minor, 10);
  } catch {
    // A kubectl that cannot say its version: tests treat it as the oldest.
  }
  return { label: 'kubectl (PATH)', bin, minor, onPath: true };
}

function claimedLabels(): string[] {
  const out: string[] = [];
  for (let m = CLAIMED_MINORS.oldest; m <= CLAIMED_MINORS.newest; m++) out.push(`kubectl 1.${m}`);
  return out;
}

/**
 * kubectl 1.27 (or the oldest versioned one) and the newest versioned one; the kubectl on PATH alone
 * when there are no versioned binaries; nothing when kubectl is not installed.
 */
export function kubectlPicks(): Kubectl[] {
  const pathBin = onPath('kubectl');
  if (!pathBin) return [];
  const all = versioned(pathBin);
  if (all.length === 0) return [pathKubectl(pathBin)];
  const picks = [all.find((v) => v.minor === CLAIMED_MINORS.oldest) ?? all[0], all.at(-1)].filter((v): v is Kubectl => v !== undefined);
  return picks.filter((v, i) => picks.findIndex((w) => w.bin === v.bin) === i);
}

/** Runs kubectl to completion. `code` is the exit code, -1 when it was killed or could not start. */
export function runKubectl(bin: string, args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const env = opts.env ? { ...process.env, ...opts.env } : process.env;
    execFile(bin, args, { env, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The client's minor version as it reports it (for the PATH kubectl, whose file name says nothing). */
export async function clientVersion(bin: string): Promise<{ gitVersion: string; minor: number }> {
  const r = await runKubectl(bin, ['version', '--client', '-o', 'json']);
  if (r.code !== 0) return { gitVersion: `unknown (${r.stderr.trim()})`, minor: -1 };
  const v = (JSON.parse(r.stdout) as { clientVersion: { gitVersion: string; minor: string } }).clientVersion;
  return { gitVersion: v.gitVersion, minor: Number.parseInt(v.minor, 10) };
}

/**
 * The requests a `-v=6` run logged, as `METHOD URL`: older kubectl writes `GET http://... 200 OK`,
 * 1.33 writes `"Response" verb="GET" url="http://..."`.
 */
export function loggedRequests(stderr: string): string[] {
  const out: string[] = [];
  for (const line of stderr.split('\n')) {
    const plain = /\] (GET|POST|PUT|PATCH|DELETE) (http\S+)/.exec(line);
    const structured = /verb="(\w+)" url="([^"]+)"/.exec(line);
    const m = plain ?? structured;
    if (m && /round_trippers/.test(line)) out.push(`${m[1]} ${m[2]}`);
  }
  return out;
}

/** A kubectl left running (`get -w`, `rollout status`, `wait`): its output so far and a way to wait for text. */
export interface RunningKubectl {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout+stderr contain `text`; rejects when kubectl exits first or after `timeoutMs`. */
  until(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the outcome once kubectl has exited by itself. */
  done: Promise<Run>;
  running(): boolean;
  kill(): void;
}

export function spawnKubectl(bin: string, args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): RunningKubectl {
  const child = spawn(bin, args, { env: opts.env ? { ...process.env, ...opts.env } : process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let exited = false;
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const done = new Promise<Run>((resolve) =>
    child.on('close', (code) => {
      exited = true;
      resolve({ code: code ?? -1, stdout: out, stderr: err });
    }),
  );
  const seen = (text: string | RegExp): boolean => (typeof text === 'string' ? (out + err).includes(text) : text.test(out + err));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    done,
    running: () => !exited,
    kill: () => {
      if (!exited) child.kill('SIGTERM');
    },
    until: (text, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const finish = (error?: Error): void => {
          clearTimeout(timer);
          child.stdout.off('data', check);
          child.stderr.off('data', check);
          if (error) reject(error);
          else resolve();
        };
        const check = (): void => {
          if (seen(text)) finish();
        };
        const timer = setTimeout(() => finish(new Error(`kubectl ${args.join(' ')} never printed ${String(text)}; stdout: ${out}; stderr: ${err}`)), timeoutMs);
        child.stdout.on('data', check);
        child.stderr.on('data', check);
        void done.then(() => {
          if (seen(text)) finish();
          else finish(new Error(`kubectl ${args.join(' ')} exited before printing ${String(text)}; stdout: ${out}; stderr: ${err}`));
        });
        check();
      }),
  };
}

/**
 * A scratch directory holding a kubeconfig for `serverUrl` and a HOME of its own (so kubectl's
 * discovery cache stays out of the user's ~/.kube), with `manifest()` to write files into it.
 */
export interface KubectlSandbox {
  dir: string;
  kubeconfig: string;
  env: NodeJS.ProcessEnv;
  manifest(name: string, text: string): string;
  /** kubectl with this sandbox's kubeconfig and HOME. */
  run(bin: string, args: string[], timeoutMs?: number): Promise<Run>;
  spawn(bin: string, args: string[]): RunningKubectl;
  remove(): void;
}

export function kubectlSandbox(kubeconfigText: string, prefix = 'orch-kubectl-'): KubectlSandbox {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigText);
  mkdirSync(join(dir, 'home'));
  const env = { HOME: join(dir, 'home'), KUBECONFIG: kubeconfig };
  return {
    dir,
    kubeconfig,
    env,
    manifest(name, text) {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    },
    run: (bin, args, timeoutMs) => runKubectl(bin, args, { env, timeoutMs }),
    spawn: (bin, args) => spawnKubectl(bin, args, { env }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The kubectl the single-version suites use: $KUBECTL, else the one on PATH. */
export const DEFAULT_KUBECTL = process.env.KUBECTL ?? 'kubectl';

/** Whether `bin` runs at all; says so when it does not, so the skip has its reason in the log. */
export async function kubectlRuns(bin: string): Promise<boolean> {
  const ok = (await runKubectl(bin, ['version', '--client'])).code === 0;
  if (!ok) console.log(`kubectl tests skipped: ${bin} could not be run`);
  return ok;
}

/**
 * Called inside a describe: a test server with `options` started before its tests and a kubectl
 * sandbox pointed at it, both gone after them. `kubectl` runs DEFAULT_KUBECTL in the sandbox. The
 * server serves HTTPS (kubectl speaks h2 to it) and the sandbox's kubeconfig carries the CA and the
 * administrator's certificate, as a user's would; `tls: false` asks for plain HTTP instead.
 */
export function withKubectlServer(
  prefix: string,
  options: Parameters<typeof startTestServer>[0],
): { kubectl(...args: string[]): Promise<Run>; manifest(name: string, text: string): string } {
  let server: TestServer | undefined;
  let box: KubectlSandbox | undefined;
  beforeAll(async () => {
    server = await startTestServer({ tls: true, ...options });
    box = kubectlSandbox(server.server.kubeconfig(), prefix);
  });
  afterAll(async () => {
    await server?.close();
    box?.remove();
  });
  const sandbox = (): KubectlSandbox => {
    if (!box) throw new Error('withKubectlServer: used outside its describe');
    return box;
  };
  return {
    kubectl: (...args) => sandbox().run(DEFAULT_KUBECTL, args),
    manifest: (name, text) => sandbox().manifest(name, text),
  };
}

/** kubectl flags that reach a CLI server without a kubeconfig: its CA and the admin certificate in DATA/pki. */
export function pkiFlags(dataDir: string): string[] {
  const pki = join(dataDir, 'pki');
  return [`--certificate-authority=${join(pki, 'ca.crt')}`, `--client-certificate=${join(pki, 'admin.crt')}`, `--client-key=${join(pki, 'admin.key')}`];
}
