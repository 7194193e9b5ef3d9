/**
 * The Service allocators of a server: one stored pool per cluster IP family and one for node
 * ports, built from the flags. Pools rebuild themselves from the stored Services when their bitmap
 * is missing or was written for another range.
 */
import type { IPFamily } from '../../machinery/ip.js';
import type { RevisionedKV } from '../../storage/kv.js';
import { parseNodePortRange, parseServiceClusterIPRanges, type IPRange, type RangeSpec } from './ranges.js';
import { StoredPool } from './stored-pool.js';
import type { ServiceAllocators, ValuePool } from './types.js';

export type { AllocationResult, ServiceAllocators, ValuePool } from './types.js';
export { parseNodePortRange, parseServiceClusterIPRanges } from './ranges.js';
export { StoredPool } from './stored-pool.js';

/** Kubernetes' defaults: kube-apiserver's service range and node port range. */
export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';
export const DEFAULT_SERVICE_NODE_PORT_RANGE = '30000-32767';

/** Internal state lives under /registry/internal/, beside the objects the watch cache follows. */
export const RANGES_PREFIX = '/registry/internal/ranges/';

export interface ServiceRanges {
  clusterIPRanges: IPRange[];
  nodePortRange: RangeSpec<number>;
}

/** Reads the two flags (defaults when absent); throws an Error naming the flag when one is not acceptable. */
export function parseServiceRanges(flags: { serviceClusterIPRange?: string; serviceNodePortRange?: string }): ServiceRanges {
  return {
    clusterIPRanges: parseServiceClusterIPRanges(flags.serviceClusterIPRange ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE),
    nodePortRange: parseNodePortRange(flags.serviceNodePortRange ?? DEFAULT_SERVICE_NODE_PORT_RANGE),
  };
}

export interface ServiceAllocatorOptions extends ServiceRanges {
  kv: RevisionedKV;
  /** The key prefix of stored Services, read to rebuild a pool. */
  servicesPrefix: string;
}

interface StoredServiceSpec {
  spec?: {
    type?: string;
    clusterIPs?: string[];
    clusterIP?: string;
    ports?: { nodePort?: number }[];
    healthCheckNodePort?: number;
  };
}

async function listServices(kv: RevisionedKV, prefix: string): Promise<StoredServiceSpec[]> {
  const { entries } = await kv.list(prefix);
  const out: StoredServiceSpec[] = [];
  for (const e of entries) {
    try {
      out.push(JSON.parse(e.value) as StoredServiceSpec);
    } catch {
      // An unreadable object holds nothing we could honour.
    }
  }
  return out;
}

/** Builds the pools over the store. Nothing is read until the first request. */
export function createServiceAllocators(opts: ServiceAllocatorOptions): ServiceAllocators {
  const ranges = opts.clusterIPRanges;
  const ports = opts.nodePortRange;
  const services = (): Promise<StoredServiceSpec[]> => listServices(opts.kv, opts.servicesPrefix);
  const clusterIPs = new Map<IPFamily, ValuePool<string>>();
  for (const range of ranges) {
    const name = `serviceips-${range.family.toLowerCase()}`;
    clusterIPs.set(
      range.family,
      new StoredPool<string>({
        kv: opts.kv,
        key: `${RANGES_PREFIX}${name}`,
        name,
        spec: range,
        inUse: async () => (await services()).filter((s) => s.spec?.type !== 'ExternalName').flatMap((s) => s.spec?.clusterIPs ?? (s.spec?.clusterIP ? [s.spec.clusterIP] : [])),
      }),
    );
  }
  const nodePorts = new StoredPool<number>({
    kv: opts.kv,
    key: `${RANGES_PREFIX}servicenodeports`,
    name: 'servicenodeports',
    spec: ports,
    inUse: async () =>
      (await services()).flatMap((s) => [...(s.spec?.ports ?? []).map((p) => p.nodePort ?? 0), s.spec?.healthCheckNodePort ?? 0].filter((n) => n > 0)),
  });
  return { clusterIPs, primaryFamily: (ranges[0] as (typeof ranges)[number]).family, nodePorts };
}
