/**
 * Reads `--authentication-token-webhook-config-file`: a kubeconfig whose current context names the
 * webhook (`clusters`: `server`, `certificate-authority[-data]`, `insecure-skip-tls-verify`,
 * `tls-server-name`) and the API server's identity towards it (`users`: `client-certificate[-data]`
 * with `client-key[-data]`, or `token`/`tokenFile`). Relative file paths are relative to the
 * kubeconfig's own directory, as client-go resolves them. Reads the files once, at start; throws an
 * Error naming the file and what is wrong (the server then refuses to start).
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';

export interface WebhookEndpoint {
  /** The full URL the TokenReview is POSTed to, path included. */
  server: string;
  ca?: string;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  clientCert?: string;
  clientKey?: string;
  token?: string;
}

type Dict = Record<string, unknown>;

export function loadWebhookKubeconfig(file: string): WebhookEndpoint {
  const where = `--authentication-token-webhook-config-file ${file}`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`${where}: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new Error(`${where}: not YAML or JSON: ${(e as Error).message}`);
  }
  if (!isDict(doc)) throw new Error(`${where}: not a kubeconfig (expected a mapping with clusters, users and contexts)`);
  const base = dirname(resolve(file));
  function fail(why: string): never {
    throw new Error(`${where}: ${why}`);
  }

  const contextName = str(doc['current-context']) ?? fail('no current-context is set');
  const context = named(doc.contexts, contextName, 'context') ?? fail(`context "${contextName}" (current-context) is not among contexts`);
  const clusterName = str(context.cluster) ?? fail(`context "${contextName}" names no cluster`);
  const cluster = named(doc.clusters, clusterName, 'cluster') ?? fail(`cluster "${clusterName}" is not among clusters`);
  const userName = str(context.user);
  const user = userName ? (named(doc.users, userName, 'user') ?? fail(`user "${userName}" is not among users`)) : {};

  const server = str(cluster.server) ?? fail(`cluster "${clusterName}" has no server`);
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return fail(`cluster "${clusterName}": server ${JSON.stringify(server)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(`cluster "${clusterName}": server ${JSON.stringify(server)} must be an https URL`);

  const read = (what: string, dataKey: string, fileKey: string, from: Dict): string | undefined => {
    const data = str(from[dataKey]);
    if (data) {
      const decoded = Buffer.from(data, 'base64').toString('utf8');
      if (!decoded.includes('-----BEGIN')) fail(`${what}: ${dataKey} is not base64 of PEM`);
      return decoded;
    }
    const path = str(from[fileKey]);
    if (!path) return undefined;
    const full = isAbsolute(path) ? path : resolve(base, path);
    try {
      return readFileSync(full, 'utf8');
    } catch (e) {
      return fail(`${what}: ${fileKey}: ${(e as Error).message}`);
    }
  };

  const clusterWhat = `cluster "${clusterName}"`;
  const userWhat = `user "${userName ?? ''}"`;
  const ca = read(clusterWhat, 'certificate-authority-data', 'certificate-authority', cluster);
  const clientCert = read(userWhat, 'client-certificate-data', 'client-certificate', user);
  const clientKey = read(userWhat, 'client-key-data', 'client-key', user);
  if ((clientCert === undefined) !== (clientKey === undefined)) fail(`${userWhat}: a client certificate needs its key, and a key its certificate`);
  let token = str(user.token);
  const tokenFile = str(user.tokenFile);
  if (!token && tokenFile) {
    try {
      token = readFileSync(isAbsolute(tokenFile) ? tokenFile : resolve(base, tokenFile), 'utf8').trim();
    } catch (e) {
      fail(`${userWhat}: tokenFile: ${(e as Error).message}`);
    }
  }
  const insecure = cluster['insecure-skip-tls-verify'] === true;
  if (insecure && ca !== undefined) fail(`${clusterWhat}: certificate-authority and insecure-skip-tls-verify cannot both be set`);
  const tlsServerName = str(cluster['tls-server-name']);
  return {
    server,
    ...(ca !== undefined ? { ca } : {}),
    insecureSkipTlsVerify: insecure,
    ...(tlsServerName ? { tlsServerName } : {}),
    ...(clientCert !== undefined && clientKey !== undefined ? { clientCert, clientKey } : {}),
    ...(token ? { token } : {}),
  };
}

function isDict(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The entry called `name` of a kubeconfig list (`- name: x\n  cluster: {...}`), its inner mapping. */
function named(list: unknown, name: string, field: 'cluster' | 'user' | 'context'): Dict | undefined {
  if (!Array.isArray(list)) return undefined;
  const entry = list.find((e): e is Dict => isDict(e) && e.name === name);
  if (!entry) return undefined;
  const inner = entry[field];
  return isDict(inner) ? inner : {};
}
