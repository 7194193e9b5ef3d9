/**
 * The controller manager inside the server: from the descriptors and `--controllers` it starts the
 * controllers this instance should run, each with its own context, while this instance leads (or
 * at once, without leader election), and stops them when leadership ends or the server closes.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setMaxListeners } from 'node:events';
import type { ClientIdentity, InProcessClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import type { ListerSource } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import type { UserInfo } from '../../machinery/user-info.js';
import type { ControllerContext, ControllerDescriptor, RunningController } from './context.js';
import { createEventRecorder } from './event-recorder.js';
import { controllerManagerLeaseName, controllerManagerUser, serviceAccountUser } from './identity.js';
import { startLeaderElection, type LeaderElectionTiming, type LeaderElector } from './leader-election.js';
import { isControllerEnabled, validateControllerSelection } from './selection.js';
import { WorkQueue } from './work-queue.js';

export interface ControllerManagerDeps {
  controllers: readonly ControllerDescriptor[];
  /** `--controllers`, already checked with checkControllerSelection. */
  selection: readonly string[];
  /** The server's own client; each controller gets one acting as its identity. */
  client: InProcessClient;
  /** How a user's calls are authorized (the server's authorizer); absent: not checked. */
  authorizeAs?: (user: UserInfo) => ClientIdentity['authorize'];
  listers: ListerSource;
  names: ApiNames;
  log: Logger;
  /** Leader election through the controller manager's Lease; false runs the controllers at once. */
  leaderElection: false | { timing: LeaderElectionTiming; exclusiveStore: boolean };
}

export interface ControllerManager {
  /** This instance's identity in the election. */
  readonly identity: string;
  /** Names of the controllers running now. */
  running(): string[];
  stop(): Promise<void>;
}

/** Problems of a `--controllers` list against the descriptors (an empty list: fine). */
export function checkControllerSelection(controllers: readonly ControllerDescriptor[], selection: readonly string[]): string[] {
  return validateControllerSelection(selection, new Set(controllers.map((c) => c.name)));
}

const QUEUE_DEFAULTS = { workers: 1, minRetryMs: 50, maxRetryMs: 10_000 };

export function startControllerManager(deps: ControllerManagerDeps): ControllerManager {
  const { names, log } = deps;
  const identity = `${hostname()}_${randomUUID()}`;
  const disabledByDefault = new Set(deps.controllers.filter((c) => c.disabledByDefault).map((c) => c.name));
  const enabled = deps.controllers.filter((c) => isControllerEnabled(c.name, disabledByDefault, deps.selection));
  const clientFor = (user: UserInfo): InProcessClient => {
    const authorize = deps.authorizeAs?.(user);
    return deps.client.as({ user, ...(authorize ? { authorize } : {}) });
  };
  const managerClient = clientFor(controllerManagerUser(names));
  const component = `${names.prefix}-controller-manager`;
  const running = new Map<string, RunningController>();
  let generation = 0;

  const startAll = (leading: AbortSignal): void => {
    const mine = ++generation;
    // Every controller listens for the end of leadership: one listener each, more than Node's default ten.
    setMaxListeners(0, leading);
    for (const descriptor of enabled) {
      if (!descriptor.start) continue;
      void startOne(descriptor, leading).then(
        (handle) => {
          // Leadership ended (or the server closed) while it was starting.
          if (leading.aborted || mine !== generation) handle.stop();
          else running.set(descriptor.name, handle);
        },
        (e: unknown) => log.error('a controller failed to start', { controller: descriptor.name, error: e instanceof Error ? e.message : String(e) }),
      );
    }
  };

  const startOne = async (descriptor: ControllerDescriptor, leading: AbortSignal): Promise<RunningController> => {
    const user = descriptor.serviceAccount ? serviceAccountUser(names, descriptor.serviceAccount) : controllerManagerUser(names);
    const client = clientFor(user);
    const abort = new AbortController();
    setMaxListeners(0, abort.signal);
    const onLeadingEnded = (): void => abort.abort();
    leading.addEventListener('abort', onLeadingEnded, { once: true });
    const queues: WorkQueue[] = [];
    const controllerLog = log;
    const ctx: ControllerContext = {
      name: descriptor.name,
      client,
      listers: deps.listers,
      names,
      log: controllerLog,
      recorder: createEventRecorder({ client, component: descriptor.name, log: controllerLog }),
      signal: abort.signal,
      workQueue(handle, opts = {}) {
        const queue = new WorkQueue(
          handle,
          (key, error, attempt) =>
            (attempt >= 5 ? controllerLog.warn : controllerLog.debug)(`${descriptor.name}: syncing failed; retrying`, {
              key,
              attempt,
              error: error instanceof Error ? error.message : String(error),
            }),
          { ...QUEUE_DEFAULTS, ...opts },
        );
        queues.push(queue);
        return queue;
      },
    };
    const handle = await descriptor.start?.(ctx);
    log.debug('controller started', { controller: descriptor.name });
    return {
      stop() {
        leading.removeEventListener('abort', onLeadingEnded);
        abort.abort();
        for (const q of queues) q.stop();
        handle?.stop();
      },
    };
  };

  const stopAll = (): void => {
    generation++;
    for (const handle of running.values()) handle.stop();
    running.clear();
  };

  let elector: LeaderElector | undefined;
  const always = new AbortController();
  if (deps.leaderElection) {
    elector = startLeaderElection({
      leases: managerClient.resource(names.group('coordination'), 'leases'),
      namespace: names.systemNamespace,
      name: controllerManagerLeaseName(names),
      identity,
      timing: deps.leaderElection.timing,
      exclusiveStore: deps.leaderElection.exclusiveStore,
      recorder: createEventRecorder({ client: managerClient, component, host: identity, log }),
      log,
      onStartedLeading: startAll,
      onStoppedLeading: stopAll,
    });
  } else {
    startAll(always.signal);
  }

  return {
    identity,
    running: () => [...running.keys()],
    async stop() {
      always.abort();
      await elector?.stop();
      stopAll();
    },
  };
}
