/**
 * Leader election through a Lease, as client-go's leader elector with a `leases` lock: a candidate
 * takes the Lease when nobody holds it or its holder has not renewed it within the lease duration
 * (measured on this instance's clock from when it last saw the record change, so clocks need not
 * agree), then renews it every retry period. A leader that cannot renew within the renew deadline
 * stops leading (its controllers stop) and becomes a candidate again. stop() ends the loop and,
 * when leading, gives the Lease up so another instance need not wait the lease duration out.
 *
 * On SQLite and memory (`exclusiveStore`) the Lease is taken at start and not renewed: no other
 * instance can share the store, so renewals would only be writes.
 *
 * Writes go through the in-process client with compare-and-swap on the resourceVersion, so two
 * candidates can never both believe they took the Lease.
 */
import type { ResourceClient } from '../../client/in-process-client.js';
import type { Lease } from '../../apis/coordination/v1/lease.js';
import { isStatusError } from '../../machinery/errors.js';
import type { Logger } from '../../machinery/logger.js';
import type { KubeObject } from '../../schema/index.js';
import type { EventRecorder } from './event-recorder.js';

/** client-go's JitterFactor: retries wait between the retry period and 1.2 times it. */
export const JITTER_FACTOR = 1.2;

export interface LeaderElectionTiming {
  /** `--leader-elect-lease-duration`: how long others wait before taking over a silent holder's Lease. */
  leaseDurationMs: number;
  /** `--leader-elect-renew-deadline`: how long a leader keeps trying to renew before it stops leading. */
  renewDeadlineMs: number;
  /** `--leader-elect-retry-period`: the pause between attempts to take or renew the Lease. */
  retryPeriodMs: number;
}

/** kube-controller-manager's defaults: 15 s, 10 s, 2 s. */
export const DEFAULT_LEADER_ELECTION_TIMING: LeaderElectionTiming = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** client-go's checks of the three durations, in its words. */
export function validateLeaderElectionTiming(t: LeaderElectionTiming): string[] {
  if (t.leaseDurationMs <= t.renewDeadlineMs) return ['leaseDuration must be greater than renewDeadline'];
  if (t.renewDeadlineMs <= JITTER_FACTOR * t.retryPeriodMs) return ['renewDeadline must be greater than retryPeriod*JitterFactor'];
  if (t.leaseDurationMs < 1) return ['leaseDuration must be greater than zero'];
  if (t.renewDeadlineMs < 1) return ['renewDeadline must be greater than zero'];
  if (t.retryPeriodMs < 1) return ['retryPeriod must be greater than zero'];
  return [];
}

export interface LeaderElectorDeps {
  leases: ResourceClient;
  namespace: string;
  name: string;
  /** This candidate's identity: host name, `_`, a random id. */
  identity: string;
  timing: LeaderElectionTiming;
  /**
   * The store cannot be shared with another instance (SQLite, memory): any other holder is a dead
   * earlier process, so its Lease is taken at once instead of after the lease duration.
   */
  exclusiveStore?: boolean;
  recorder?: EventRecorder;
  log: Logger;
  /** Called on becoming leader; `signal` aborts when leadership ends. */
  onStartedLeading(signal: AbortSignal): void;
  onStoppedLeading(): void;
}

export interface LeaderElector {
  isLeader(): boolean;
  /** Ends the election; a leader stops leading and releases the Lease. */
  stop(): Promise<void>;
}

const microTime = (d: Date): string => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
const jittered = (ms: number): number => ms + Math.random() * (JITTER_FACTOR - 1) * ms;

export function startLeaderElection(deps: LeaderElectorDeps): LeaderElector {
  const { leases, namespace, name, identity, timing, log } = deps;
  const stopping = new AbortController();
  /** The last record seen and when (on this clock) it was first seen: the basis of expiry. */
  let observed: { holder: string; renewTime: string; at: number } | undefined;
  let leading: AbortController | undefined;

  const holderOf = (lease: Lease): string => lease.spec.holderIdentity ?? '';
  const observe = (lease: Lease): void => {
    const holder = holderOf(lease);
    const renewTime = lease.spec.renewTime ?? '';
    if (!observed || observed.holder !== holder || observed.renewTime !== renewTime) observed = { holder, renewTime, at: Date.now() };
  };
  const held = (lease: Lease): boolean => {
    const holder = holderOf(lease);
    if (holder === '' || holder === identity) return false;
    if (deps.exclusiveStore) return false;
    const duration = (lease.spec.leaseDurationSeconds ?? 0) * 1000;
    return (observed?.at ?? Date.now()) + duration > Date.now();
  };

  /** One attempt; true when this candidate holds the Lease afterwards. */
  const tryAcquireOrRenew = async (): Promise<boolean> => {
    const now = microTime(new Date());
    const durationSeconds = Math.max(1, Math.round(timing.leaseDurationMs / 1000));
    const current = (await leases.get(namespace, name)) as Lease | undefined;
    if (!current) {
      try {
        await leases.create(namespace, {
          apiVersion: leases.store.def.group + '/v1',
          kind: 'Lease',
          metadata: { name, namespace },
          spec: { holderIdentity: identity, leaseDurationSeconds: durationSeconds, acquireTime: now, renewTime: now, leaseTransitions: 0 },
        } as unknown as KubeObject);
        return true;
      } catch (e) {
        if (isStatusError(e, 'AlreadyExists')) return false;
        throw e;
      }
    }
    observe(current);
    if (held(current)) return false;
    const wasMine = holderOf(current) === identity;
    try {
      await leases.update(namespace, name, (stored) => {
        const lease = stored as Lease | undefined;
        // Compare-and-swap: if anyone wrote the Lease since we read it, this attempt fails.
        if (!lease || lease.metadata.resourceVersion !== current.metadata.resourceVersion) throw new LeaseMoved();
        lease.spec = {
          ...lease.spec,
          holderIdentity: identity,
          leaseDurationSeconds: durationSeconds,
          renewTime: now,
          acquireTime: wasMine ? (lease.spec.acquireTime ?? now) : now,
          leaseTransitions: wasMine ? (lease.spec.leaseTransitions ?? 0) : (lease.spec.leaseTransitions ?? 0) + 1,
        };
        return lease;
      });
      return true;
    } catch (e) {
      if (e instanceof LeaseMoved || isStatusError(e, 'Conflict') || isStatusError(e, 'NotFound')) return false;
      throw e;
    }
  };

  const attempt = async (): Promise<boolean> => {
    try {
      return await tryAcquireOrRenew();
    } catch (e) {
      log.warn('leader election: the lease could not be read or written', { lease: `${namespace}/${name}`, error: e instanceof Error ? e.message : String(e) });
      return false;
    }
  };

  const record = (what: string): void => {
    void leases.get(namespace, name).then(
      (lease) => lease && deps.recorder?.event(lease, 'Normal', 'LeaderElection', `${identity} ${what}`),
      () => undefined,
    );
  };

  const run = async (): Promise<void> => {
    const stop = stopping.signal;
    while (!stop.aborted) {
      // Candidate: try until the Lease is ours.
      if (!(await attempt())) {
        await sleep(jittered(timing.retryPeriodMs), stop);
        continue;
      }
      if (stop.aborted) break;
      log.info('leader election: became leader', { lease: `${namespace}/${name}`, identity });
      record('became leader');
      leading = new AbortController();
      deps.onStartedLeading(leading.signal);
      // On a store no other instance can open, nobody could take the Lease over: renewing it would
      // only be a write every retry period. Lead until stopped.
      while (deps.exclusiveStore && !stop.aborted) await sleep(2 ** 31 - 1, stop);
      // Leader: renew every retry period; give up when no renewal succeeds within the deadline.
      let lastRenewal = Date.now();
      while (!stop.aborted) {
        await sleep(timing.retryPeriodMs, stop);
        if (stop.aborted) break;
        if (await attempt()) {
          lastRenewal = Date.now();
          continue;
        }
        if (Date.now() - lastRenewal >= timing.renewDeadlineMs) break;
      }
      const ended = leading;
      leading = undefined;
      ended.abort();
      deps.onStoppedLeading();
      if (!stop.aborted) {
        log.warn('leader election: leadership lost; controllers stopped', { lease: `${namespace}/${name}`, identity });
        record('stopped leading');
      }
    }
  };
  const loop = run();

  return {
    isLeader: () => leading !== undefined,
    async stop() {
      const wasLeading = leading !== undefined;
      stopping.abort();
      await loop;
      if (wasLeading) await release();
    },
  };

  /** Gives the Lease up (client-go's release: no holder, a one-second term), if it is still ours. */
  async function release(): Promise<void> {
    try {
      await leases.update(namespace, name, (stored) => {
        const lease = stored as Lease | undefined;
        if (!lease || holderOf(lease) !== identity) throw new LeaseMoved();
        const now = microTime(new Date());
        lease.spec = { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now };
        return lease;
      });
    } catch (e) {
      if (!(e instanceof LeaseMoved)) log.debug('leader election: the lease could not be released', { error: e instanceof Error ? e.message : String(e) });
    }
  }
}

/** The Lease changed between read and write: another candidate was quicker. */
class LeaseMoved extends Error {
  constructor() {
    super('the lease changed while it was being taken');
  }
}
