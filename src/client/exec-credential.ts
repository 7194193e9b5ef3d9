/**
 * Exec credential plugins (document 3, "Client credential plugin"): run the configured command with
 * an ExecCredential in `<PRODUCT>_EXEC_INFO` (`ORCH_EXEC_INFO`, `KUBERNETES_EXEC_INFO` under k8s.io),
 * read an ExecCredential from its stdout, and keep the credentials until they expire or the server
 * answers 401. Messages follow client-go's, so people can search for them.
 */
import { spawn } from 'node:child_process';
import { isAbsolute, resolve, sep } from 'node:path';
import type { ApiNames } from '../machinery/api-names.js';
import { execGroup, type ClusterConfig, type ExecConfig } from './kubeconfig.js';

/** What a plugin proved: a bearer token, a client certificate and key, or both. */
export interface ExecCredentials {
  readonly token?: string;
  readonly clientCertPem?: string;
  readonly clientKeyPem?: string;
  /** Milliseconds since the epoch; absent: good until a 401. */
  readonly expiresAt?: number;
}

export interface ExecProviderOptions {
  readonly exec: ExecConfig;
  readonly cluster: ClusterConfig;
  /** The kubeconfig's directory: a relative command path is relative to it. */
  readonly baseDir: string;
  readonly names: ApiNames;
  /** Whether stdin is a terminal; default `process.stdin.isTTY`. */
  readonly stdinIsTerminal?: boolean;
  /** The environment the plugin inherits; default `process.env`. */
  readonly environment?: NodeJS.ProcessEnv;
  readonly now?: () => number;
}

export class ExecPluginError extends Error {
  override readonly name = 'ExecPluginError';
}

/** `ORCH_EXEC_INFO`; `KUBERNETES_EXEC_INFO` under k8s.io (the product word, as media types use it). */
export const execInfoEnvName = (names: ApiNames): string => `${names.product.toUpperCase()}_EXEC_INFO`;

/** A bare name goes to PATH; a relative path (one with a separator) is relative to the kubeconfig. */
export function resolveCommand(command: string, baseDir: string): string {
  if (isAbsolute(command) || !(command.includes('/') || command.includes(sep))) return command;
  return resolve(baseDir, command);
}

export class ExecCredentialProvider {
  private cached: ExecCredentials | undefined;
  private running: Promise<ExecCredentials> | undefined;
  private started = 0;

  constructor(private readonly opts: ExecProviderOptions) {}

  /** How many times the plugin has been started: the cache is observable. */
  get runs(): number {
    return this.started;
  }

  /** The cached credentials while they are valid, else a fresh run of the plugin (one at a time). */
  async get(): Promise<ExecCredentials> {
    const now = (this.opts.now ?? Date.now)();
    const c = this.cached;
    if (c && (c.expiresAt === undefined || c.expiresAt > now)) return c;
    return this.refresh();
  }

  /**
   * The server answered 401 to `used`: drop it and run the plugin again, unless another request has
   * already replaced it (then that newer credential is the answer).
   */
  async rejected(used: ExecCredentials): Promise<ExecCredentials> {
    if (this.cached !== used && this.cached !== undefined) return this.cached;
    this.cached = undefined;
    return this.refresh();
  }

  private refresh(): Promise<ExecCredentials> {
    this.running ??= this.run().then(
      (creds) => {
        this.cached = creds;
        this.running = undefined;
        return creds;
      },
      (err: unknown) => {
        this.running = undefined;
        throw err;
      },
    );
    return this.running;
  }

  private interactive(): boolean {
    const terminal = this.opts.stdinIsTerminal ?? process.stdin.isTTY === true;
    switch (this.opts.exec.interactiveMode) {
      case 'Never':
        return false;
      case 'IfAvailable':
        return terminal;
      case 'Always':
        if (!terminal) throw new ExecPluginError('exec plugin cannot support interactive mode: standard input is not a terminal');
        return true;
    }
  }

  /** The ExecCredential the plugin reads from its environment. */
  input(interactive: boolean): string {
    const { exec, cluster } = this.opts;
    const spec: Record<string, unknown> = { interactive };
    if (exec.provideClusterInfo) {
      spec.cluster = {
        server: cluster.server,
        ...(cluster.tlsServerName ? { 'tls-server-name': cluster.tlsServerName } : {}),
        ...(cluster.insecureSkipTlsVerify ? { 'insecure-skip-tls-verify': true } : {}),
        ...(cluster.caPem ? { 'certificate-authority-data': Buffer.from(cluster.caPem, 'utf8').toString('base64') } : {}),
        // kubectl sends `config: null` when the cluster has no extension; so do we.
        config: cluster.execExtension ?? null,
      };
    }
    return JSON.stringify({ kind: 'ExecCredential', apiVersion: exec.apiVersion, spec });
  }

  private async run(): Promise<ExecCredentials> {
    const interactive = this.interactive();
    const { exec, baseDir, names } = this.opts;
    const env: NodeJS.ProcessEnv = { ...(this.opts.environment ?? process.env) };
    for (const { name, value } of exec.env) env[name] = value;
    env[execInfoEnvName(names)] = this.input(interactive);
    this.started++;
    const { code, stdout, stderr, notFound } = await runCommand(resolveCommand(exec.command, baseDir), exec.args, env, interactive);
    if (notFound) {
      const hint = exec.installHint ? `\n\n${exec.installHint}` : '';
      throw new ExecPluginError(`exec: executable ${exec.command} not found\n\nIt looks like you are trying to use a credential plugin that is not installed.${hint}`);
    }
    if (code !== 0) {
      const detail = stderr.trim() ? `: ${stderr.trim()}` : '';
      throw new ExecPluginError(`exec: executable ${exec.command} failed with exit code ${code}${detail}`);
    }
    return parseExecOutput(stdout, exec.apiVersion, names);
  }
}

interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  notFound: boolean;
}

function runCommand(command: string, args: readonly string[], env: NodeJS.ProcessEnv, interactive: boolean): Promise<CommandResult> {
  return new Promise((done) => {
    const child = spawn(command, [...args], { env, stdio: [interactive ? 'inherit' : 'ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      err.push(b);
      // An interactive plugin talks to the person at the terminal (prompts, links) on stderr.
      if (interactive) process.stderr.write(b);
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      const notFound = e.code === 'ENOENT' || e.code === 'EACCES';
      done({ code: -1, stdout: '', stderr: notFound ? '' : e.message, notFound });
    });
    child.on('close', (code, signal) => {
      done({ code: code ?? (signal ? 128 : -1), stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), notFound: false });
    });
  });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const field = (o: Record<string, unknown>, k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');

/** The plugin's stdout as credentials, or the error client-go would give for it. */
export function parseExecOutput(stdout: string, apiVersion: string, names: ApiNames): ExecCredentials {
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch {
    // The parser's message quotes the text, which may hold a credential: say only what failed.
    throw new ExecPluginError("decoding stdout: couldn't get version/kind; json parse error: the output is not JSON");
  }
  if (!isRecord(doc) || typeof doc.apiVersion !== 'string' || typeof doc.kind !== 'string' || !doc.kind) {
    throw new ExecPluginError("decoding stdout: Object 'Kind' is missing in the plugin's output");
  }
  const group = execGroup(names);
  if (doc.apiVersion !== apiVersion) {
    throw new ExecPluginError(`exec plugin is configured to use API version ${apiVersion}, plugin returned version ${doc.apiVersion || '/'}`);
  }
  if (doc.kind !== 'ExecCredential') {
    throw new ExecPluginError(`decoding stdout: no kind "${doc.kind}" is registered for version "${doc.apiVersion}" in group "${group}"`);
  }
  if (!isRecord(doc.status)) throw new ExecPluginError("exec plugin didn't return a status field");
  const token = field(doc.status, 'token');
  const clientCertPem = field(doc.status, 'clientCertificateData');
  const clientKeyPem = field(doc.status, 'clientKeyData');
  if (!token && !clientCertPem && !clientKeyPem) throw new ExecPluginError("exec plugin didn't return a token or cert/key pair");
  if (!clientCertPem !== !clientKeyPem) throw new ExecPluginError('exec plugin returned only certificate or key, not both');
  let expiresAt: number | undefined;
  const expiration = doc.status.expirationTimestamp;
  if (expiration !== undefined && expiration !== null) {
    expiresAt = typeof expiration === 'string' ? Date.parse(expiration) : Number.NaN;
    if (Number.isNaN(expiresAt)) throw new ExecPluginError(`decoding stdout: expirationTimestamp ${JSON.stringify(expiration)} is not an RFC 3339 time`);
  }
  return {
    ...(token ? { token } : {}),
    ...(clientCertPem ? { clientCertPem, clientKeyPem } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}
