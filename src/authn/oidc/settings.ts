/**
 * The OpenID Connect authenticator's settings: the `--oidc-*` flags as given, checked and turned
 * into what the authenticator uses, with kube-apiserver's defaults and messages. Pure; throws an
 * Error naming the flag when a value cannot be used (the server then refuses to start).
 */

export interface OidcOptions {
  /** `--oidc-issuer-url`: the `iss` of every token and where discovery starts; https only. */
  issuerUrl: string;
  /** `--oidc-client-id`: every token's `aud` must hold it. */
  clientId: string;
  /** `--oidc-ca-file`: PEM CA(s) the provider's certificate must chain to; the host's roots when absent. */
  caFile?: string;
  /** `--oidc-username-claim` (default `sub`). */
  usernameClaim?: string;
  /** `--oidc-username-prefix`: default `<issuer>#` unless the claim is `email`; `-` for none. */
  usernamePrefix?: string;
  /** `--oidc-groups-claim`: a string or an array of strings in the token. */
  groupsClaim?: string;
  /** `--oidc-groups-prefix`. */
  groupsPrefix?: string;
  /** `--oidc-required-claim`: claims the token must carry with exactly these string values. */
  requiredClaims?: Readonly<Record<string, string>>;
  /** `--oidc-signing-algs` (default RS256). */
  signingAlgs?: readonly string[];
  /**
   * Least time between two reads of the key set caused by tokens with an unknown key id (default
   * 10 s): a stream of made-up key ids cannot turn into a stream of requests to the provider.
   */
  keyRefreshIntervalMs?: number;
}

export interface OidcSettings {
  issuerUrl: string;
  clientId: string;
  caFile?: string;
  usernameClaim: string;
  /** Already resolved: the default applied and `-` turned into no prefix. */
  usernamePrefix: string;
  groupsClaim?: string;
  groupsPrefix: string;
  requiredClaims: readonly (readonly [string, string])[];
  signingAlgs: readonly string[];
  keyRefreshIntervalMs: number;
}

/** The asymmetric JOSE algorithms kube-apiserver accepts in `--oidc-signing-algs`. */
export const ALLOWED_SIGNING_ALGS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'] as const;

export const OIDC_DEFAULTS = {
  usernameClaim: 'sub',
  signingAlgs: ['RS256'],
  keyRefreshIntervalMs: 10_000,
} as const;

/** The `--oidc-username-prefix` value that means "no prefix at all". */
const NO_PREFIX = '-';

export function resolveOidcSettings(opts: OidcOptions): OidcSettings {
  if (!opts.issuerUrl || !opts.clientId) throw new Error('oidc-issuer-url and oidc-client-id should be specified together');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(opts.issuerUrl)?.[1] ?? '';
  if (scheme !== 'https') {
    throw new Error(`'oidc-issuer-url' (${JSON.stringify(opts.issuerUrl)}) has invalid scheme (${JSON.stringify(scheme)}), require 'https'`);
  }
  try {
    new URL(opts.issuerUrl);
  } catch {
    throw new Error(`'oidc-issuer-url' (${JSON.stringify(opts.issuerUrl)}) is not a URL`);
  }
  const usernameClaim = opts.usernameClaim ?? OIDC_DEFAULTS.usernameClaim;
  if (usernameClaim === '') throw new Error('no username claim provided');
  const signingAlgs = opts.signingAlgs && opts.signingAlgs.length > 0 ? [...opts.signingAlgs] : [...OIDC_DEFAULTS.signingAlgs];
  for (const alg of signingAlgs) {
    if (!(ALLOWED_SIGNING_ALGS as readonly string[]).includes(alg)) throw new Error(`oidc: unsupported signing alg: ${JSON.stringify(alg)}`);
  }
  // Kubernetes' rule: a claim other than email could collide with another method's user names, so
  // it is prefixed with the issuer unless the operator chose a prefix (or none, with "-").
  let usernamePrefix = opts.usernamePrefix ?? '';
  if (usernamePrefix === '' && usernameClaim !== 'email') usernamePrefix = `${opts.issuerUrl}#`;
  if (usernamePrefix === NO_PREFIX) usernamePrefix = '';
  return {
    issuerUrl: opts.issuerUrl,
    clientId: opts.clientId,
    ...(opts.caFile !== undefined && opts.caFile !== '' ? { caFile: opts.caFile } : {}),
    usernameClaim,
    usernamePrefix,
    ...(opts.groupsClaim ? { groupsClaim: opts.groupsClaim } : {}),
    groupsPrefix: opts.groupsPrefix ?? '',
    requiredClaims: Object.entries(opts.requiredClaims ?? {}),
    signingAlgs,
    keyRefreshIntervalMs: opts.keyRefreshIntervalMs ?? OIDC_DEFAULTS.keyRefreshIntervalMs,
  };
}

/**
 * `--oidc-required-claim` values as pflag's string-to-string flag reads them: each occurrence is
 * `key=value` or several separated by commas; a later key wins.
 */
export function parseRequiredClaims(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    for (const pair of value.split(',')) {
      const eq = pair.indexOf('=');
      if (eq < 0) throw new Error(`--oidc-required-claim: ${JSON.stringify(pair)} must be formatted as key=value`);
      out[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
  }
  return out;
}

/** `--oidc-signing-algs` values: comma-separated, repeatable. */
export function parseSigningAlgs(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
}
