/**
 * A small HTTPS client for one kubeconfig context: JSON requests and watches, authenticated by a
 * client certificate, a token, a token file or an exec credential plugin. A 401 to plugin
 * credentials runs the plugin again and retries once; a plugin that hands back a different client
 * certificate gets a new TLS connection (a new agent), since a handshake proves only one.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { ExecCredentialProvider, type ExecCredentials } from './exec-credential.js';
import { loadKubeconfig, type ClientConfig, type LoadOptions } from './kubeconfig.js';

export interface Reply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export interface RequestOptions {
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly contentType?: string;
}

export interface WatchEvent<T = unknown> {
  readonly type: string;
  readonly object: T;
}

/** A non-2xx answer: the server's Status message when it sent one. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(statusMessage(status, body));
  }
}

function statusMessage(status: number, body: string): string {
  try {
    const s = JSON.parse(body) as { message?: unknown };
    if (typeof s.message === 'string') return `${status}: ${s.message}`;
  } catch {
    // Not a Status: say only the code.
  }
  return `the server answered ${status}`;
}

interface Auth {
  token?: string;
  cert?: string;
  key?: string;
  /** The plugin credentials these came from, to report a 401 against. */
  exec?: ExecCredentials;
}

export class NetworkClient {
  readonly exec: ExecCredentialProvider | undefined;
  private agent: https.Agent | undefined;
  private agentIdentity = '';

  constructor(
    readonly config: ClientConfig,
    opts: { stdinIsTerminal?: boolean; environment?: NodeJS.ProcessEnv } = {},
  ) {
    const { exec } = config.user;
    this.exec = exec
      ? new ExecCredentialProvider({ exec, cluster: config.cluster, baseDir: config.baseDir, names: config.names, ...opts })
      : undefined;
  }

  /** Sends one request; a 401 to plugin credentials runs the plugin again and retries once. */
  async request(method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
    const auth = await this.auth();
    const first = await this.send(method, path, opts, auth);
    if (first.status !== 401 || !auth.exec || !this.exec) return first;
    const fresh = await this.exec.rejected(auth.exec);
    return this.send(method, path, opts, this.authFrom(fresh));
  }

  /** A request whose answer must be 2xx JSON. */
  async json<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const reply = await this.request(method, path, opts);
    if (reply.status < 200 || reply.status > 299) throw new ApiError(reply.status, reply.body);
    return JSON.parse(reply.body) as T;
  }

  /** `?watch=1` on `path` (which may already carry a query): its events as they arrive. Breaking out of the loop ends the watch. */
  async *watch<T = unknown>(path: string): AsyncGenerator<WatchEvent<T>, void, undefined> {
    const target = `${path}${path.includes('?') ? '&' : '?'}watch=1`;
    let auth = await this.auth();
    let res = await this.open('GET', target, {}, auth);
    if (res.statusCode === 401 && auth.exec && this.exec) {
      res.resume();
      auth = this.authFrom(await this.exec.rejected(auth.exec));
      res = await this.open('GET', target, {}, auth);
    }
    if ((res.statusCode ?? 0) >= 300) throw new ApiError(res.statusCode ?? 0, await readAll(res));
    res.setEncoding('utf8');
    let buffered = '';
    try {
      for await (const chunk of res as AsyncIterable<string>) {
        buffered += chunk;
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl).trim();
          buffered = buffered.slice(nl + 1);
          if (line) yield JSON.parse(line) as WatchEvent<T>;
        }
      }
    } finally {
      res.destroy();
    }
  }

  /** Closes pooled connections. */
  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }

  private async auth(): Promise<Auth> {
    if (this.exec) return this.authFrom(await this.exec.get());
    const { user } = this.config;
    // A token file wins over an inline token, and is read each time so a rotated token is used.
    const token = user.tokenFile ? readFileSync(user.tokenFile, 'utf8').trim() : user.token;
    return { ...(token ? { token } : {}), ...(user.clientCertPem && user.clientKeyPem ? { cert: user.clientCertPem, key: user.clientKeyPem } : {}) };
  }

  private authFrom(creds: ExecCredentials): Auth {
    const { user } = this.config;
    // Plugin certificates replace the kubeconfig's; without them the kubeconfig's still apply.
    const cert = creds.clientCertPem ?? user.clientCertPem;
    const key = creds.clientCertPem ? creds.clientKeyPem : user.clientKeyPem;
    return { exec: creds, ...(creds.token ? { token: creds.token } : {}), ...(cert && key ? { cert, key } : {}) };
  }

  /** The agent for this client certificate: a different certificate means a new agent, so a new handshake. */
  private agentFor(auth: Auth): https.Agent {
    const identity = `${auth.cert ?? ''}\n${auth.key ?? ''}`;
    if (!this.agent || identity !== this.agentIdentity) {
      this.agent?.destroy();
      const { cluster } = this.config;
      this.agent = new https.Agent({
        keepAlive: true,
        ...(cluster.caPem ? { ca: cluster.caPem } : {}),
        ...(auth.cert && auth.key ? { cert: auth.cert, key: auth.key } : {}),
        ...(cluster.tlsServerName ? { servername: cluster.tlsServerName } : {}),
        rejectUnauthorized: !cluster.insecureSkipTlsVerify,
      });
      this.agentIdentity = identity;
    }
    return this.agent;
  }

  private async send(method: string, path: string, opts: RequestOptions, auth: Auth): Promise<Reply> {
    const res = await this.open(method, path, opts, auth);
    return { status: res.statusCode ?? 0, headers: res.headers, body: await readAll(res) };
  }

  private open(method: string, path: string, opts: RequestOptions, auth: Auth): Promise<http.IncomingMessage> {
    const url = new URL(this.config.cluster.server + path);
    const body = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(body !== undefined ? { 'content-type': opts.contentType ?? 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
      ...(auth.token ? { authorization: `Bearer ${auth.token}` } : {}),
      ...opts.headers,
    };
    return new Promise((done, fail) => {
      const req =
        url.protocol === 'https:'
          ? https.request(url, { method, headers, agent: this.agentFor(auth) })
          : http.request(url, { method, headers });
      req.on('response', done);
      req.on('error', fail);
      req.end(body);
    });
  }
}

function readAll(res: http.IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const parts: Buffer[] = [];
    res.on('data', (b: Buffer) => parts.push(b));
    res.on('end', () => done(Buffer.concat(parts).toString('utf8')));
    res.on('error', fail);
  });
}

/** A client for a kubeconfig file's current context (or `opts.context`). */
export function clientFromKubeconfig(path: string, opts: LoadOptions & { stdinIsTerminal?: boolean; environment?: NodeJS.ProcessEnv } = {}): NetworkClient {
  const { stdinIsTerminal, environment, ...load } = opts;
  return new NetworkClient(loadKubeconfig(path, load), {
    ...(stdinIsTerminal !== undefined ? { stdinIsTerminal } : {}),
    ...(environment ? { environment } : {}),
  });
}
