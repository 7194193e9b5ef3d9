/**
 * The service-account token controller (Kubernetes' TokensController): a Secret of type
 * `<label domain>/service-account-token` that names an account in its
 * `<label domain>/service-account.name` annotation gets the account's uid annotation and the data
 * `ca.crt` (the CA clients trust), `namespace` and `token` (a legacy token for the account and this
 * Secret), once, when any is missing or wrong. A Secret whose account does not exist (or is another
 * account of the same name) is deleted, and so are an account's token Secrets when it is deleted.
 *
 * Follows Secrets and ServiceAccounts through their listers; writes through the in-process client
 * as the system; a failed key is retried with backoff, never dropped.
 */
import { secretTypes, serviceAccountTokenAnnotations, SERVICE_ACCOUNT_TOKEN_KEYS, type Secret } from '../../apis/core/v1/secret.js';
import type { ServiceAccount } from '../../apis/core/v1/serviceaccount.js';
import type { InProcessClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import { isStatusError } from '../../machinery/errors.js';
import type { Lister } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';

export interface ServiceAccountTokenControllerDeps {
  client: InProcessClient;
  names: ApiNames;
  secrets: Lister<Secret>;
  serviceAccounts: Lister<ServiceAccount>;
  /** PEM the `ca.crt` key holds ('' when the server has none to offer). */
  caPem: string;
  /** A legacy token for the account and the Secret's name. */
  signLegacyToken(serviceAccount: { namespace: string; name: string; uid: string }, secretName: string): Promise<string>;
  log: Logger;
}

export interface ServiceAccountTokenController {
  stop(): void;
}

const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 10_000;
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const decoded = (secret: Secret, key: string): string | undefined => {
  const v = secret.data?.[key];
  return v === undefined ? undefined : Buffer.from(v, 'base64').toString('utf8');
};

export function startServiceAccountTokenController(deps: ServiceAccountTokenControllerDeps): ServiceAccountTokenController {
  const { client, names, secrets, serviceAccounts, log } = deps;
  const tokenType = secretTypes(names).serviceAccountToken;
  const annotations = serviceAccountTokenAnnotations(names);
  const secretClient = client.resource('', 'secrets');
  const queued = new Set<string>();
  const attempts = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let busy = false;

  const key = (s: Secret): string => `${s.metadata.namespace ?? ''}/${s.metadata.name ?? ''}`;
  const isTokenSecret = (s: Secret): boolean => s.type === tokenType && !!s.metadata.annotations?.[annotations.name];

  const enqueue = (k: string, delayMs = 0): void => {
    if (stopped) return;
    if (delayMs === 0) {
      queued.add(k);
      void drain();
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      enqueue(k);
    }, delayMs);
    timers.add(timer);
  };

  const drain = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      while (queued.size > 0 && !stopped) {
        const k = queued.values().next().value as string;
        queued.delete(k);
        try {
          await sync(k);
          attempts.delete(k);
        } catch (e) {
          const n = (attempts.get(k) ?? 0) + 1;
          attempts.set(k, n);
          (n >= 5 ? log.warn : log.debug)('service account token controller: a Secret could not be synced; retrying', { secret: k, attempt: n, error: (e as Error).message });
          enqueue(k, Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.min(n, 7)));
        }
      }
    } finally {
      busy = false;
    }
  };

  /** The account the Secret names, if it is still that account (uid), looking again once the lister caught up. */
  const accountOf = async (secret: Secret): Promise<ServiceAccount | undefined> => {
    const ns = secret.metadata.namespace ?? '';
    const name = secret.metadata.annotations?.[annotations.name] ?? '';
    const wantUid = secret.metadata.annotations?.[annotations.uid];
    let sa = serviceAccounts.get(ns, name);
    if (!sa) {
      await serviceAccounts.synced();
      sa = serviceAccounts.get(ns, name);
    }
    return sa && (!wantUid || sa.metadata.uid === wantUid) ? sa : undefined;
  };

  const sync = async (k: string): Promise<void> => {
    const [ns, name] = k.split('/') as [string, string];
    const secret = secrets.get(ns, name);
    if (!secret || !isTokenSecret(secret) || secret.metadata.deletionTimestamp) return;
    const sa = await accountOf(secret);
    if (!sa) {
      log.info('deleting a service account token Secret whose account is gone', { secret: k });
      await deleteIfSame(secret);
      return;
    }
    const complete =
      secret.metadata.annotations?.[annotations.uid] === sa.metadata.uid &&
      decoded(secret, SERVICE_ACCOUNT_TOKEN_KEYS.namespace) === ns &&
      decoded(secret, SERVICE_ACCOUNT_TOKEN_KEYS.caCert) === deps.caPem &&
      !!decoded(secret, SERVICE_ACCOUNT_TOKEN_KEYS.token);
    if (complete) return;
    const token = decoded(secret, SERVICE_ACCOUNT_TOKEN_KEYS.token) || (await deps.signLegacyToken({ namespace: ns, name: sa.metadata.name ?? '', uid: sa.metadata.uid ?? '' }, name));
    await secretClient.update(ns, name, (current) => {
      const cur = current as Secret | undefined;
      // Another account, or the Secret replaced meanwhile: leave it to its own sync.
      if (!cur || cur.metadata.uid !== secret.metadata.uid) throw new Error('the Secret changed while its token was being made');
      cur.metadata.annotations = { ...cur.metadata.annotations, [annotations.uid]: sa.metadata.uid ?? '' };
      cur.data = {
        ...cur.data,
        [SERVICE_ACCOUNT_TOKEN_KEYS.caCert]: b64(deps.caPem),
        [SERVICE_ACCOUNT_TOKEN_KEYS.namespace]: b64(ns),
        ...(cur.data?.[SERVICE_ACCOUNT_TOKEN_KEYS.token] ? {} : { [SERVICE_ACCOUNT_TOKEN_KEYS.token]: b64(token) }),
      };
      return cur;
    });
  };

  const deleteIfSame = async (secret: Secret): Promise<void> => {
    try {
      await secretClient.delete(secret.metadata.namespace ?? '', secret.metadata.name ?? '', { preconditions: { uid: secret.metadata.uid ?? '' } });
    } catch (e) {
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
    }
  };

  const offSecrets = secrets.onChange((ev) => {
    if (ev.type !== 'DELETED' && isTokenSecret(ev.object)) enqueue(key(ev.object));
  });
  const offAccounts = serviceAccounts.onChange((ev) => {
    if (ev.type !== 'DELETED') return;
    // The account's token Secrets go with it (the sync finds the account gone and deletes each).
    for (const s of secrets.list(ev.object.metadata.namespace)) {
      if (isTokenSecret(s) && s.metadata.annotations?.[annotations.name] === ev.object.metadata.name) enqueue(key(s));
    }
  });
  for (const s of secrets.list()) if (isTokenSecret(s)) enqueue(key(s));

  return {
    stop() {
      stopped = true;
      offSecrets();
      offAccounts();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      queued.clear();
    },
  };
}
