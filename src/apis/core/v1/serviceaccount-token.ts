/**
 * `serviceaccounts/<name>/token` (create): an authentication/v1 TokenRequest answered with a
 * signed, expiring token for the account, as Kubernetes' TokenREST answers it (so `kubectl create
 * token` works):
 *
 * - the body's name and namespace, when set, must be the URL's; the account must exist;
 * - `spec.audiences` defaults to the server's API audiences; `spec.expirationSeconds` to 3600, at
 *   least 600 (10 minutes) and at most 2^32, then cut to `--service-account-max-token-expiration`
 *   with a warning;
 * - `spec.boundObjectRef` binds the token to a Pod (which must run as this account) or a Secret in
 *   the namespace; a uid given must be the object's; deleting the object revokes the token;
 * - a pod-bound token asked for 3607 seconds (the kubelet's projected volume) for the API's own
 *   audiences lives a year but counts as stale after 3607 seconds, as Kubernetes eases the move to
 *   bound tokens (`--service-account-extend-token-expiration`).
 *
 * Nothing is stored. Objects are read through listers (again after the lister caught up, for one
 * written an instant ago).
 */
import type { Lister, ListerSource } from '../../../machinery/lister.js';
import type { ApiNames } from '../../../machinery/api-names.js';
import { errors } from '../../../machinery/errors.js';
import { fieldErr, type FieldError } from '../../../machinery/field-errors.js';
import { parseApiVersion } from '../../../machinery/gvk.js';
import type { BoundTokenRequest, ServiceAccountTokenIssuer } from '../../../machinery/service-account-tokens.js';
import type { CreateSubresource, CreateSubresourceContext } from '../../../registry/define-resource.js';
import { objectHeader, t, type KubeObject, type ObjectOf } from '../../../schema/index.js';
import type { Pod } from './pod.js';
import type { Secret } from './secret.js';
import type { ServiceAccount } from './serviceaccount.js';

export const BoundObjectReferenceSchema = t.struct('authentication.v1.BoundObjectReference', {
  kind: t.field(1, t.string(), { description: 'Kind of the referent: Pod or Secret.' }),
  apiVersion: t.field(2, t.string(), { description: 'API version of the referent (v1).' }),
  name: t.field(3, t.string(), { description: 'Name of the referent, in the service account\'s namespace.' }),
  uid: t.field(4, t.string(), { description: 'UID of the referent; when set, the object must still be this one.' }),
}, { description: 'The object a token is bound to: deleting it revokes the token.' });

export const TokenRequestSpecSchema = t.struct('authentication.v1.TokenRequestSpec', {
  audiences: t.field(1, t.list(t.string()), { description: "Who the token is meant for; the server's API audiences when empty." }),
  expirationSeconds: t.field(4, t.int64(), { pointer: true, description: 'How long the token lives, at least 600 seconds; default 3600. The server may shorten it.' }),
  boundObjectRef: t.field(3, BoundObjectReferenceSchema, { pointer: true, description: 'A Pod or Secret the token is bound to.' }),
}, { description: 'What token is asked for.' });

export const TokenRequestStatusSchema = t.struct('authentication.v1.TokenRequestStatus', {
  token: t.field(1, t.string(), { description: 'The opaque bearer token.' }),
  expirationTimestamp: t.field(2, t.time(), { description: 'When the token expires.' }),
}, { description: 'The token issued.' });

export const TokenRequestSchema = t.struct('authentication.v1.TokenRequest', {
  ...objectHeader,
  spec: t.field(2, TokenRequestSpecSchema, { description: 'What token is asked for.' }),
  status: t.field(3, TokenRequestStatusSchema, { description: 'The token issued; filled by the server.' }),
}, { description: 'A request for a token of a service account.' });
export type TokenRequest = ObjectOf<typeof TokenRequestSchema>;

export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;
export const MIN_TOKEN_EXPIRATION_SECONDS = 600;
export const MAX_TOKEN_EXPIRATION_SECONDS = 2 ** 32;
/** The kubelet's projected token lifetime, which Kubernetes extends for pod-bound tokens. */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
export const EXTENDED_EXPIRATION_SECONDS = 365 * 24 * 3600;

function validateTokenRequest(req: TokenRequest): FieldError[] {
  const seconds = req.spec.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS;
  const errs: FieldError[] = [];
  if (seconds < MIN_TOKEN_EXPIRATION_SECONDS) errs.push(fieldErr.invalid('spec.expirationSeconds', seconds, 'may not specify a duration less than 10 minutes'));
  if (seconds > MAX_TOKEN_EXPIRATION_SECONDS) errs.push(fieldErr.invalid('spec.expirationSeconds', seconds, 'may not specify a duration larger than 2^32 seconds'));
  return errs;
}

/** The object, or once more after the lister caught up with the store (one created an instant ago). */
async function current<T>(lister: Lister<T>, namespace: string, name: string, signal: AbortSignal): Promise<T | undefined> {
  const found = lister.get(namespace, name);
  if (found !== undefined) return found;
  await lister.synced(signal);
  return lister.get(namespace, name);
}

/** Go's GroupVersionKind.String(): `apps/v1, Kind=Deployment`, `/v1, Kind=Node`. */
function gvkText(group: string, version: string, kind: string): string {
  return `${group}/${version}, Kind=${kind}`;
}

export function serviceAccountTokenSubresource(names: ApiNames, issuer: ServiceAccountTokenIssuer, listers: ListerSource): CreateSubresource {
  const authGroup = names.group('authentication');
  const gk = { group: authGroup, kind: 'TokenRequest' };
  const serviceAccounts = listers.for<ServiceAccount>('', 'serviceaccounts');
  const pods = listers.for<Pod>('', 'pods');
  const secrets = listers.for<Secret>('', 'secrets');

  async function boundObject(name: string, namespace: string, ref: NonNullable<TokenRequest['spec']['boundObjectRef']>, signal: AbortSignal) {
    const { group, version } = parseApiVersion(ref.apiVersion ?? '');
    const kind = ref.kind ?? '';
    const refName = ref.name ?? '';
    let bound: Pick<BoundTokenRequest, 'pod' | 'secret'>;
    let uid: string;
    if (group === '' && kind === 'Pod') {
      const pod = await current(pods, namespace, refName, signal);
      if (!pod) throw errors.notFound({ group: '', resource: 'pods' }, refName);
      if (name !== (pod.spec.serviceAccountName ?? '')) {
        throw errors.badRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`);
      }
      uid = pod.metadata.uid ?? '';
      bound = { pod: { name: refName, uid } };
    } else if (group === '' && kind === 'Secret') {
      const secret = await current(secrets, namespace, refName, signal);
      if (!secret) throw errors.notFound({ group: '', resource: 'secrets' }, refName);
      uid = secret.metadata.uid ?? '';
      bound = { secret: { name: refName, uid } };
    } else {
      throw errors.badRequest(`cannot bind token to object of type ${gvkText(group, version, kind)}`);
    }
    if (ref.uid && ref.uid !== uid) {
      throw errors.conflict(
        { group, resource: kind },
        refName,
        `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    return bound;
  }

  return {
    kind: 'create',
    verbs: ['create'],
    request: { group: authGroup, version: 'v1', kind: 'TokenRequest' },
    schema: TokenRequestSchema,
    async create(name: string, sent: KubeObject, ctx: CreateSubresourceContext): Promise<KubeObject> {
      const req = structuredClone(sent) as TokenRequest;
      const { namespace } = ctx;
      if (req.metadata.name && req.metadata.name !== name) {
        throw errors.invalid(gk, name, [fieldErr.invalid('metadata.name', req.metadata.name, 'must match the service account name if specified')]);
      }
      if (req.metadata.namespace && req.metadata.namespace !== namespace) {
        throw errors.invalid(gk, name, [fieldErr.invalid('metadata.namespace', req.metadata.namespace, 'must match the service account namespace if specified')]);
      }
      const sa = await current(serviceAccounts, namespace, name, ctx.signal);
      if (!sa) throw errors.notFound({ group: '', resource: 'serviceaccounts' }, name);

      const spec = req.spec ?? {};
      const audiences = spec.audiences && spec.audiences.length > 0 ? spec.audiences : [...issuer.audiences];
      let expirationSeconds = spec.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS;
      req.spec = { ...spec, audiences, expirationSeconds };
      req.metadata = { ...req.metadata, name: req.metadata.name || sa.metadata.name, namespace: req.metadata.namespace || namespace };
      const now = ctx.now;
      req.metadata.creationTimestamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
      const errs = validateTokenRequest(req);
      if (errs.length) throw errors.invalid(gk, '', errs);

      const bound = spec.boundObjectRef ? await boundObject(name, namespace, spec.boundObjectRef, ctx.signal) : {};
      if (issuer.maxExpirationSeconds > 0 && expirationSeconds > issuer.maxExpirationSeconds) {
        ctx.warn(`requested expiration of ${expirationSeconds} seconds shortened to ${issuer.maxExpirationSeconds} seconds`);
        expirationSeconds = issuer.maxExpirationSeconds;
        req.spec.expirationSeconds = expirationSeconds;
      }
      // Kubernetes' safe move to bound tokens: the kubelet's 3607-second pod tokens keep working for
      // a year, use after 3607 seconds being counted as stale rather than refused.
      const apiAudiences = new Set(issuer.audiences);
      const extend = issuer.extendExpiration && bound.pod !== undefined && expirationSeconds === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS && audiences.every((a) => apiAudiences.has(a));
      const token = await issuer.issue(
        {
          serviceAccount: { namespace, name: sa.metadata.name ?? name, uid: sa.metadata.uid ?? '' },
          ...bound,
          audiences,
          expirationSeconds: extend ? EXTENDED_EXPIRATION_SECONDS : expirationSeconds,
          ...(extend ? { warnAfterSeconds: expirationSeconds } : {}),
        },
        now,
      );
      const expires = new Date(Math.floor(now.getTime() / 1000) * 1000 + expirationSeconds * 1000);
      req.status = { token, expirationTimestamp: expires.toISOString().replace(/\.\d{3}Z$/, 'Z') };
      return req;
    },
  };
}
