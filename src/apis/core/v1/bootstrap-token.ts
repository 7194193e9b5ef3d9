/**
 * Bootstrap tokens: Secrets of type `bootstrap.<domain>/token` named `bootstrap-token-<id>` in the
 * system namespace, and bearer tokens `<id>.<secret>`. As in Kubernetes, the API server stores any
 * such Secret (its Secret validation has no rule for this type); the format is enforced where the
 * Secret is used — authentication, the token cleaner and the cluster-info signer — through
 * readBootstrapTokenSecret, which refuses a Secret that does not follow it. Pure.
 */
import { timingSafeEqual } from 'node:crypto';
import type { ApiNames } from '../../../machinery/api-names.js';
import { secretTypes, type Secret } from './secret.js';

export const BOOTSTRAP_TOKEN_KEYS = {
  tokenId: 'token-id',
  tokenSecret: 'token-secret',
  description: 'description',
  expiration: 'expiration',
  usageAuthentication: 'usage-bootstrap-authentication',
  usageSigning: 'usage-bootstrap-signing',
  extraGroups: 'auth-extra-groups',
} as const;

export const BOOTSTRAP_SECRET_PREFIX = 'bootstrap-token-';
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';
/** Data keys starting with this name a usage; only the value `true` grants it. */
export const BOOTSTRAP_USAGE_PREFIX = 'usage-bootstrap-';

const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const TOKEN_ID = /^[a-z0-9]{6}$/;
const TOKEN_SECRET = /^[a-z0-9]{16}$/;
const SECRET_NAME = /^bootstrap-token-([a-z0-9]{6})$/;
const GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
/** RFC 3339 as Go's time.Parse(time.RFC3339) accepts it. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** `<id>.<secret>` split, or undefined when the text is not a bootstrap token. */
export function parseBootstrapToken(token: string): { id: string; secret: string } | undefined {
  const m = TOKEN.exec(token);
  return m ? { id: m[1] as string, secret: m[2] as string } : undefined;
}

export function bootstrapSecretName(tokenId: string): string {
  return `${BOOTSTRAP_SECRET_PREFIX}${tokenId}`;
}

/** The token id a Secret name carries, or undefined when the name is not `bootstrap-token-<id>`. */
export function tokenIdOfSecretName(name: string): string | undefined {
  return SECRET_NAME.exec(name)?.[1];
}

function data(secret: Secret, key: string): string | undefined {
  const v = secret.data?.[key];
  return v === undefined ? undefined : Buffer.from(v, 'base64').toString('utf8');
}

/** The Secret's groups: always system:bootstrappers, plus auth-extra-groups, sorted and unique. */
export function bootstrapGroups(secret: Secret): { groups: string[] } | { error: string } {
  const groups = new Set([BOOTSTRAP_DEFAULT_GROUP]);
  const extra = data(secret, BOOTSTRAP_TOKEN_KEYS.extraGroups) ?? '';
  if (extra !== '') {
    for (const g of extra.split(',')) {
      if (!GROUP.test(g)) return { error: `bootstrap group ${JSON.stringify(g)} is invalid (must match ${GROUP.source})` };
      groups.add(g);
    }
  }
  return { groups: [...groups].sort() };
}

/** When the token expires; `expired` also when the expiration cannot be read, as Kubernetes treats it. */
export function bootstrapExpiration(secret: Secret, now: Date): { expires?: Date; expired: boolean } {
  const text = data(secret, BOOTSTRAP_TOKEN_KEYS.expiration) ?? '';
  if (text === '') return { expired: false };
  const ms = RFC3339.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) return { expired: true };
  return { expires: new Date(ms), expired: ms <= now.getTime() };
}

export interface BootstrapToken {
  readonly tokenId: string;
  readonly tokenSecret: string;
  readonly description?: string;
  readonly expires?: Date;
  /** Usages set to `true`: `authentication`, `signing`, ... */
  readonly usages: ReadonlySet<string>;
  readonly groups: readonly string[];
}

export type BootstrapTokenResult = { ok: true; token: BootstrapToken } | { ok: false; reason: string };

/**
 * Reads a bootstrap token Secret the way its users do, refusing one that is of another type, in
 * another namespace, misnamed, with an id or secret of the wrong form, expired, or with an extra
 * group outside `system:bootstrappers:`.
 */
export function readBootstrapTokenSecret(secret: Secret, names: ApiNames, now: Date): BootstrapTokenResult {
  const fail = (reason: string): BootstrapTokenResult => ({ ok: false, reason });
  if (secret.type !== secretTypes(names).bootstrapToken) return fail(`has invalid type, expected ${secretTypes(names).bootstrapToken}`);
  if (secret.metadata.namespace !== names.systemNamespace) return fail(`is not in the ${names.systemNamespace} namespace`);
  if (secret.metadata.deletionTimestamp) return fail('is deleted and awaiting removal');
  const nameId = tokenIdOfSecretName(secret.metadata.name ?? '');
  if (!nameId) return fail(`has an invalid name, expected ${BOOTSTRAP_SECRET_PREFIX}<6 characters of [a-z0-9]>`);
  const tokenId = data(secret, BOOTSTRAP_TOKEN_KEYS.tokenId) ?? '';
  if (!TOKEN_ID.test(tokenId) || tokenId !== nameId) return fail(`has invalid value for key ${BOOTSTRAP_TOKEN_KEYS.tokenId}`);
  const tokenSecret = data(secret, BOOTSTRAP_TOKEN_KEYS.tokenSecret) ?? '';
  if (!TOKEN_SECRET.test(tokenSecret)) return fail(`has invalid value for key ${BOOTSTRAP_TOKEN_KEYS.tokenSecret}`);
  const expiration = bootstrapExpiration(secret, now);
  if (expiration.expired) return fail('has expired');
  const groups = bootstrapGroups(secret);
  if ('error' in groups) return fail(`has invalid value for key ${BOOTSTRAP_TOKEN_KEYS.extraGroups}: ${groups.error}`);
  const usages = new Set<string>();
  for (const key of Object.keys(secret.data ?? {})) {
    if (key.startsWith(BOOTSTRAP_USAGE_PREFIX) && data(secret, key) === 'true') usages.add(key.slice(BOOTSTRAP_USAGE_PREFIX.length));
  }
  const description = data(secret, BOOTSTRAP_TOKEN_KEYS.description);
  return {
    ok: true,
    token: {
      tokenId,
      tokenSecret,
      ...(description !== undefined ? { description } : {}),
      ...(expiration.expires ? { expires: expiration.expires } : {}),
      usages,
      groups: groups.groups,
    },
  };
}

/** Whether `presented` is this token's secret, compared in constant time. */
export function bootstrapSecretMatches(token: BootstrapToken, presented: string): boolean {
  const a = Buffer.from(token.tokenSecret);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The user a bootstrap token authenticates as. */
export function bootstrapUserName(tokenId: string): string {
  return `${BOOTSTRAP_USER_PREFIX}${tokenId}`;
}
