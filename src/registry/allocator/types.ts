/**
 * What Services see of the cluster IP and node port pools: the seam between the Service kind
 * (pure rules in apis/) and the stored allocators (registry/allocator/), handed over through the
 * KindEnvironment. No storage types here.
 */
import type { IPFamily } from '../../machinery/ip.js';

/** Why a request could not be met, in Kubernetes' words (`provided IP is already allocated`). */
export interface AllocationFailure {
  readonly ok: false;
  /** Index of the request that failed. */
  readonly index: number;
  readonly reason: 'allocated' | 'not-in-range' | 'full';
  readonly message: string;
}

export type AllocationResult<T> = { readonly ok: true; readonly values: T[] } | AllocationFailure;

/** A pool of values (IPs of one family, or node ports) kept durably and shared by every server. */
export interface ValuePool<T> {
  /** The configured range, as the flag gave it (`10.0.0.0/24`, `30000-32767`). */
  readonly range: string;
  /**
   * Takes each requested value, or any free one where the request is undefined; all or none.
   * With `dryRun` nothing is taken: the answer says what a real request would get now.
   * Throws a StatusError only when the store fails; refusals are results. May be retried.
   */
  allocate(requests: readonly (T | undefined)[], opts?: { dryRun?: boolean }): Promise<AllocationResult<T>>;
  /** Gives values back; values outside the range or not taken are ignored. Throws when the store fails. */
  release(values: readonly T[]): Promise<void>;
}

/** The pools of --service-cluster-ip-range (one per family) and --service-node-port-range. */
export interface ServiceAllocators {
  /** Cluster IP pools by family; dual-stack clusters have two. */
  readonly clusterIPs: ReadonlyMap<IPFamily, ValuePool<string>>;
  /** The family of the first range given, used when a Service asks for none. */
  readonly primaryFamily: IPFamily;
  readonly nodePorts: ValuePool<number>;
}
