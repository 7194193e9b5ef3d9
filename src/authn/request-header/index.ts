/**
 * The authenticating proxy (`--requestheader-*`), as Kubernetes' request-header authenticator: the
 * caller must present a client certificate anchored in the proxy CA bundle (and, when allowed names
 * are configured, with one of those CNs); only then are the identity headers read. The first
 * username header with a value is the user (none: no opinion); every value of every group header
 * is a group; a header starting with an extra prefix gives an extra attribute, keyed by the rest of
 * its name lowercased and percent-decoded. A certificate that does not qualify is an error (the
 * request proceeds only if another method proves a user, and never with the headers' identity).
 *
 * The filter removes these headers from every request after authentication (see
 * `identityHeaders`), whoever sent them.
 */
import { subjectNames } from '../../machinery/x509/certificates.js';
import { NO_OPINION, authenticated, failed, type AuthenticationRequest, type Authenticator } from '../types.js';
import { trustBundle, trustedLeaf } from '../x509/trust.js';

export interface RequestHeaderConfig {
  /** PEM bundle the proxy's certificate must be anchored in (`--requestheader-client-ca-file`). */
  readonly caPem: string;
  /** CNs the proxy's certificate may carry; empty: any. */
  readonly allowedNames: readonly string[];
  readonly usernameHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeaderPrefixes: readonly string[];
}

export function requestHeaderAuthenticator(config: RequestHeaderConfig): Authenticator {
  const trust = trustBundle(config.caPem);
  const usernameHeaders = config.usernameHeaders.map((h) => h.trim()).filter((h) => h !== '');
  return {
    async authenticate(req) {
      const checked = trustedLeaf(req, trust);
      if (!('leaf' in checked)) return checked;
      if (config.allowedNames.length > 0) {
        const { commonName } = subjectNames(checked.leaf.raw);
        if (!config.allowedNames.includes(commonName)) return failed(`x509: subject with cn=${commonName} is not in the allowed list`);
      }
      const username = usernameHeaders.map((h) => headerValues(req, h).find((v) => v !== '')).find((v) => v !== undefined);
      if (username === undefined) return NO_OPINION;
      const groups = config.groupHeaders.flatMap((h) => headerValues(req, h).filter((v) => v !== ''));
      const extra = extraAttributes(req, config.extraHeaderPrefixes);
      return authenticated({ username, groups, ...(Object.keys(extra).length > 0 ? { extra } : {}) });
    },
  };
}

/** Header names and values as received, repeated headers apart (from the raw list when there is one). */
function headerPairs(req: AuthenticationRequest): [string, string][] {
  const raw = req.rawHeaders;
  if (raw && raw.length > 0) {
    const out: [string, string][] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) out.push([(raw[i] as string).toLowerCase(), raw[i + 1] as string]);
    return out;
  }
  return Object.entries(req.headers).flatMap(([name, value]) => (value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, String(v)])));
}

/** Every value of header `name` (any case), in order. */
export function headerValues(req: AuthenticationRequest, name: string): string[] {
  const lower = name.toLowerCase();
  return headerPairs(req)
    .filter(([n]) => n === lower)
    .map(([, v]) => v);
}

function extraAttributes(req: AuthenticationRequest, prefixes: readonly string[]): Record<string, string[]> {
  const extra: Record<string, string[]> = {};
  const pairs = headerPairs(req);
  // Prefixes first, so the values of a key keep the order of the configured prefixes.
  for (const prefix of prefixes) {
    const p = prefix.toLowerCase();
    if (p === '') continue;
    for (const [name, value] of pairs) {
      if (!name.startsWith(p)) continue;
      const key = unescapeExtraKey(name.slice(p.length));
      (extra[key] ??= []).push(value);
    }
  }
  return extra;
}

/** Go's url.PathUnescape; a malformed escape keeps the key as it came (still recorded). */
export function unescapeExtraKey(encoded: string): string {
  if (/%(?![0-9a-fA-F]{2})/.test(encoded)) return encoded;
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; ) {
    if (encoded[i] === '%') {
      bytes.push(Number.parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      for (const b of Buffer.from(encoded[i] as string, 'utf8')) bytes.push(b);
      i++;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
