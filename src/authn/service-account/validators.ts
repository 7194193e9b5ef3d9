/**
 * The checks after a service-account token's signature and issuer hold, as Kubernetes' validators:
 *
 * - bound tokens: expiry and not-before (a minute's leeway), then the account, and the Pod or
 *   Secret the token is bound to, must still exist with the uids the token names (always looked up,
 *   whatever `--service-account-lookup` says: that is what binding means);
 * - legacy tokens: the claims must be there and agree with `sub`; with lookup on, the Secret must
 *   still hold exactly this token and the account must still exist with its uid.
 *
 * Objects are read through listers; one that a lister does not hold (yet) is looked for again once
 * the lister has caught up with the store, as Kubernetes falls back from its lister to a live read.
 * An object marked for deletion more than the leeway ago counts as gone.
 */
import type { Pod } from '../../apis/core/v1/pod.js';
import { SERVICE_ACCOUNT_TOKEN_KEYS, type Secret } from '../../apis/core/v1/secret.js';
import type { ServiceAccount } from '../../apis/core/v1/serviceaccount.js';
import type { ApiNames } from '../../machinery/api-names.js';
import type { Lister } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import { boundClaimName, legacyClaimNames, splitServiceAccountUsername, type BoundPrivateClaim, type ObjectRefClaim, type PublicClaims } from './claims.js';
import type { TokenValidator, ValidationResult } from './jwt-authenticator.js';

/** go-jose's default leeway for time claims, which Kubernetes uses. */
export const LEEWAY_SECONDS = 60;

export interface ServiceAccountGetters {
  readonly serviceAccounts: Lister<ServiceAccount>;
  readonly secrets: Lister<Secret>;
  readonly pods: Lister<Pod>;
}

interface ObjectWithMeta {
  metadata: { uid?: string; deletionTimestamp?: string };
}

/** The object from the lister, or once more after the lister caught up with the store. */
async function lookUp<T>(lister: Lister<T>, namespace: string, name: string, signal: AbortSignal): Promise<T | undefined> {
  const found = lister.get(namespace, name);
  if (found !== undefined || name === '') return found;
  await lister.synced(signal);
  return lister.get(namespace, name);
}

function deletedBefore(obj: ObjectWithMeta, cutoffMs: number): boolean {
  const at = obj.metadata.deletionTimestamp;
  return at !== undefined && Date.parse(at) < cutoffMs;
}

const refuse = (error: string): ValidationResult => ({ ok: false, error });

function refOf(value: unknown): ObjectRefClaim | undefined | string {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return 'is not an object';
  const { name, uid } = value as Record<string, unknown>;
  if ((name !== undefined && typeof name !== 'string') || (uid !== undefined && typeof uid !== 'string')) return 'has a name or uid that is not a string';
  return { ...(name !== undefined ? { name } : {}), ...(uid !== undefined ? { uid } : {}) } as ObjectRefClaim;
}

/** The bound token's private claim, type-checked; a string says what is wrong. */
export function boundClaimOf(names: ApiNames, payload: Readonly<Record<string, unknown>>): BoundPrivateClaim | string {
  const raw = payload[boundClaimName(names)];
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return `claim ${boundClaimName(names)} is not an object`;
  const r = raw as Record<string, unknown>;
  const out: BoundPrivateClaim = {};
  if (r.namespace !== undefined && r.namespace !== null) {
    if (typeof r.namespace !== 'string') return 'claim namespace is not a string';
    out.namespace = r.namespace;
  }
  for (const field of ['serviceaccount', 'pod', 'secret'] as const) {
    const ref = refOf(r[field]);
    if (typeof ref === 'string') return `claim ${field} ${ref}`;
    if (ref) out[field] = ref;
  }
  if (r.warnafter !== undefined && r.warnafter !== null) {
    if (typeof r.warnafter !== 'number') return 'claim warnafter is not a number';
    out.warnafter = r.warnafter;
  }
  return out;
}

export interface ValidatorDeps {
  readonly names: ApiNames;
  readonly getters: ServiceAccountGetters;
  readonly log: Logger;
  readonly now?: () => Date;
}

export function boundTokenValidator(deps: ValidatorDeps): TokenValidator {
  const { names, getters, log } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    async validate(_token, claims: PublicClaims, payload, signal): Promise<ValidationResult> {
      const nowMs = now().getTime();
      const leewayMs = LEEWAY_SECONDS * 1000;
      if (claims.nbf !== undefined && nowMs + leewayMs < claims.nbf * 1000) return refuse('service account token is not valid yet');
      if (claims.exp !== undefined && nowMs - leewayMs > claims.exp * 1000) return refuse('service account token has expired');
      if (claims.iat !== undefined && nowMs + leewayMs < claims.iat * 1000) {
        return refuse('service account token claims could not be validated due to unexpected validation error');
      }
      const priv = boundClaimOf(names, payload);
      if (typeof priv === 'string') return refuse(`service account token claims could not be decoded: ${priv}`);
      const cutoff = nowMs - leewayMs;
      const namespace = priv.namespace ?? '';
      const saRef = priv.serviceaccount ?? {};
      const saName = saRef.name ?? '';
      const sa = await lookUp(getters.serviceAccounts, namespace, saName, signal);
      if (!sa) {
        log.debug(`Could not retrieve service account ${namespace}/${saName}: not found`);
        return refuse(`serviceaccounts ${JSON.stringify(saName)} not found`);
      }
      if (deletedBefore(sa, cutoff)) return refuse(`service account ${namespace}/${saName} has been deleted`);
      if ((sa.metadata.uid ?? '') !== (saRef.uid ?? '')) return refuse(`service account UID (${sa.metadata.uid ?? ''}) does not match claim (${saRef.uid ?? ''})`);

      if (priv.secret) {
        const ref = priv.secret;
        const secret = await lookUp(getters.secrets, namespace, ref.name ?? '', signal);
        if (!secret || deletedBefore(secret, cutoff)) {
          log.debug(`Bound secret ${namespace}/${ref.name ?? ''} for service account ${namespace}/${saName} is gone or being deleted`);
          return refuse('service account token has been invalidated');
        }
        if ((ref.uid ?? '') !== (secret.metadata.uid ?? '')) {
          return refuse(`secret UID (${secret.metadata.uid ?? ''}) does not match service account secret ref claim (${ref.uid ?? ''})`);
        }
      }
      let pod: { name: string; uid: string } | undefined;
      if (priv.pod) {
        const ref = priv.pod;
        const found = await lookUp(getters.pods, namespace, ref.name ?? '', signal);
        if (!found || deletedBefore(found, cutoff)) {
          log.debug(`Bound pod ${namespace}/${ref.name ?? ''} for service account ${namespace}/${saName} is gone or being deleted`);
          return refuse('service account token has been invalidated');
        }
        if ((ref.uid ?? '') !== (found.metadata.uid ?? '')) {
          return refuse(`pod UID (${found.metadata.uid ?? ''}) does not match service account pod ref claim (${ref.uid ?? ''})`);
        }
        pod = { name: ref.name ?? '', uid: ref.uid ?? '' };
      }
      return {
        ok: true,
        info: { namespace, name: saName, uid: saRef.uid ?? '', ...(pod ? { podName: pod.name, podUid: pod.uid } : {}) },
      };
    },
  };
}

export function legacyTokenValidator(deps: ValidatorDeps & { readonly lookup: boolean }): TokenValidator {
  const { names, getters, log } = deps;
  const keys = legacyClaimNames(names);
  const text = (payload: Readonly<Record<string, unknown>>, key: string): string => {
    const v = payload[key];
    return typeof v === 'string' ? v : '';
  };
  return {
    async validate(token, claims, payload, signal): Promise<ValidationResult> {
      if (!claims.sub) return refuse('sub claim is missing');
      const namespace = text(payload, keys.namespace);
      if (!namespace) return refuse('namespace claim is missing');
      const secretName = text(payload, keys.secretName);
      if (!secretName) return refuse('secretName claim is missing');
      const name = text(payload, keys.serviceAccountName);
      if (!name) return refuse('serviceAccountName claim is missing');
      const uid = text(payload, keys.serviceAccountUid);
      if (!uid) return refuse('serviceAccountUID claim is missing');
      const subject = splitServiceAccountUsername(claims.sub);
      if (!subject || subject[0] !== namespace || subject[1] !== name) return refuse('sub claim is invalid');

      if (deps.lookup) {
        const secret = await lookUp(getters.secrets, namespace, secretName, signal);
        if (!secret || secret.metadata.deletionTimestamp) {
          log.debug(`Token secret ${namespace}/${secretName} for service account ${namespace}/${name} is gone or being deleted`);
          return refuse('Token has been invalidated');
        }
        const stored = secret.data?.[SERVICE_ACCOUNT_TOKEN_KEYS.token];
        if (stored === undefined || Buffer.from(stored, 'base64').toString('utf8') !== token) return refuse("Token does not match server's copy");
        const sa = await lookUp(getters.serviceAccounts, namespace, name, signal);
        if (!sa) return refuse(`serviceaccounts ${JSON.stringify(name)} not found`);
        if (sa.metadata.deletionTimestamp) return refuse(`ServiceAccount ${namespace}/${name} has been deleted`);
        if ((sa.metadata.uid ?? '') !== uid) return refuse(`ServiceAccount UID (${sa.metadata.uid ?? ''}) does not match claim (${uid})`);
      }
      return { ok: true, info: { namespace, name, uid } };
    },
  };
}
