/**
 * The webhook's connection, read from a kubeconfig-format file as Kubernetes reads
 * `--authorization-webhook-config-file`: the cluster and user of the current context (the first
 * ones when no context is named); `server`, the CA (`certificate-authority` or `-data`) or
 * `insecure-skip-tls-verify`, and the client's certificate and key or bearer token. Paths are
 * relative to the file's directory. Throws with the file and the problem.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

export interface WebhookConnection {
  readonly server: URL;
  readonly ca?: Buffer;
  readonly insecureSkipTLSVerify: boolean;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly token?: string;
}

type Named<T> = { name?: string } & T;
interface KubeconfigShape {
  clusters?: Named<{ cluster?: Record<string, unknown> }>[];
  users?: Named<{ user?: Record<string, unknown> }>[];
  contexts?: Named<{ context?: { cluster?: string; user?: string } }>[];
  'current-context'?: string;
}

export function loadWebhookConnection(path: string): WebhookConnection {
  const fail = (why: string): never => {
    throw new Error(`authorization webhook config ${path}: ${why}`);
  };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return fail(`cannot read it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let doc: KubeconfigShape;
  try {
    doc = (parse(text, { maxAliasCount: 50 }) ?? {}) as KubeconfigShape;
  } catch (e) {
    return fail(`not valid YAML: ${(e as Error).message}`);
  }
  const dir = dirname(path);
  const context = doc.contexts?.find((c) => c.name === doc['current-context'])?.context;
  if (doc['current-context'] && !context) fail(`context ${JSON.stringify(doc['current-context'])} is not defined`);
  const cluster = (context?.cluster !== undefined ? doc.clusters?.find((c) => c.name === context.cluster) : doc.clusters?.[0])?.cluster;
  if (!cluster) return fail('no cluster is defined');
  const user = (context?.user !== undefined ? doc.users?.find((u) => u.name === context.user) : doc.users?.[0])?.user ?? {};
  const fileOrData = (from: Record<string, unknown>, fileKey: string, dataKey: string): Buffer | undefined => {
    const data = from[dataKey];
    if (typeof data === 'string' && data) return Buffer.from(data, 'base64');
    const file = from[fileKey];
    if (typeof file !== 'string' || !file) return undefined;
    const full = isAbsolute(file) ? file : join(dir, file);
    try {
      return readFileSync(full);
    } catch (e) {
      return fail(`cannot read ${fileKey} ${full}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  };
  const serverText = cluster.server;
  if (typeof serverText !== 'string' || !serverText) return fail('the cluster has no server');
  let server: URL;
  try {
    server = new URL(serverText);
  } catch {
    return fail(`server ${JSON.stringify(serverText)} is not a URL`);
  }
  if (server.protocol !== 'https:' && server.protocol !== 'http:') fail(`server ${JSON.stringify(serverText)} must be an https URL`);
  const ca = fileOrData(cluster, 'certificate-authority', 'certificate-authority-data');
  const cert = fileOrData(user, 'client-certificate', 'client-certificate-data');
  const key = fileOrData(user, 'client-key', 'client-key-data');
  if (Boolean(cert) !== Boolean(key)) fail('a client certificate needs its key, and a key its certificate');
  const tokenFile = typeof user.tokenFile === 'string' ? user.tokenFile : undefined;
  const token = typeof user.token === 'string' && user.token ? user.token : tokenFile ? (fileOrData({ f: tokenFile }, 'f', '') ?? Buffer.alloc(0)).toString('utf8').trim() : undefined;
  return {
    server,
    insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
    ...(ca ? { ca } : {}),
    ...(cert && key ? { cert, key } : {}),
    ...(token ? { token } : {}),
  };
}
