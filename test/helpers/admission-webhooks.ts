/**
 * For admission webhook tests: a CA and the certificates webhooks serve and clients present, reading
 * what a test webhook received, building webhook configurations, and reading admission metrics.
 */
import { request } from 'node:https';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../src/machinery/x509/certificates.js';
import type { TestServer } from './server.js';

export interface WebhookPki {
  ca: CertificateAndKey;
  /** The webhook's serving certificate, for 127.0.0.1, `extraIps` and `dnsNames`. */
  serving: CertificateAndKey;
  /** The CA bundle as a webhook configuration's caBundle (base64 of the PEM). */
  caBundle: string;
}

export async function webhookPki(opts: { extraIps?: string[]; dnsNames?: string[] } = {}): Promise<WebhookPki> {
  const ca = await createCertificateAuthority('admission-webhook-test-ca', 1);
  const serving = await issueCertificate(ca, {
    commonName: 'admission-webhook',
    ipAddresses: ['127.0.0.1', ...(opts.extraIps ?? [])],
    dnsNames: ['localhost', ...(opts.dnsNames ?? [])],
    usage: 'server',
    validForDays: 1,
  });
  return { ca, serving, caBundle: Buffer.from(ca.certPem).toString('base64') };
}

export interface WebhookCall {
  path: string;
  query: string;
  review: any;
  clientCN?: string;
  auth?: string;
  userAgent?: string;
}

/** What the test webhook at `host:port` received so far; `clear` empties its record. */
export function webhookCalls(host: string, port: number, tls: { ca: string; cert?: string; key?: string }, clear = false): Promise<WebhookCall[]> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path: '/calls', method: clear ? 'DELETE' : 'GET', ...tls, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as WebhookCall[]));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export interface HookSpec {
  name: string;
  url?: string;
  service?: { namespace: string; name: string; port?: number; path?: string };
  caBundle?: string;
  rules?: unknown[];
  failurePolicy?: 'Fail' | 'Ignore';
  matchPolicy?: 'Exact' | 'Equivalent';
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  objectSelector?: unknown;
  namespaceSelector?: unknown;
  reinvocationPolicy?: 'Never' | 'IfNeeded';
}

/** Config maps, CREATE and UPDATE: what most tests intercept. */
export const CONFIGMAP_RULES = [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];

/** One webhook of a configuration, with the defaults tests want. */
export function hook(h: HookSpec): Record<string, unknown> {
  const { url, service, caBundle, ...rest } = h;
  return {
    rules: CONFIGMAP_RULES,
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...rest,
    clientConfig: { ...(url ? { url } : {}), ...(service ? { service } : {}), ...(caBundle ? { caBundle } : {}) },
  };
}

export type WebhookKind = 'validating' | 'mutating';

export function configurationPath(s: TestServer, kind: WebhookKind, name = ''): string {
  const group = s.server.names.group('admissionregistration');
  return `/apis/${group}/v1/${kind}webhookconfigurations${name ? `/${name}` : ''}`;
}

/** Creates a webhook configuration and waits until a request sees it (configurations apply through the watch cache). */
export async function createConfiguration(s: TestServer, kind: WebhookKind, name: string, hooks: Record<string, unknown>[]): Promise<void> {
  const group = s.server.names.group('admissionregistration');
  const r = await s.post(configurationPath(s, kind), {
    apiVersion: `${group}/v1`,
    kind: kind === 'validating' ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration',
    metadata: { name },
    webhooks: hooks,
  });
  if (r.status !== 201) throw new Error(`creating ${kind} configuration ${name}: ${r.status} ${r.text}`);
}

export async function deleteConfiguration(s: TestServer, kind: WebhookKind, name: string): Promise<void> {
  const r = await s.del(configurationPath(s, kind, name));
  if (r.status !== 200 && r.status !== 404) throw new Error(`deleting ${kind} configuration ${name}: ${r.status} ${r.text}`);
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] as string] = l[2] as string;
    out.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return out;
}

/** The sum of the samples of `name` whose labels include `want`. */
export async function metric(s: TestServer, name: string, want: Record<string, string>): Promise<number> {
  const r = await s.get('/metrics');
  return samples(r.text)
    .filter((x) => x.name === name && Object.entries(want).every(([k, v]) => x.labels[k] === v))
    .reduce((a, x) => a + x.value, 0);
}

/** The labels of every sample of `name`. */
export async function metricLabels(s: TestServer, name: string): Promise<Record<string, string>[]> {
  const r = await s.get('/metrics');
  return samples(r.text).filter((x) => x.name === name).map((x) => x.labels);
}

/** The `Warning` header values of a reply, unquoted. */
export function warningsOf(headers: Record<string, string | string[] | undefined>): string[] {
  const raw = headers.warning;
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : raw.split(/,(?=\s*\d{3} )/);
  return values.map((v) => {
    const m = /^\s*299 - "((?:[^"\\]|\\.)*)"/.exec(v);
    return m ? (m[1] as string).replace(/\\(.)/g, '$1') : v.trim();
  });
}

/** Calls `fn` until `ok` holds for its result (a new configuration takes a moment to apply); the last result otherwise. */
export async function eventually<T>(fn: () => Promise<T>, ok: (t: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const t = await fn();
    if (ok(t) || Date.now() > deadline) return t;
    await new Promise((r) => setTimeout(r, 50));
  }
}
