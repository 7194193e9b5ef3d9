/**
 * The Webhook mode: each decision is a SubjectAccessReview POSTed to the webhook (version v1beta1
 * or v1, as `--authorization-webhook-version` says), whose status decides: allowed → allow,
 * denied → deny, neither → no opinion, with the webhook's reason. Answers are cached by the spec
 * asked (allows for the authorized TTL, the rest for the unauthorized TTL). A webhook that cannot
 * be reached, times out, or answers badly is retried with backoff, then the mode fails to decide:
 * no opinion with a failure, which a later mode may still overrule and otherwise is a 500, as in
 * Kubernetes. It cannot list rules: SelfSubjectRulesReview is marked incomplete.
 */
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { UserInfo } from '../../machinery/user-info.js';
import type { AuthorizationAttributes, AuthorizationResult, AuthorizerMode } from '../index.js';
import { ExpiringCache } from './cache.js';
import type { WebhookConnection } from './config.js';

export interface WebhookOptions {
  connection: WebhookConnection;
  /** `authorization.orch.io`: the group of the SubjectAccessReview sent. */
  authorizationGroup: string;
  version: 'v1' | 'v1beta1';
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  /** Per call (default 30 s). */
  timeoutMs?: number;
  /** Attempts in all, and the first backoff delay, growing 1.5× (defaults 5 and 500 ms, as Kubernetes). */
  attempts?: number;
  initialBackoffMs?: number;
}

interface ReviewStatus {
  allowed?: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

/** Kubernetes does not cache attributes this large. */
const MAX_CACHED_ATTRIBUTES = 10_000;

/** The spec sent, in the version's field names (v1beta1 says `group` where v1 says `groups`). */
export function reviewSpec(a: AuthorizationAttributes, version: 'v1' | 'v1beta1'): Record<string, unknown> {
  const user: UserInfo | undefined = a.user;
  const spec: Record<string, unknown> = {};
  if (user) {
    if (user.username) spec.user = user.username;
    if (user.uid) spec.uid = user.uid;
    if (user.groups.length) spec[version === 'v1' ? 'groups' : 'group'] = [...user.groups];
    if (user.extra && Object.keys(user.extra).length) spec.extra = structuredClone(user.extra);
  }
  if (a.isResourceRequest) {
    const ra: Record<string, string> = {};
    const put = (k: string, v: string): void => {
      if (v) ra[k] = v;
    };
    put('namespace', a.namespace);
    put('verb', a.verb);
    put('group', a.apiGroup);
    put('version', a.apiVersion);
    put('resource', a.resource);
    put('subresource', a.subresource);
    put('name', a.name);
    spec.resourceAttributes = ra;
  } else {
    spec.nonResourceAttributes = { path: a.path, verb: a.verb };
  }
  return spec;
}

class WebhookError extends Error {
  constructor(
    message: string,
    /** Worth another attempt: the webhook was unreachable, timed out, or answered 5xx or 429. */
    readonly retriable: boolean,
  ) {
    super(message);
  }
}

export function webhookAuthorizer(opts: WebhookOptions): AuthorizerMode {
  const cache = new ExpiringCache<ReviewStatus>(8192);
  const apiVersion = `${opts.authorizationGroup}/${opts.version}`;
  const attempts = opts.attempts ?? 5;
  const initialBackoffMs = opts.initialBackoffMs ?? 500;

  const call = (body: string, signal: AbortSignal): Promise<ReviewStatus> =>
    new Promise((resolve, reject) => {
      const c = opts.connection;
      const https = c.server.protocol === 'https:';
      const headers: Record<string, string | number> = { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(body) };
      if (c.token) headers.Authorization = `Bearer ${c.token}`;
      const options = {
        method: 'POST',
        headers,
        timeout: opts.timeoutMs ?? 30_000,
        signal,
        ...(https ? { ...(c.ca ? { ca: c.ca } : {}), ...(c.cert && c.key ? { cert: c.cert, key: c.key } : {}), rejectUnauthorized: !c.insecureSkipTLSVerify } : {}),
      };
      const req = (https ? httpsRequest : httpRequest)(c.server, options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', (e) => reject(new WebhookError(`reading the authorization webhook's answer: ${e.message}`, true)));
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          if (code < 200 || code >= 300) {
            reject(new WebhookError(`the authorization webhook answered HTTP ${code}`, code >= 500 || code === 429));
            return;
          }
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            reject(new WebhookError('the authorization webhook answered something that is not JSON', false));
            return;
          }
          const review = parsed as { apiVersion?: unknown; kind?: unknown; status?: ReviewStatus };
          if (review.kind !== 'SubjectAccessReview' || review.apiVersion !== apiVersion) {
            reject(new WebhookError(`the authorization webhook answered ${String(review.kind)} ${String(review.apiVersion)}, not SubjectAccessReview ${apiVersion}`, false));
            return;
          }
          resolve(review.status ?? {});
        });
      });
      req.on('timeout', () => req.destroy(new WebhookError('the authorization webhook did not answer in time', true)));
      req.on('error', (e) => reject(e instanceof WebhookError ? e : new WebhookError(`calling the authorization webhook: ${e.message}`, true)));
      req.end(body);
    });

  const review = async (body: string, signal: AbortSignal): Promise<ReviewStatus> => {
    let delay = initialBackoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await call(body, signal);
      } catch (e) {
        if (signal.aborted) throw e;
        if (!(e instanceof WebhookError) || !e.retriable || attempt >= attempts) throw e;
        await new Promise((r) => setTimeout(r, delay * (0.9 + Math.random() * 0.2)));
        delay *= 1.5;
      }
    }
  };

  return {
    async authorize(a, signal): Promise<AuthorizationResult> {
      const spec = reviewSpec(a, opts.version);
      const key = JSON.stringify(spec);
      let status = cache.get(key);
      if (!status) {
        try {
          status = await review(JSON.stringify({ apiVersion, kind: 'SubjectAccessReview', spec }), signal);
        } catch (e) {
          if (signal.aborted) throw e;
          return { decision: 'no-opinion', reason: '', failure: e instanceof Error ? e.message : String(e) };
        }
        const size = a.namespace.length + a.verb.length + a.apiGroup.length + a.apiVersion.length + a.resource.length + a.subresource.length + a.name.length + a.path.length;
        if (size < MAX_CACHED_ATTRIBUTES) cache.set(key, status, status.allowed ? opts.authorizedTtlMs : opts.unauthorizedTtlMs);
      }
      const reason = status.reason ?? '';
      if (status.denied && status.allowed) return { decision: 'deny', reason, failure: 'webhook subject access review returned both allow and deny response' };
      if (status.denied) return { decision: 'deny', reason };
      if (status.allowed) return { decision: 'allow', reason };
      // As Kubernetes, the webhook's evaluationError is not passed on: only its decision and reason count.
      return { decision: 'no-opinion', reason };
    },
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true, errors: ['webhook authorizer does not support user rule resolution'] }),
  };
}
