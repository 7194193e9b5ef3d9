/**
 * The API server's credentials toward webhooks: the `users` of the kubeconfig named by the admission
 * configuration, chosen by the webhook's host and port as Kubernetes chooses them (exact
 * `host:port`, then `*.`-wildcards of ever shorter suffixes, the same without `:443`, then `*`, then
 * the current context's user). Files are read once, when the plugin is made.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { decodeYaml } from '../../machinery/codec/yaml-decode.js';

export interface WebhookCredentials {
  /** PEM client certificate and key, presented in the TLS handshake. */
  certPem?: string;
  keyPem?: string;
  token?: string;
  username?: string;
  password?: string;
}

export interface CredentialResolver {
  /** The credentials for `host:port`: a URL's host, or `<service>.<namespace>.svc`. */
  for(hostPort: string): WebhookCredentials;
}

const NONE: CredentialResolver = { for: () => ({}) };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class KubeconfigError extends Error {}

function text(v: unknown, where: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new KubeconfigError(`${where} must be a string`);
  return v;
}

function credentialsOf(user: Record<string, unknown>, name: string, baseDir: string): WebhookCredentials {
  const where = (field: string): string => `users[${JSON.stringify(name)}].user.${field}`;
  const file = (field: string): string | undefined => {
    const path = text(user[field], where(field));
    if (!path) return undefined;
    return readFileSync(isAbsolute(path) ? path : join(baseDir, path), 'utf8');
  };
  const data = (field: string): string | undefined => {
    const b64 = text(user[field], where(field));
    return b64 === undefined ? undefined : Buffer.from(b64, 'base64').toString('utf8');
  };
  if (user['auth-provider'] !== undefined) throw new KubeconfigError(`${where('auth-provider')}: auth provider not supported`);
  const out: WebhookCredentials = {};
  const token = text(user.token, where('token')) ?? file('tokenFile')?.trim();
  if (token) out.token = token;
  const cert = data('client-certificate-data') ?? file('client-certificate');
  const key = data('client-key-data') ?? file('client-key');
  if (cert || key) {
    if (!cert || !key) throw new KubeconfigError(`${where(cert ? 'client-key' : 'client-certificate')} is required with the other half of the client certificate`);
    out.certPem = cert;
    out.keyPem = key;
  }
  const username = text(user.username, where('username'));
  const password = text(user.password, where('password'));
  if (username !== undefined || password !== undefined) {
    out.username = username ?? '';
    out.password = password ?? '';
  }
  return out;
}

/** Reads the kubeconfig at `path`; no path means no credentials. Throws with the file named when it is unusable. */
export function loadCredentialResolver(path: string | undefined): CredentialResolver {
  if (!path) return NONE;
  try {
    const doc = decodeYaml(readFileSync(path, 'utf8'));
    if (!isObject(doc)) throw new KubeconfigError('it is not a kubeconfig (a YAML or JSON object)');
    const users = new Map<string, WebhookCredentials>();
    for (const entry of Array.isArray(doc.users) ? doc.users : []) {
      if (!isObject(entry) || typeof entry.name !== 'string') throw new KubeconfigError('every entry of users needs a name');
      users.set(entry.name, credentialsOf(isObject(entry.user) ? entry.user : {}, entry.name, dirname(path)));
    }
    let current: WebhookCredentials | undefined;
    const contextName = typeof doc['current-context'] === 'string' ? doc['current-context'] : '';
    for (const c of Array.isArray(doc.contexts) ? doc.contexts : []) {
      if (isObject(c) && c.name === contextName && isObject(c.context) && typeof c.context.user === 'string') current = users.get(c.context.user);
    }
    return { for: (hostPort) => resolve(users, hostPort) ?? current ?? {} };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(`the kubeconfig of the admission webhooks (${path}) cannot be used: ${why}`);
  }
}

function byName(users: ReadonlyMap<string, WebhookCredentials>, target: string): WebhookCredentials | undefined {
  const exact = users.get(target);
  if (exact) return exact;
  const steps = target.split('.');
  for (let i = 1; i < steps.length; i++) {
    const wildcard = users.get(`*.${steps.slice(i).join('.')}`);
    if (wildcard) return wildcard;
  }
  return undefined;
}

function resolve(users: ReadonlyMap<string, WebhookCredentials>, hostPort: string): WebhookCredentials | undefined {
  const found = byName(users, hostPort);
  if (found) return found;
  const colon = hostPort.lastIndexOf(':');
  if (colon > 0 && hostPort.slice(colon + 1) === '443') {
    const host = hostPort.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
    const bare = byName(users, host);
    if (bare) return bare;
  }
  return users.get('*');
}
