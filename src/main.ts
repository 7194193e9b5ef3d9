#!/usr/bin/env node
/** The orch-apiserver command: flags → options → a running server, until SIGINT or SIGTERM. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_AUTHORIZATION_MODES, parseAuthorizationModes, validateAuthorizationSettings } from './authz/modes.js';
import { createApiNames } from './machinery/api-names.js';
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, DEFAULT_SERVICE_NODE_PORT_RANGE, parseServiceRanges } from './registry/allocator/index.js';
import { parseRuntimeConfig } from './registry/runtime-config.js';
import { createServer } from './server/create-server.js';
import { domainBanner } from './server/domain-banner.js';
import { AUDIT_BOOLEAN_FLAGS, AUDIT_FLAGS, AUDIT_HELP, parseAuditFlags } from './server/audit-flags.js';
import { ADMISSION_FLAGS, parseAdmissionFlags } from './server/admission-flags.js';
import type { AdmissionOptions } from './admission/options.js';
import { CONTROLLER_FLAGS, CONTROLLER_FLAGS_HELP, parseControllerFlags } from './server/controller-flags.js';
import { EXTERNAL_AUTHN_FLAGS, externalAuthnFlagsGiven, parseExternalAuthnFlags, type ExternalAuthnOptions } from './server/external-authn-flags.js';
import { CLI_DEFAULTS, DEFAULTS, parseDuration, parseTlsMinVersion, type TlsVersionName } from './server/options.js';
import { isLoopback } from './server/listen-address.js';
import { parseIP } from './machinery/ip.js';
import { PACKAGE_VERSION } from './server/package-version.js';
import { DEFAULT_ETCD_PREFIX } from './storage/etcd/etcd-kv.js';

const HELP = `orch-apiserver ${PACKAGE_VERSION}: the control-plane API server of a container cluster.

Usage: orch-apiserver [flags]

  --bind-address=IP             address to listen on (default ${CLI_DEFAULTS.bindAddress}); loopback until
                                requests are authorized, 0.0.0.0 for every interface
  --secure-port=N               HTTPS port, HTTP/2 and HTTP/1.1 (default ${CLI_DEFAULTS.securePort}; 0 picks a free port)
  --advertise-address=IP        address the cluster knows the server by; goes into the generated
                                serving certificate (default: --bind-address, else the host's address)
  --tls-cert-file=FILE          PEM serving certificate (chain); with --tls-private-key-file. Without
                                them a CA and a serving certificate are made once in DIR/pki
  --tls-private-key-file=FILE   PEM private key of --tls-cert-file
  --tls-min-version=VERSION     VersionTLS12 (default) or VersionTLS13
  --client-ca-file=FILE         PEM CA bundle client certificates are verified against (default: the
                                CA made in DIR/pki, which also signs the admin kubeconfig's certificate)
  --insecure-plain-http         serve plain HTTP instead of HTTPS, on loopback only (tests, local tools);
                                every request is then user system:unsecured in system:masters
  --anonymous-auth=BOOL         let requests without a credential in as system:anonymous (default true;
                                invalid credentials always get 401)
  --token-auth-file=FILE        CSV of static bearer tokens: token,user,uid[,"group1,group2"]
  --requestheader-client-ca-file=FILE
                                PEM CA bundle an authenticating proxy's client certificate must verify
                                against before its identity headers are read
  --requestheader-allowed-names=LIST
                                common names the proxy's certificate may have (default: any)
  --requestheader-username-headers=LIST
                                headers naming the user, first with a value wins (X-Remote-User)
  --requestheader-group-headers=LIST
                                headers naming groups, every value one group (X-Remote-Group)
  --requestheader-extra-headers-prefix=LIST
                                header prefixes of extra attributes (X-Remote-Extra-)
  --oidc-issuer-url=URL         https URL of the OpenID Connect issuer whose ID tokens are accepted as
                                bearer tokens (needs --oidc-client-id); its keys come from discovery
  --oidc-client-id=ID           client ID every ID token must be issued for (its aud)
  --oidc-ca-file=FILE           PEM CA the issuer's certificate must chain to (default: the host's roots)
  --oidc-username-claim=CLAIM   claim used as the user name (default sub)
  --oidc-username-prefix=PREFIX prefix of user names; default: the issuer URL and # unless the claim is
                                email; - for none
  --oidc-groups-claim=CLAIM     claim used as groups: a string or a list of strings
  --oidc-groups-prefix=PREFIX   prefix of group names
  --oidc-required-claim=KEY=VALUE
                                a claim every ID token must carry with this value; repeatable
  --oidc-signing-algs=ALG[,ALG] allowed signing algorithms: RS256 RS384 RS512 ES256 ES384 ES512 PS256
                                PS384 PS512 (default RS256)
  --authentication-token-webhook-config-file=FILE
                                kubeconfig-format file naming a TokenReview webhook that checks bearer
                                tokens (server, certificate-authority, the server's client certificate)
  --authentication-token-webhook-cache-ttl=DURATION
                                how long the webhook's decisions are cached (default 2m)
  --authentication-token-webhook-version=VERSION
                                TokenReview version sent and expected back: v1beta1 (default) or v1
  --api-audiences=AUD[,AUD...]  audiences a token must name one of to be good for this server
                                (default: the --service-account-issuer values)
  --enable-bootstrap-token-auth[=true|false]
                                bootstrap tokens (<id>.<secret>, Secrets bootstrap-token-<id> in the
                                system namespace) authenticate (default false)
  --service-account-issuer=URL  issuer of service-account tokens; repeatable: the first issues, all
                                are accepted (default https://kubernetes.default.svc.cluster.local)
  --service-account-key-file=FILE
                                PEM file of RSA/ECDSA keys that verify service-account tokens;
                                repeatable (default: the serving key, and the signing key)
  --service-account-signing-key-file=FILE
                                PEM private key service-account tokens are signed with (default:
                                the serving key)
  --service-account-lookup[=true|false]
                                tokens stop working when their ServiceAccount or Secret is deleted
                                (default true; bound Pod and Secret tokens are always checked)
  --service-account-max-token-expiration=DURATION
                                longest token a TokenRequest gets, 1h to 2^32s; 0 is no limit (default 0)
  --service-account-extend-token-expiration[=true|false]
                                pod-bound 3607 s tokens live a year, stale after 3607 s (default true)
  --service-account-jwks-uri=URL
                                key set URL in the issuer discovery document (default
                                https://ADVERTISED:PORT/openid/v1/jwks)
  --data-dir=DIR                directory of the SQLite store and the kubeconfig (default ./data)
  --storage-backend=sqlite|memory|etcd
                                sqlite (default): durable, one file; memory: gone at exit;
                                etcd: shared by several server instances (needs --etcd-servers)
  --etcd-servers=URL[,URL...]   etcd client URLs, e.g. http://127.0.0.1:2379 (--storage-backend=etcd)
  --etcd-prefix=PREFIX          prefix of this cluster's keys in etcd (default ${DEFAULT_ETCD_PREFIX}),
                                so several clusters can share one etcd
  --api-domain=DOMAIN           domain of every group, media type and annotation (default ${DEFAULTS.apiDomain});
                                k8s.io serves Kubernetes' own names
  --runtime-config=LIST         enable or disable group versions and resources:
                                apps/v1=false,v1/configmaps=false,api/beta=true
  --service-cluster-ip-range=CIDR[,CIDR]
                                where Service cluster IPs come from; two CIDRs of different
                                families for dual stack (default ${DEFAULT_SERVICE_CLUSTER_IP_RANGE})
  --service-node-port-range=FIRST-LAST
                                where Service node ports come from (default ${DEFAULT_SERVICE_NODE_PORT_RANGE})
  --watch-history=DURATION      history kept for watch resumption and continue tokens (default 5m)
  --max-request-body-bytes=N    largest request body accepted (default ${DEFAULTS.maxRequestBodyBytes})
  --enable-priority-and-fairness[=true|false]
                                API Priority and Fairness: classify, queue fairly, 429 the excess
                                (default true); false applies the two limits below as they are
  --max-requests-inflight=N     with APF: summed with the next into the server concurrency limit;
                                without: the most read-only requests at once, 0 for no limit
                                (default ${DEFAULTS.maxRequestsInflight})
  --max-mutating-requests-inflight=N
                                with APF: see above; without: the most other requests at once, 0
                                for no limit (default ${DEFAULTS.maxMutatingRequestsInflight})
  --authorization-mode=LIST     authorizers asked in order: AlwaysAllow, AlwaysDeny, ABAC, RBAC,
                                Webhook (default RBAC); system:masters is always allowed
  --authorization-policy-file=FILE
                                ABAC policy, one JSON object per line (--authorization-mode=ABAC)
  --authorization-webhook-config-file=FILE
                                kubeconfig-format file naming the authorization webhook
  --authorization-webhook-version=v1beta1|v1
                                SubjectAccessReview version sent to the webhook (default v1beta1)
  --authorization-webhook-cache-authorized-ttl=DURATION
                                how long a webhook's allow is cached (default 5m)
  --authorization-webhook-cache-unauthorized-ttl=DURATION
                                how long a webhook's refusal is cached (default 30s)
${AUDIT_HELP}  --enable-admission-plugins=LIST
                                admission plugins to run besides the default-on ones; order does not
                                matter, they run in Kubernetes' order
  --disable-admission-plugins=LIST
                                default-on admission plugins not to run
  --admission-control-config-file=FILE
                                AdmissionConfiguration with per-plugin configuration (inline or path)
  --default-not-ready-toleration-seconds=N
                                tolerationSeconds of the not-ready toleration added to pods (default 300)
  --default-unreachable-toleration-seconds=N
                                tolerationSeconds of the unreachable toleration added to pods (default 300)
${CONTROLLER_FLAGS_HELP}  --log-level=LEVEL             debug, info, warn, error or silent (default info)
  --version                     print the version and exit
  --help                        print this help and exit
`;

function fail(message: string): never {
  process.stderr.write(`orch-apiserver: ${message}\nRun orch-apiserver --help for the flags.\n`);
  process.exit(2);
}

/** Flags that take `--flag`, `--flag=true` or `--flag=false`, as Go's boolean flags do. */
const BOOLEAN_FLAGS = ['leader-elect', 'anonymous-auth', 'enable-bootstrap-token-auth', 'service-account-lookup', 'service-account-extend-token-expiration', 'enable-priority-and-fairness'] as const;

function intFlag(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) fail(`--${name} must be a non-negative integer, not ${JSON.stringify(value)}`);
  return Number(value);
}

/** Go's bool flags take `--flag` alone as true; node's parser wants a value for a string flag. */
function goBoolFlags(args: string[], names: readonly string[]): string[] {
  return args.map((a) => (names.some((n) => a === `--${n}`) ? `${a}=true` : a));
}

/** Go's strconv.ParseBool, as Kubernetes' bool flags accept. */
function boolFlag(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(value)) return false;
  fail(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: use true or false`);
}

/** A Kubernetes string-slice flag: comma-separated, repeatable; an empty or blank entry is refused. */
function listFlag(name: string, values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const items = values.flatMap((v) => v.split(','));
  if (items.some((i) => i.trim() === '')) fail(`empty value in "--${name}"`);
  return items;
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        'bind-address': { type: 'string' },
        'secure-port': { type: 'string' },
        port: { type: 'string' },
        'advertise-address': { type: 'string' },
        'tls-cert-file': { type: 'string' },
        'tls-private-key-file': { type: 'string' },
        'tls-min-version': { type: 'string' },
        'client-ca-file': { type: 'string' },
        'insecure-plain-http': { type: 'boolean' },
        'anonymous-auth': { type: 'string' },
        'token-auth-file': { type: 'string' },
        'requestheader-client-ca-file': { type: 'string' },
        'requestheader-allowed-names': { type: 'string', multiple: true },
        'requestheader-username-headers': { type: 'string', multiple: true },
        'requestheader-group-headers': { type: 'string', multiple: true },
        'requestheader-extra-headers-prefix': { type: 'string', multiple: true },
        ...EXTERNAL_AUTHN_FLAGS,
        ...AUDIT_FLAGS,
        ...ADMISSION_FLAGS,
        ...CONTROLLER_FLAGS,
        'api-audiences': { type: 'string', multiple: true },
        'enable-bootstrap-token-auth': { type: 'string' },
        'service-account-issuer': { type: 'string', multiple: true },
        'service-account-key-file': { type: 'string', multiple: true },
        'service-account-signing-key-file': { type: 'string' },
        'service-account-lookup': { type: 'string' },
        'service-account-max-token-expiration': { type: 'string' },
        'service-account-extend-token-expiration': { type: 'string' },
        'service-account-jwks-uri': { type: 'string' },
        'data-dir': { type: 'string' },
        'storage-backend': { type: 'string' },
        'etcd-servers': { type: 'string' },
        'etcd-prefix': { type: 'string' },
        'api-domain': { type: 'string' },
        'runtime-config': { type: 'string' },
        'service-cluster-ip-range': { type: 'string' },
        'service-node-port-range': { type: 'string' },
        'watch-history': { type: 'string' },
        'max-request-body-bytes': { type: 'string' },
        'enable-priority-and-fairness': { type: 'string' },
        'max-requests-inflight': { type: 'string' },
        'max-mutating-requests-inflight': { type: 'string' },
        'log-level': { type: 'string' },
        'authorization-mode': { type: 'string' },
        'authorization-policy-file': { type: 'string' },
        'authorization-webhook-config-file': { type: 'string' },
        'authorization-webhook-version': { type: 'string' },
        'authorization-webhook-cache-authorized-ttl': { type: 'string' },
        'authorization-webhook-cache-unauthorized-ttl': { type: 'string' },
        version: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      args: goBoolFlags(process.argv.slice(2), [...BOOLEAN_FLAGS, ...AUDIT_BOOLEAN_FLAGS]),
      strict: true,
      allowPositionals: false,
    });
  } catch (e) {
    fail((e as Error).message);
  }
  const v = parsed.values;
  if (v.help) {
    process.stdout.write(HELP);
    return;
  }
  if (v.version) {
    process.stdout.write(`orch-apiserver ${PACKAGE_VERSION}\n`);
    return;
  }
  const backend = v['storage-backend'] ?? 'sqlite';
  if (backend !== 'sqlite' && backend !== 'memory' && backend !== 'etcd') fail(`--storage-backend must be sqlite, memory or etcd, not ${JSON.stringify(backend)}`);
  const etcdServers = (v['etcd-servers'] ?? '').split(',').map((u) => u.trim()).filter((u) => u !== '');
  if (backend === 'etcd' && etcdServers.length === 0) fail('--storage-backend=etcd needs --etcd-servers=http://HOST:PORT[,...]');
  if (backend !== 'etcd' && (v['etcd-servers'] !== undefined || v['etcd-prefix'] !== undefined)) fail('--etcd-servers and --etcd-prefix need --storage-backend=etcd');
  for (const u of etcdServers) {
    // No client certificates yet, so no TLS: an https URL would fail later with a murkier message.
    if (!/^http:\/\/[^/]+\/?$/.test(u)) fail(`--etcd-servers: ${JSON.stringify(u)} is not a client URL like http://127.0.0.1:2379 (TLS is not supported yet)`);
  }
  const etcdPrefix = v['etcd-prefix'];
  if (etcdPrefix !== undefined && !etcdPrefix.startsWith('/')) fail(`--etcd-prefix must start with /, not ${JSON.stringify(etcdPrefix)}`);
  const logLevel = v['log-level'] ?? 'info';
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) fail(`--log-level must be debug, info, warn, error or silent`);
  let watchHistoryMs: number = DEFAULTS.watchHistoryMs;
  if (v['watch-history'] !== undefined) {
    try {
      watchHistoryMs = parseDuration(v['watch-history']);
    } catch (e) {
      fail(`--watch-history: ${(e as Error).message}`);
    }
  }
  const durationFlag = (name: 'authorization-webhook-cache-authorized-ttl' | 'authorization-webhook-cache-unauthorized-ttl'): number | undefined => {
    const text = v[name];
    if (text === undefined) return undefined;
    try {
      return parseDuration(text);
    } catch (e) {
      fail(`--${name}: ${(e as Error).message}`);
    }
  };
  const authorizationModes = v['authorization-mode'] !== undefined ? parseAuthorizationModes(v['authorization-mode']) : undefined;
  const authorizationPolicyFile = v['authorization-policy-file'] !== undefined ? resolve(v['authorization-policy-file']) : undefined;
  const authorizationWebhookConfigFile = v['authorization-webhook-config-file'] !== undefined ? resolve(v['authorization-webhook-config-file']) : undefined;
  const authorizationProblems = validateAuthorizationSettings({
    modes: authorizationModes ?? DEFAULT_AUTHORIZATION_MODES,
    policyFile: authorizationPolicyFile,
    webhookConfigFile: authorizationWebhookConfigFile,
    webhookVersion: v['authorization-webhook-version'],
  });
  if (authorizationProblems.length) fail(authorizationProblems.join('; '));
  const authorizedTtl = durationFlag('authorization-webhook-cache-authorized-ttl');
  const unauthorizedTtl = durationFlag('authorization-webhook-cache-unauthorized-ttl');
  // Flags checked here exit 2 like every other usage error; createServer's own failures (a port in use,
  // an unreadable store) are not the caller's typing mistakes and exit 1.
  const apiDomain = v['api-domain'] ?? DEFAULTS.apiDomain;
  try {
    createApiNames(apiDomain);
    parseRuntimeConfig(v['runtime-config']);
    parseServiceRanges({ serviceClusterIPRange: v['service-cluster-ip-range'], serviceNodePortRange: v['service-node-port-range'] });
  } catch (e) {
    fail((e as Error).message);
  }
  if (v.port !== undefined) {
    fail('--port (plain HTTP) is gone: the server serves HTTPS on --secure-port (default 6443); --insecure-plain-http serves plain HTTP there, on loopback only');
  }
  const port = intFlag('secure-port', v['secure-port'], CLI_DEFAULTS.securePort);
  if (port > 65535) fail(`--secure-port must be at most 65535, not ${port}`);
  const plainHttp = v['insecure-plain-http'] === true;
  const bindAddress = v['bind-address'] ?? (plainHttp ? DEFAULTS.bindAddress : CLI_DEFAULTS.bindAddress);
  for (const flag of ['bind-address', 'advertise-address'] as const) {
    const ip = flag === 'bind-address' ? bindAddress : v[flag];
    if (ip !== undefined && !parseIP(ip)) fail(`invalid argument ${JSON.stringify(ip)} for "--${flag}" flag: not an IP address`);
  }
  if (plainHttp && !isLoopback(bindAddress)) {
    fail(`--insecure-plain-http serves only on a loopback address (127.0.0.1 or ::1), not on ${bindAddress}: every caller on the network could read and change the cluster unencrypted`);
  }
  const tlsFlags = [
    'tls-cert-file',
    'tls-private-key-file',
    'tls-min-version',
    'client-ca-file',
    'anonymous-auth',
    'token-auth-file',
    'requestheader-client-ca-file',
    'requestheader-allowed-names',
    'requestheader-username-headers',
    'requestheader-group-headers',
    'requestheader-extra-headers-prefix',
  ] as const;
  if (plainHttp && tlsFlags.some((f) => v[f] !== undefined)) fail(`--insecure-plain-http cannot be combined with ${tlsFlags.filter((f) => v[f] !== undefined).map((f) => `--${f}`).join(', ')}`);
  // Plain HTTP authenticates nobody: token authenticators there would be a promise not kept.
  if (plainHttp && externalAuthnFlagsGiven(v).length > 0) fail(`--insecure-plain-http cannot be combined with ${externalAuthnFlagsGiven(v).join(', ')}`);
  let controllerManager;
  try {
    controllerManager = parseControllerFlags(v);
  } catch (e) {
    fail((e as Error).message);
  }
  let externalAuthn: ExternalAuthnOptions = {};
  try {
    externalAuthn = parseExternalAuthnFlags(v, apiDomain);
  } catch (e) {
    fail((e as Error).message);
  }
  let audit: ReturnType<typeof parseAuditFlags>;
  try {
    audit = parseAuditFlags(v, apiDomain);
  } catch (e) {
    fail((e as Error).message);
  }
  if ((v['tls-cert-file'] === undefined) !== (v['tls-private-key-file'] === undefined)) fail('--tls-cert-file and --tls-private-key-file must be given together');
  let tlsMinVersion: TlsVersionName = DEFAULTS.tlsMinVersion;
  try {
    if (v['tls-min-version'] !== undefined) tlsMinVersion = parseTlsMinVersion(v['tls-min-version']);
  } catch (e) {
    fail((e as Error).message);
  }
  let admission: AdmissionOptions = {};
  try {
    admission = parseAdmissionFlags(v);
  } catch (e) {
    fail((e as Error).message);
  }
  const anonymousAuth = boolFlag('anonymous-auth', v['anonymous-auth']);
  const requestHeader = {
    requestheaderAllowedNames: listFlag('requestheader-allowed-names', v['requestheader-allowed-names']),
    requestheaderUsernameHeaders: listFlag('requestheader-username-headers', v['requestheader-username-headers']),
    requestheaderGroupHeaders: listFlag('requestheader-group-headers', v['requestheader-group-headers']),
    requestheaderExtraHeadersPrefix: listFlag('requestheader-extra-headers-prefix', v['requestheader-extra-headers-prefix']),
  };
  const proxyCa = v['requestheader-client-ca-file'];
  if (proxyCa === undefined && Object.values(requestHeader).some((x) => x !== undefined)) fail('the --requestheader-* flags need --requestheader-client-ca-file, the CA of the authenticating proxy');
  if (proxyCa !== undefined && requestHeader.requestheaderUsernameHeaders === undefined) fail('--requestheader-client-ca-file needs --requestheader-username-headers (usually X-Remote-User)');
  const enableBootstrapTokenAuth = boolFlag('enable-bootstrap-token-auth', v['enable-bootstrap-token-auth']);
  const serviceAccountLookup = boolFlag('service-account-lookup', v['service-account-lookup']);
  const serviceAccountExtendTokenExpiration = boolFlag('service-account-extend-token-expiration', v['service-account-extend-token-expiration']);
  let serviceAccountMaxTokenExpirationSeconds: number | undefined;
  if (v['service-account-max-token-expiration'] !== undefined) {
    try {
      serviceAccountMaxTokenExpirationSeconds = parseDuration(v['service-account-max-token-expiration']) / 1000;
    } catch (e) {
      fail(`--service-account-max-token-expiration: ${(e as Error).message}`);
    }
  }
  const apiAudiences = listFlag('api-audiences', v['api-audiences']);
  const maxRequestBodyBytes = intFlag('max-request-body-bytes', v['max-request-body-bytes'], DEFAULTS.maxRequestBodyBytes);
  const enablePriorityAndFairness = boolFlag('enable-priority-and-fairness', v['enable-priority-and-fairness']);
  const maxRequestsInflight = intFlag('max-requests-inflight', v['max-requests-inflight'], DEFAULTS.maxRequestsInflight);
  const maxMutatingRequestsInflight = intFlag('max-mutating-requests-inflight', v['max-mutating-requests-inflight'], DEFAULTS.maxMutatingRequestsInflight);
  const dataDir = resolve(v['data-dir'] ?? 'data');
  const started = process.hrtime.bigint();
  let server;
  try {
    server = await createServer({
      bindAddress,
      port,
      ...(plainHttp
        ? { plainHttp }
        : {
            tlsMinVersion,
            ...(v['tls-cert-file'] !== undefined ? { tlsCertFile: resolve(v['tls-cert-file']) } : {}),
            ...(v['tls-private-key-file'] !== undefined ? { tlsPrivateKeyFile: resolve(v['tls-private-key-file']) } : {}),
            ...(v['client-ca-file'] !== undefined ? { clientCaFile: resolve(v['client-ca-file']) } : {}),
            ...(anonymousAuth !== undefined ? { anonymousAuth } : {}),
            ...(v['token-auth-file'] !== undefined ? { tokenAuthFile: resolve(v['token-auth-file']) } : {}),
            ...(proxyCa !== undefined ? { requestheaderClientCaFile: resolve(proxyCa) } : {}),
            ...Object.fromEntries(Object.entries(requestHeader).filter(([, x]) => x !== undefined)),
          }),
      ...(v['advertise-address'] !== undefined ? { advertiseAddress: v['advertise-address'] } : {}),
      ...(apiAudiences ? { apiAudiences } : {}),
      ...(enableBootstrapTokenAuth !== undefined ? { enableBootstrapTokenAuth } : {}),
      ...(v['service-account-issuer'] ? { serviceAccountIssuers: v['service-account-issuer'] } : {}),
      ...(v['service-account-key-file'] ? { serviceAccountKeyFiles: v['service-account-key-file'].map((f) => resolve(f)) } : {}),
      ...(v['service-account-signing-key-file'] !== undefined ? { serviceAccountSigningKeyFile: resolve(v['service-account-signing-key-file']) } : {}),
      ...(serviceAccountLookup !== undefined ? { serviceAccountLookup } : {}),
      ...(serviceAccountMaxTokenExpirationSeconds !== undefined ? { serviceAccountMaxTokenExpirationSeconds } : {}),
      ...(serviceAccountExtendTokenExpiration !== undefined ? { serviceAccountExtendTokenExpiration } : {}),
      ...(v['service-account-jwks-uri'] !== undefined ? { serviceAccountJwksUri: v['service-account-jwks-uri'] } : {}),
      dataDir,
      storageBackend: backend,
      ...(backend === 'etcd' ? { etcdServers, ...(etcdPrefix !== undefined ? { etcdPrefix } : {}) } : {}),
      apiDomain,
      ...(v['runtime-config'] !== undefined ? { runtimeConfig: v['runtime-config'] } : {}),
      ...(v['service-cluster-ip-range'] !== undefined ? { serviceClusterIPRange: v['service-cluster-ip-range'] } : {}),
      ...(v['service-node-port-range'] !== undefined ? { serviceNodePortRange: v['service-node-port-range'] } : {}),
      watchHistoryMs,
      maxRequestBodyBytes,
      ...(enablePriorityAndFairness !== undefined ? { enablePriorityAndFairness } : {}),
      maxRequestsInflight,
      maxMutatingRequestsInflight,
      ...externalAuthn,
      ...(audit ? { audit } : {}),
      admission,
      controllerManager,
      logLevel: logLevel as 'info',
      ...(authorizationModes ? { authorizationModes } : {}),
      ...(authorizationPolicyFile ? { authorizationPolicyFile } : {}),
      ...(authorizationWebhookConfigFile ? { authorizationWebhookConfigFile } : {}),
      ...(v['authorization-webhook-version'] !== undefined ? { authorizationWebhookVersion: v['authorization-webhook-version'] } : {}),
      ...(authorizedTtl !== undefined ? { authorizationWebhookCacheAuthorizedTtlMs: authorizedTtl } : {}),
      ...(unauthorizedTtl !== undefined ? { authorizationWebhookCacheUnauthorizedTtlMs: unauthorizedTtl } : {}),
    });
  } catch (e) {
    process.stderr.write(`orch-apiserver: cannot start: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
  // Handle signals before announcing the address: whoever reads the announcement may stop us at once.
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`orch-apiserver: ${signal} received, shutting down\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  mkdirSync(dataDir, { recursive: true });
  const kubeconfigPath = join(dataDir, 'kubeconfig');
  writeFileSync(kubeconfigPath, server.kubeconfig(), { mode: 0o600 });
  process.stdout.write(
    `orch-apiserver ${PACKAGE_VERSION} serving ${server.url} (storage: ${server.storageBackend}${backend === 'sqlite' ? ` in ${dataDir}` : ''}${backend === 'etcd' ? ` at ${etcdServers.join(',')} under ${etcdPrefix ?? DEFAULT_ETCD_PREFIX}` : ''}, API domain ${server.names.domain}, ready in ${readyMs.toFixed(0)} ms)\n` +
      `${domainBanner(server.names.domain)}\n` +
      `kubeconfig written to ${kubeconfigPath}; try: KUBECONFIG=${kubeconfigPath} kubectl get namespaces\n\n` +
      server.kubeconfig(),
  );
}

void main();
