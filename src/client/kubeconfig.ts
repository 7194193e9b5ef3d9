/**
 * Reads a kubeconfig (clusters, users, contexts, current-context) into what the network client needs
 * for one context: the server, the CA to trust, and the user's credentials (client certificate and
 * key, token or token file, or an exec credential plugin). `*-data` fields are base64 PEM; file paths
 * and a relative exec command are relative to the kubeconfig's own directory, as kubectl reads them.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { createApiNames, type ApiNames } from '../machinery/api-names.js';

export type InteractiveMode = 'Never' | 'IfAvailable' | 'Always';

export interface ExecConfig {
  /** As written: a bare name is looked up on PATH; a relative path is resolved against `baseDir`. */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  /** `client.authentication.<domain>/v1` or `/v1beta1`. */
  readonly apiVersion: string;
  readonly installHint?: string;
  readonly provideClusterInfo: boolean;
  /** Always set: v1 requires it, v1beta1 defaults to IfAvailable. */
  readonly interactiveMode: InteractiveMode;
}

export interface ClusterConfig {
  readonly server: string;
  readonly caPem?: string;
  readonly insecureSkipTlsVerify: boolean;
  readonly tlsServerName?: string;
  /** The cluster's `client.authentication.<domain>/exec` extension, handed to exec plugins as `spec.cluster.config`. */
  readonly execExtension?: unknown;
}

export interface UserConfig {
  readonly clientCertPem?: string;
  readonly clientKeyPem?: string;
  readonly token?: string;
  /** Absolute; read on every request so that a rotated token is picked up. */
  readonly tokenFile?: string;
  readonly exec?: ExecConfig;
}

export interface ClientConfig {
  readonly contextName: string;
  readonly cluster: ClusterConfig;
  readonly user: UserConfig;
  /** The kubeconfig's directory: relative paths in it are relative to this. */
  readonly baseDir: string;
  readonly names: ApiNames;
}

export interface LoadOptions {
  /** A context other than current-context. */
  readonly context?: string;
  /** The API domain whose `client.authentication.<domain>` group the exec plugins speak; default orch.io. */
  readonly domain?: string;
}

export class KubeconfigError extends Error {
  override readonly name = 'KubeconfigError';
}

export function loadKubeconfig(path: string, opts: LoadOptions = {}): ClientConfig {
  const absolute = resolve(path);
  return parseKubeconfig(readFileSync(absolute, 'utf8'), dirname(absolute), opts);
}

type Raw = Record<string, unknown>;

const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function named(list: unknown, key: string, name: string, what: string): Raw {
  const entries = Array.isArray(list) ? list.filter(isRecord) : [];
  const entry = entries.find((e) => e.name === name);
  if (!entry) throw new KubeconfigError(`${what} "${name}" not found in the kubeconfig`);
  const body = entry[key];
  return isRecord(body) ? body : {};
}

/** `parseKubeconfig(text, baseDir)`: the same as loadKubeconfig for text already read. */
export function parseKubeconfig(text: string, baseDir: string, opts: LoadOptions = {}): ClientConfig {
  const names = createApiNames(opts.domain);
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new KubeconfigError(`the kubeconfig is not valid YAML: ${(e as Error).message}`);
  }
  if (!isRecord(doc)) throw new KubeconfigError('the kubeconfig is empty or not a mapping');
  const contextName = opts.context ?? str(doc['current-context']);
  if (!contextName) throw new KubeconfigError('the kubeconfig has no current-context and no context was given');
  const context = named(doc.contexts, 'context', contextName, 'context');
  const clusterName = str(context.cluster);
  if (!clusterName) throw new KubeconfigError(`context "${contextName}" names no cluster`);
  const userName = str(context.user);
  const cluster = readCluster(named(doc.clusters, 'cluster', clusterName, 'cluster'), baseDir, names);
  const user = userName ? readUser(named(doc.users, 'user', userName, 'user'), baseDir, names, userName) : {};
  return { contextName, cluster, user, baseDir, names };
}

/** PEM from a `*-data` field (base64) or the file its path field names, relative to baseDir. */
function pemFrom(section: Raw, field: string, baseDir: string): string | undefined {
  const data = str(section[`${field}-data`]);
  if (data) return Buffer.from(data, 'base64').toString('utf8');
  const file = str(section[field]);
  if (!file) return undefined;
  try {
    return readFileSync(resolvePath(file, baseDir), 'utf8');
  } catch (e) {
    throw new KubeconfigError(`unable to read ${field} from ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

const resolvePath = (p: string, baseDir: string): string => (isAbsolute(p) ? p : resolve(baseDir, p));

function readCluster(c: Raw, baseDir: string, names: ApiNames): ClusterConfig {
  const server = str(c.server);
  if (!server) throw new KubeconfigError('the cluster has no server');
  const caPem = pemFrom(c, 'certificate-authority', baseDir);
  const tlsServerName = str(c['tls-server-name']);
  const extensionName = `${execGroup(names)}/exec`;
  const ext = Array.isArray(c.extensions) ? c.extensions.filter(isRecord).find((e) => e.name === extensionName) : undefined;
  return {
    server: server.replace(/\/+$/, ''),
    ...(caPem ? { caPem } : {}),
    insecureSkipTlsVerify: c['insecure-skip-tls-verify'] === true,
    ...(tlsServerName ? { tlsServerName } : {}),
    ...(ext && ext.extension !== undefined ? { execExtension: ext.extension } : {}),
  };
}

function readUser(u: Raw, baseDir: string, names: ApiNames, userName: string): UserConfig {
  const clientCertPem = pemFrom(u, 'client-certificate', baseDir);
  const clientKeyPem = pemFrom(u, 'client-key', baseDir);
  const token = str(u.token);
  const tokenFile = str(u.tokenFile);
  const exec = isRecord(u.exec) ? readExec(u.exec, names, userName) : undefined;
  return {
    ...(clientCertPem ? { clientCertPem } : {}),
    ...(clientKeyPem ? { clientKeyPem } : {}),
    ...(token ? { token } : {}),
    ...(tokenFile ? { tokenFile: resolvePath(tokenFile, baseDir) } : {}),
    ...(exec ? { exec } : {}),
  };
}

/** `client.authentication.orch.io` (`client.authentication.k8s.io` under k8s.io). */
export const execGroup = (names: ApiNames): string => names.group('client.authentication');

const MODES: readonly InteractiveMode[] = ['Never', 'IfAvailable', 'Always'];

/** The exec block, checked as client-go checks it before ever running the command. */
export function readExec(e: Raw, names: ApiNames, userName = ''): ExecConfig {
  const group = execGroup(names);
  const apiVersion = str(e.apiVersion);
  const command = str(e.command);
  if (!command) throw new KubeconfigError(`exec plugin of user "${userName}": command must be specified`);
  if (apiVersion !== `${group}/v1` && apiVersion !== `${group}/v1beta1`) {
    throw new KubeconfigError(`exec plugin: invalid apiVersion "${apiVersion ?? ''}"`);
  }
  const mode = str(e.interactiveMode);
  if (mode === undefined && apiVersion.endsWith('/v1')) {
    throw new KubeconfigError(`exec plugin: interactiveMode must be specified for ${userName} to use exec authentication plugin`);
  }
  if (mode !== undefined && !MODES.includes(mode as InteractiveMode)) {
    throw new KubeconfigError(`exec plugin: invalid interactiveMode "${mode}", must be one of ${MODES.join(', ')}`);
  }
  const args = Array.isArray(e.args) ? e.args.map(String) : [];
  const env = Array.isArray(e.env) ? e.env.filter(isRecord).map((v) => ({ name: String(v.name ?? ''), value: String(v.value ?? '') })) : [];
  const installHint = str(e.installHint);
  return {
    command,
    args,
    env,
    apiVersion,
    ...(installHint ? { installHint } : {}),
    provideClusterInfo: e.provideClusterInfo === true,
    interactiveMode: (mode as InteractiveMode | undefined) ?? 'IfAvailable',
  };
}
