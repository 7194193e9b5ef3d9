/**
 * The token cleaner (kube-controller-manager's `tokencleaner`, off by default): a bootstrap token
 * Secret (type `bootstrap.<domain>/token` in the system namespace) whose `expiration` has passed,
 * or cannot be read, is deleted, with its uid as a precondition so that a Secret made anew under
 * the same name is spared. One not yet expired is looked at again when it expires. Expired tokens
 * already fail authentication; this only tidies them away (document 3, States and transitions).
 */
import { bootstrapExpiration } from '../../apis/core/v1/bootstrap-token.js';
import { secretTypes, type Secret } from '../../apis/core/v1/secret.js';
import type { ResourceClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import { isStatusError } from '../../machinery/errors.js';
import type { Lister } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import { WorkQueue } from '../framework/work-queue.js';

export const TOKEN_CLEANER = 'tokencleaner';

export interface TokenCleanerDeps {
  names: ApiNames;
  /** core/v1 secrets, through the in-process client. */
  secretClient: ResourceClient;
  secrets: Lister<Secret>;
  log: Logger;
  now?: () => Date;
}

/** What to do with a Secret now: delete it, look again in `afterMs`, or nothing (not a token, or no expiration). Pure. */
export function cleanerDecision(secret: Secret, names: ApiNames, now: Date): { action: 'delete' } | { action: 'recheck'; afterMs: number } | { action: 'none' } {
  if (secret.type !== secretTypes(names).bootstrapToken || secret.metadata.namespace !== names.systemNamespace) return { action: 'none' };
  const expiration = bootstrapExpiration(secret, now);
  if (expiration.expired) return { action: 'delete' };
  if (expiration.expires) return { action: 'recheck', afterMs: expiration.expires.getTime() - now.getTime() };
  return { action: 'none' };
}

/** Node's timers hold at most 2^31-1 ms; a later expiry is looked at again then, and again. */
const MAX_TIMER_MS = 2_147_483_647;

export function startTokenCleaner(deps: TokenCleanerDeps): { stop(): void } {
  const { names, secretClient, secrets, log } = deps;
  const now = deps.now ?? (() => new Date());
  const timers = new Map<string, NodeJS.Timeout>();
  const recheck = (key: string, afterMs: number): void => {
    clearTimeout(timers.get(key));
    const timer = setTimeout(() => {
      timers.delete(key);
      queue.add(key);
    }, Math.min(MAX_TIMER_MS, Math.max(0, afterMs) + 5));
    timers.set(key, timer);
  };
  const sync = async (name: string): Promise<void> => {
    const secret = secrets.get(names.systemNamespace, name);
    if (!secret) return;
    const decision = cleanerDecision(secret, names, now());
    if (decision.action === 'recheck') return recheck(name, decision.afterMs);
    if (decision.action !== 'delete') return;
    log.info('token cleaner: deleting an expired bootstrap token Secret', { secret: `${names.systemNamespace}/${name}` });
    try {
      await secretClient.delete(names.systemNamespace, name, secret.metadata.uid ? { preconditions: { uid: secret.metadata.uid } } : {});
    } catch (e) {
      // Gone already, or replaced by a new Secret of the same name (its own event brings it here).
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
    }
  };
  const queue = new WorkQueue(sync, (name, error, attempt) => log.warn('token cleaner: could not delete an expired bootstrap token; retrying', { secret: name, attempt, error: error instanceof Error ? error.message : String(error) }), {
    workers: 1,
    minRetryMs: 100,
    maxRetryMs: 10_000,
  });
  const isCandidate = (s: Secret): boolean => s.metadata.namespace === names.systemNamespace && s.type === secretTypes(names).bootstrapToken;
  const off = secrets.onChange((ev) => {
    if (ev.type === 'DELETED') {
      clearTimeout(timers.get(ev.object.metadata.name ?? ''));
      return;
    }
    if (isCandidate(ev.object)) queue.add(ev.object.metadata.name ?? '');
  });
  for (const s of secrets.list(names.systemNamespace)) if (isCandidate(s)) queue.add(s.metadata.name ?? '');
  return {
    stop() {
      off();
      queue.stop();
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    },
  };
}
