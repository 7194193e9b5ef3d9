/**
 * What a controller is given when it starts: a client acting as its own identity, the listers,
 * the API names, a logger, an event recorder, a signal that ends it, and work queues that stop
 * with it. A controller is a descriptor (kube-controller-manager's name, its identity, whether it
 * is on by default) with a start function that returns how to stop it.
 */
import type { InProcessClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import type { ListerSource } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import type { EventRecorder } from './event-recorder.js';
import type { WorkHandler, WorkQueue, WorkQueueOptions } from './work-queue.js';

export interface ControllerContext {
  /** kube-controller-manager's name of the controller (`csrsigning`). */
  readonly name: string;
  /** Acts as the controller's identity, authorized as an HTTP request of that user would be. */
  readonly client: InProcessClient;
  readonly listers: ListerSource;
  readonly names: ApiNames;
  readonly log: Logger;
  readonly recorder: EventRecorder;
  /** Aborts when the controller must stop: leadership lost, or the server closing. */
  readonly signal: AbortSignal;
  /** A work queue that stops with the controller; a failure is logged (warn from the fifth attempt on) and retried with backoff. */
  workQueue(handle: WorkHandler, opts?: Partial<WorkQueueOptions>): WorkQueue;
}

export interface RunningController {
  stop(): void;
}

export interface ControllerDescriptor {
  /** kube-controller-manager's name, as `--controllers` names it. */
  readonly name: string;
  /**
   * The service account in the system namespace the controller acts as (the subject of its
   * `system:controller:<role>` binding); absent: the controller manager's own user.
   */
  readonly serviceAccount?: string;
  /** Off unless `--controllers` names it (tokencleaner, bootstrapsigner). */
  readonly disabledByDefault?: boolean;
  /** Absent: a controller this server does not run (kube-controller-manager's workload controllers). */
  readonly start?: (ctx: ControllerContext) => RunningController | Promise<RunningController>;
}
