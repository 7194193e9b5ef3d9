/**
 * Bootstrap tokens (`--enable-bootstrap-token-auth`): a bearer token `<id>.<secret>` proves the
 * user `system:bootstrap:<id>` in `system:bootstrappers` (and the Secret's `auth-extra-groups`)
 * when the Secret `bootstrap-token-<id>` in the system namespace holds that secret, is of type
 * `bootstrap.<domain>/token`, is marked `usage-bootstrap-authentication=true` and has not expired.
 *
 * As Kubernetes' bootstrap authenticator, every refusal is "no opinion": a token of another shape
 * is some other method's, and a bootstrap-shaped token that no Secret backs ends as the union's
 * plain 401. Why a matching Secret was refused is logged at debug level, naming the Secret and the
 * rule, never the token or the secret (Kubernetes' own log line prints the expected secret; ours
 * does not). Secrets are read through the lister, never from storage per request.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  BOOTSTRAP_TOKEN_KEYS,
  bootstrapExpiration,
  bootstrapGroups,
  bootstrapSecretName,
  bootstrapUserName,
  parseBootstrapToken,
} from '../../apis/core/v1/bootstrap-token.js';
import { secretTypes, type Secret } from '../../apis/core/v1/secret.js';
import type { ApiNames } from '../../machinery/api-names.js';
import type { Lister } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import { authenticated, NO_OPINION, type AuthenticationResult, type TokenAuthenticator } from '../types.js';

export interface BootstrapTokenDeps {
  names: ApiNames;
  /** Secrets of every namespace; only the system namespace is read. */
  secrets: Lister<Secret>;
  log: Logger;
  /** The clock expirations are compared with (tests move it). */
  now?: () => Date;
}

function dataValue(secret: Secret, key: string): string {
  const value = secret.data?.[key];
  return value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8');
}

/**
 * Compared in constant time, so the answer's timing does not tell how much of a guess was right.
 * A length mismatch answers at once, as Go's subtle.ConstantTimeCompare: the length is public.
 */
function sameSecret(stored: string, presented: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function bootstrapTokenAuthenticator(deps: BootstrapTokenDeps): TokenAuthenticator {
  const { names, secrets, log } = deps;
  const now = deps.now ?? (() => new Date());
  const type = secretTypes(names).bootstrapToken;
  return {
    async authenticateToken(req): Promise<AuthenticationResult> {
      const parsed = parseBootstrapToken(req.token);
      if (!parsed) return NO_OPINION;
      const name = bootstrapSecretName(parsed.id);
      const secret = secrets.get(names.systemNamespace, name);
      const refuse = (why: string): AuthenticationResult => {
        log.debug(`Bootstrap secret ${names.systemNamespace}/${name} matching bearer token ${why}`);
        return NO_OPINION;
      };
      if (!secret) {
        log.debug(`No secret of name ${name} to match bootstrap bearer token`);
        return NO_OPINION;
      }
      if (secret.metadata.deletionTimestamp) return refuse('is deleted and awaiting removal');
      if (secret.type !== type || !secret.data) return refuse(`has invalid type, expected ${type}.`);
      if (!sameSecret(dataValue(secret, BOOTSTRAP_TOKEN_KEYS.tokenSecret), parsed.secret)) {
        return refuse(`has invalid value for key ${BOOTSTRAP_TOKEN_KEYS.tokenSecret}.`);
      }
      if (dataValue(secret, BOOTSTRAP_TOKEN_KEYS.tokenId) !== parsed.id) return refuse(`has invalid value for key ${BOOTSTRAP_TOKEN_KEYS.tokenId}.`);
      const expiration = bootstrapExpiration(secret, now());
      if (expiration.expired) return refuse(`has expired (${BOOTSTRAP_TOKEN_KEYS.expiration} ${dataValue(secret, BOOTSTRAP_TOKEN_KEYS.expiration)}).`);
      if (dataValue(secret, BOOTSTRAP_TOKEN_KEYS.usageAuthentication) !== 'true') return refuse(`not marked ${BOOTSTRAP_TOKEN_KEYS.usageAuthentication}=true.`);
      const groups = bootstrapGroups(secret);
      if ('error' in groups) return refuse(`has invalid value for key ${BOOTSTRAP_TOKEN_KEYS.extraGroups}: ${groups.error}.`);
      return authenticated({ username: bootstrapUserName(parsed.id), groups: groups.groups });
    },
  };
}
