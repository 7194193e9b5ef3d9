/**
 * The etcd3 client as the store uses it, and how its calls survive the loss of a member or of the
 * leader.
 *
 * - Failover: each attempt of a call goes to one member; a member whose connection fails (refused,
 *   reset: the process or machine is gone) is skipped for a second, then tried again. The client's
 *   own retries are off: they would retry writes blindly. Retries happen here (`withRetries`), each
 *   on a member picked afresh, with a short backoff.
 * - Timeouts: an attempt has a deadline (2 s, doubling on each retry, so that a slow but healthy
 *   cluster still answers a big read); the whole call has a budget (30 s). A request forwarded to a
 *   leader that just died is never answered until etcd's own 7 s request timeout: the attempt
 *   deadline is what lets it resume on the new leader instead.
 * - Keep-alive pings find a member that vanished without closing its connections (10 s, then 3 s to
 *   answer; etcd refuses pings more often than every 5 s). Reconnection backoff is capped at a
 *   second, so a member that comes back is used again soon.
 * - What is retried: reads always (they are idempotent). A write only when no attempt can have been
 *   applied twice: every write of this store is a compare-and-swap (etcd-kv.ts), so a second attempt
 *   of a write that the first already committed fails its compare; the caller then recognises its
 *   own value (`uncertain` below) instead of reporting a conflict. A write is never acknowledged
 *   unless etcd answered that it committed it.
 */
import { circuitBreaker, ConsecutiveBreaker, handleWhen, isBrokenCircuitError, noop } from 'cockatiel';
import { ClientClosedError, Etcd3, GRPCUnavailableError, isRecoverableError } from 'etcd3';

export interface EtcdCallTimeouts {
  /** Deadline of the first attempt of a unary call; each retry doubles it (default 2 s). */
  attemptTimeoutMs: number;
  /** Budget of a whole unary call, retries included (default 30 s). */
  callTimeoutMs: number;
}

export const DEFAULT_CALL_TIMEOUTS: EtcdCallTimeouts = { attemptTimeoutMs: 2_000, callTimeoutMs: 30_000 };

/** How long a member whose connection failed is left aside before it is tried again. */
const MEMBER_RETRY_AFTER_MS = 1_000;
const BACKOFF_MIN_MS = 25;
const BACKOFF_MAX_MS = 500;

export function createEtcdClient(endpoints: string[], timeouts: EtcdCallTimeouts): Etcd3 {
  return new Etcd3({
    hosts: endpoints,
    grpcOptions: {
      // Objects are up to a few MiB and a watch response may carry several with their previous values.
      'grpc.max_receive_message_length': -1,
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 3_000,
      'grpc.initial_reconnect_backoff_ms': 100,
      'grpc.max_reconnect_backoff_ms': 1_000,
    },
    // Calls that pass no deadline of their own (the connection check) still end.
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + timeouts.callTimeoutMs }),
    faultHandling: {
      global: noop,
      host: () => circuitBreaker(handleWhen(isConnectionFailure), { halfOpenAfter: MEMBER_RETRY_AFTER_MS, breaker: new ConsecutiveBreaker(1) }),
    },
  });
}

/** The member could not be reached or dropped the connection: its fault, not the cluster's. */
function isConnectionFailure(e: Error): boolean {
  return e instanceof GRPCUnavailableError && !e.message.includes('etcdserver:');
}

/** Errors after which another attempt may succeed: the member or the cluster was unavailable for a moment. */
export function isTransient(e: unknown): boolean {
  if (!(e instanceof Error) || e instanceof ClientClosedError) return false;
  return isBrokenCircuitError(e) || isRecoverableError(e);
}

/**
 * Errors that prove the request was not applied: it never left this process (no member could be
 * reached), or etcd refused it before proposing it (no leader, proposal dropped, overloaded).
 */
export function wasNotApplied(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (isBrokenCircuitError(e)) return true;
  return /ECONNREFUSED|No connection established|failed to connect|etcdserver: no leader|raft proposal dropped|etcdserver: too many requests|etcdserver: not capable/.test(e.message);
}

export interface Attempt {
  /** Call options with this attempt's deadline. */
  options: { deadline: number };
  /** A previous attempt failed in a way that leaves open whether etcd applied it. */
  uncertain: boolean;
}

/**
 * Runs `call` until it succeeds, retrying after transient failures while the budget lasts.
 * `retryable(e)` narrows which transient failures are retried (writes that are not guarded). The
 * last error is thrown as it came.
 */
export async function withRetries<T>(timeouts: EtcdCallTimeouts, call: (a: Attempt) => Promise<T>, retryable: (e: unknown) => boolean = () => true): Promise<T> {
  const deadline = Date.now() + timeouts.callTimeoutMs;
  let uncertain = false;
  for (let n = 0; ; n++) {
    const left = deadline - Date.now();
    const attemptMs = Math.max(1, Math.min(timeouts.attemptTimeoutMs * 2 ** n, left));
    try {
      return await call({ options: { deadline: Date.now() + attemptMs }, uncertain });
    } catch (e) {
      const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** n) * (0.5 + Math.random() / 2);
      if (!isTransient(e) || !retryable(e) || Date.now() + backoff >= deadline) throw e;
      if (!wasNotApplied(e)) uncertain = true;
      await new Promise((r) => setTimeout(r, backoff));
    }
  }
}
