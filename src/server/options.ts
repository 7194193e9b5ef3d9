/** Server options with their defaults, shared by the library entry point and the CLI. */
import type { ResourceFactory } from '../registry/define-resource.js';
import type { CacheOptions } from '../storage/cacher/cache.js';
import type { Logger, LogLevel } from '../machinery/logger.js';
import type { OidcOptions } from '../authn/oidc/index.js';
import type { TokenWebhookOptions } from '../authn/token-webhook/index.js';
import type { AuditServerOptions } from './audit.js';
import type { AdmissionOptions } from '../admission/options.js';
import type { ControllerManagerOptions } from './controller-manager.js';

export interface ServerOptions {
  /**
   * Address to listen on; loopback unless told otherwise (the library and, until callers are
   * authenticated, the CLI's `--bind-address`; kube-apiserver's default is 0.0.0.0).
   */
  bindAddress?: string;
  /** Port of the listener (`--secure-port`); 0 picks a free one. */
  port?: number;
  /**
   * Serve plain HTTP/1.1 instead of HTTPS (`--insecure-plain-http`): for test suites and local tools
   * that are about something other than transport security. Refused unless `bindAddress` is a
   * loopback address; logged as a warning at every start.
   */
  plainHttp?: boolean;
  /** PEM serving certificate (chain) and its key (`--tls-cert-file`, `--tls-private-key-file`); generated when absent. */
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  /** Lowest TLS version accepted, in Kubernetes' names (default VersionTLS12). */
  tlsMinVersion?: TlsVersionName;
  /** PEM CA bundle client certificates are verified against (`--client-ca-file`); the server's own CA when absent. */
  clientCaFile?: string;
  /**
   * Let requests without a credential in as system:anonymous in system:unauthenticated
   * (`--anonymous-auth`, default true; never with the AlwaysAllow authorizer). Invalid credentials
   * always get 401. Has no effect in plain-HTTP mode, where every request is system:unsecured.
   */
  anonymousAuth?: boolean;
  /**
   * The authenticating proxy (`--requestheader-*`): its client certificate must verify against
   * `requestheaderClientCaFile` (PEM) and, when `requestheaderAllowedNames` is given, carry one of
   * those common names; only then are the identity headers read: the first of
   * `requestheaderUsernameHeaders` with a value is the user, every value of
   * `requestheaderGroupHeaders` a group, and headers starting with one of
   * `requestheaderExtraHeadersPrefix` extra attributes (the rest of the name lowercased and
   * percent-decoded). The headers are removed from every request.
   */
  requestheaderClientCaFile?: string;
  requestheaderAllowedNames?: readonly string[];
  requestheaderUsernameHeaders?: readonly string[];
  requestheaderGroupHeaders?: readonly string[];
  requestheaderExtraHeadersPrefix?: readonly string[];
  /** CSV file of static bearer tokens, `token,user,uid[,"group1,group2"]` (`--token-auth-file`), read at start-up. */
  tokenAuthFile?: string;
  /**
   * The audiences of this server (`--api-audiences`): a credential must be good for one of them.
   * Empty by default: credentials naming no audience are good for this server.
   */
  apiAudiences?: readonly string[];
  /** OpenID Connect ID tokens as bearer tokens (the `--oidc-*` flags); off when absent. */
  oidc?: OidcOptions;
  /** Bearer tokens checked by a TokenReview webhook (the `--authentication-token-webhook-*` flags); off when absent. */
  tokenWebhook?: TokenWebhookOptions;
  /**
   * Bootstrap tokens authenticate (`--enable-bootstrap-token-auth`): `<id>.<secret>` bearer tokens
   * backed by `bootstrap-token-<id>` Secrets in the system namespace. Off by default.
   */
  enableBootstrapTokenAuth?: boolean;
  /**
   * Service-account token issuers (`--service-account-issuer`, repeatable): the first issues, all
   * are accepted. Default `https://kubernetes.default.svc.cluster.local`.
   */
  serviceAccountIssuers?: readonly string[];
  /** PEM files whose RSA/ECDSA keys verify service-account tokens (`--service-account-key-file`); default the serving key. */
  serviceAccountKeyFiles?: readonly string[];
  /** PEM private key tokens are signed with (`--service-account-signing-key-file`); default the serving key. */
  serviceAccountSigningKeyFile?: string;
  /** Tokens of deleted service accounts and Secrets stop working (`--service-account-lookup`, default true). */
  serviceAccountLookup?: boolean;
  /** Longest token a TokenRequest gets, in seconds (`--service-account-max-token-expiration`); 0 or absent: no limit. */
  serviceAccountMaxTokenExpirationSeconds?: number;
  /** Pod-bound 3607-second tokens live a year, stale after 3607 s (`--service-account-extend-token-expiration`, default true). */
  serviceAccountExtendTokenExpiration?: boolean;
  /** The key set's URL in the issuer's discovery document (`--service-account-jwks-uri`); default this server's /openid/v1/jwks. */
  serviceAccountJwksUri?: string;
  /** The address the server is known by in the cluster (`--advertise-address`); goes into the generated serving certificate. */
  advertiseAddress?: string;
  /** Directory of the SQLite store; setting it makes `sqlite` the default backend. */
  dataDir?: string;
  storageBackend?: 'sqlite' | 'memory' | 'etcd';
  /** Client URLs of the etcd cluster (the `etcd` backend), e.g. ['http://127.0.0.1:2379']. */
  etcdServers?: readonly string[];
  /** Prefix of this cluster's keys in etcd (default `/orch`), so several clusters can share one etcd. */
  etcdPrefix?: string;
  /** The API domain every group, media type and annotation derives from (default orch.io). */
  apiDomain?: string;
  /** `--runtime-config` syntax: `group/version[/resource][=true|false],...`. */
  runtimeConfig?: string;
  /** How long history is kept for watch resumption and continue tokens (default 5 minutes). */
  watchHistoryMs?: number;
  /** Largest request body accepted (default 3 MiB). */
  maxRequestBodyBytes?: number;
  /** Deadline of non-watch requests (default 60 s). */
  requestTimeoutSeconds?: number;
  /** Watches without timeoutSeconds last between this and twice this (default 1800 s). */
  minRequestTimeoutSeconds?: number;
  /**
   * API Priority and Fairness (`--enable-priority-and-fairness`, default true); off, the two
   * max-inflight limits apply as they are (src/flowcontrol/).
   */
  enablePriorityAndFairness?: boolean;
  /** `--max-requests-inflight` (400): with APF, summed with the next into the server concurrency limit; without, the read-only limit (0: none). */
  maxRequestsInflight?: number;
  /** `--max-mutating-requests-inflight` (200): with APF, see above; without, the limit of other requests (0: none). */
  maxMutatingRequestsInflight?: number;
  /**
   * Where Service cluster IPs come from: one CIDR, or two of different families for dual stack
   * (`10.0.0.0/24,fd00::/108`). Default 10.0.0.0/24, as kube-apiserver.
   */
  serviceClusterIPRange?: string;
  /** Where Service node ports come from, `first-last` (default 30000-32767). */
  serviceNodePortRange?: string;
  /** Extra kinds to serve beside the built-in ones (library use, tests). */
  resources?: readonly ResourceFactory[];
  /** Tuning of the watch cache (bookmark interval, window size). */
  watchCache?: CacheOptions;
  /**
   * `--authorization-mode`: the modes asked in order (AlwaysAllow, AlwaysDeny, ABAC, RBAC, Webhook);
   * default RBAC. Members of system:masters are always allowed.
   */
  authorizationModes?: readonly string[];
  /** `--authorization-policy-file`: ABAC's policy, one JSON object per line. */
  authorizationPolicyFile?: string;
  /** `--authorization-webhook-config-file`: kubeconfig-format file naming the authorization webhook. */
  authorizationWebhookConfigFile?: string;
  /** `--authorization-webhook-version`: the SubjectAccessReview version sent (default v1beta1). */
  authorizationWebhookVersion?: string;
  /** `--authorization-webhook-cache-authorized-ttl` in milliseconds (default 5 minutes). */
  authorizationWebhookCacheAuthorizedTtlMs?: number;
  /** `--authorization-webhook-cache-unauthorized-ttl` in milliseconds (default 30 s). */
  authorizationWebhookCacheUnauthorizedTtlMs?: number;
  /** Auditing (the `--audit-*` flags): a policy and a log file and/or webhook; off without a policy (src/server/audit.ts). */
  audit?: AuditServerOptions;
  /** Retries of a failed webhook call: attempts in all and the first delay (default 5 and 500 ms, growing 1.5×). Library only. */
  authorizationWebhookRetry?: { attempts: number; initialBackoffMs: number };
  /** How long one call of the authorization webhook may take (default 30 s, as Kubernetes'). Library only. */
  authorizationWebhookTimeoutMs?: number;
  /** Admission plugins: which run (`--enable/disable-admission-plugins`), their configuration file, their settings. */
  admission?: AdmissionOptions;
  /** The in-process controllers: `--controllers`, leader election, the cluster signing CA (src/server/controller-manager.ts). */
  controllerManager?: ControllerManagerOptions;
  logLevel?: LogLevel;
  logger?: Logger;
}

/** `--tls-min-version` values; TLS 1.0 and 1.1, which Node's OpenSSL no longer offers, are left out. */
export const TLS_VERSION_NAMES = { VersionTLS12: 'TLSv1.2', VersionTLS13: 'TLSv1.3' } as const;
export type TlsVersionName = keyof typeof TLS_VERSION_NAMES;

export function parseTlsMinVersion(text: string): TlsVersionName {
  if (Object.hasOwn(TLS_VERSION_NAMES, text)) return text as TlsVersionName;
  throw new Error(`--tls-min-version: unknown TLS version ${JSON.stringify(text)}; use one of ${Object.keys(TLS_VERSION_NAMES).join(', ')}`);
}

export const DEFAULTS = {
  /** The library's listen address (the CLI's is CLI_DEFAULTS.bindAddress). */
  bindAddress: '127.0.0.1',
  tlsMinVersion: 'VersionTLS12',
  apiDomain: 'orch.io',
  watchHistoryMs: 5 * 60 * 1000,
  maxRequestBodyBytes: 3 * 1024 * 1024,
  requestTimeoutSeconds: 60,
  minRequestTimeoutSeconds: 1800,
  maxRequestsInflight: 400,
  maxMutatingRequestsInflight: 200,
} as const;

/**
 * Where the command differs from the library. kube-apiserver binds every interface; this server
 * stays on loopback until it authorizes requests, since whoever reaches it has full access.
 */
export const CLI_DEFAULTS = {
  bindAddress: '127.0.0.1',
  securePort: 6443,
} as const;

/** Parses durations as Go writes them: `300ms`, `90s`, `5m`, `1h30m`; a bare number is seconds. */
export function parseDuration(text: string): number {
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let rest = text;
  const re = /^(\d+(?:\.\d+)?)(ms|s|m|h)/;
  if (!rest) throw new Error('empty duration');
  while (rest) {
    const m = re.exec(rest);
    if (!m) throw new Error(`invalid duration ${JSON.stringify(text)}: use forms like 90s, 5m or 1h30m`);
    total += Number(m[1]) * (units[m[2] as string] as number);
    rest = rest.slice(m[0].length);
  }
  return total;
}
