/**
 * Cluster IPs and node ports of a Service, taken from the cluster's pools as the Service is
 * written and given back when it no longer holds them (Kubernetes' service REST allocators).
 *
 * A write transaction gives back what it took when the write is not stored, and gives back what
 * the old object held only once the new one is stored. A dry run takes nothing: it answers with
 * what it would take.
 */
import { errors } from '../../../../machinery/errors.js';
import { fieldErr, FieldPath } from '../../../../machinery/field-errors.js';
import { familyOfIP, type IPFamily } from '../../../../machinery/ip.js';
import type { ServiceAllocators, ValuePool, WriteTransaction } from '../../../../registry/define-resource.js';
import { CLUSTER_IP_NONE, needsHealthCheck, needsNodePort, servicePortNodePorts, shouldAllocateNodePorts } from './helpers.js';
import { initIPFamilyFields, invalidService, isMatchingPreferDualStack } from './ip-families.js';
import type { Service } from './schema.js';

const SPEC = FieldPath.root('spec');

/** What to give back if the write fails (taken) and once it is stored (superseded). */
class ServiceTransaction implements WriteTransaction {
  private readonly taken: (() => Promise<void>)[] = [];
  private readonly superseded: (() => Promise<void>)[] = [];
  constructor(private readonly dryRun: boolean) {}

  took<T>(pool: ValuePool<T>, values: T[]): void {
    if (values.length) this.taken.push(() => pool.release(values));
  }

  releaseOnCommit<T>(pool: ValuePool<T> | undefined, values: T[]): void {
    if (pool && values.length) this.superseded.push(() => pool.release(values));
  }

  async finish(committed: boolean): Promise<void> {
    if (this.dryRun) return;
    for (const release of committed ? this.superseded : this.taken) {
      // A failed release leaks the value until the pool is rebuilt from the stored objects; the
      // write itself has been decided and must not be reported as failed.
      await release().catch(() => undefined);
    }
  }
}

function allocators(al: ServiceAllocators | undefined): ServiceAllocators {
  if (!al) throw errors.internal('this server has no service IP and node port allocators');
  return al;
}

function poolOf(al: ServiceAllocators, family: string | undefined): ValuePool<string> | undefined {
  return family ? al.clusterIPs.get(family as IPFamily) : undefined;
}

/** Takes one address per family, at the index of its family; `clusterIPs[i]` names a wanted one. */
async function allocateClusterIPs(al: ServiceAllocators, svc: Service, indexes: number[], txn: ServiceTransaction, dryRun: boolean): Promise<void> {
  if (indexes.length === 0) return;
  const spec = svc.spec;
  const ips = [...(spec.clusterIPs ?? [])];
  const families = spec.ipFamilies ?? [];
  while (ips.length < families.length) ips.push('');
  spec.clusterIPs = ips;
  for (const i of indexes) {
    const pool = poolOf(al, families[i]) as ValuePool<string>;
    const wanted = ips[i] || undefined;
    const result = await pool.allocate([wanted], { dryRun });
    if (!result.ok) {
      if (result.reason === 'full' && wanted === undefined) throw errors.internal(`failed to allocate a serviceIP: ${result.message}`);
      throw invalidService(svc, [fieldErr.invalid(SPEC.child('clusterIPs'), spec.clusterIPs, `failed to allocate IP ${wanted ?? ''}: ${result.message}`)]);
    }
    txn.took(pool, result.values);
    ips[i] = result.values[0] as string;
    if (i === 0) spec.clusterIP = ips[0];
  }
}

function allFamilyIndexes(svc: Service): number[] {
  if (svc.spec.type === 'ExternalName' || svc.spec.clusterIPs?.[0] === CLUSTER_IP_NONE) return [];
  return (svc.spec.ipFamilies ?? []).map((_, i) => i);
}

/** Where each node port request goes: a port entry, ports sharing its number, or the health check. */
interface PortPlan {
  requests: (number | undefined)[];
  /** For each request, the port entries it fills, or 'hc' for healthCheckNodePort. */
  targets: (number[] | 'hc')[];
}

function failNodePorts(svc: Service, plan: PortPlan, index: number, reason: string, message: string): never {
  const target = plan.targets[index];
  const wanted = plan.requests[index];
  if (target === 'hc') {
    if (wanted === undefined) throw errors.internal(`failed to allocate a HealthCheck NodePort: ${message}`);
    // Kubernetes answers this with a 500; a requested port that is taken is the client's to fix.
    throw invalidService(svc, [fieldErr.invalid(SPEC.child('healthCheckNodePort'), wanted, `failed to allocate requested HealthCheck NodePort ${wanted}: ${message}`)]);
  }
  if (wanted === undefined || reason === 'full') throw errors.internal(`failed to allocate a nodePort: ${message}`);
  const first = (target as number[])[0] as number;
  throw invalidService(svc, [fieldErr.invalid(SPEC.child('ports').index(first).child('nodePort'), wanted, message)]);
}

async function runPortPlan(al: ServiceAllocators, svc: Service, plan: PortPlan, txn: ServiceTransaction, dryRun: boolean): Promise<void> {
  if (plan.requests.length === 0) return;
  const result = await al.nodePorts.allocate(plan.requests, { dryRun });
  if (!result.ok) failNodePorts(svc, plan, result.index, result.reason, result.message);
  txn.took(al.nodePorts, result.values);
  const ports = svc.spec.ports ?? [];
  result.values.forEach((value, i) => {
    const target = plan.targets[i];
    if (target === 'hc') svc.spec.healthCheckNodePort = value;
    else for (const p of target as number[]) (ports[p] as { nodePort?: number }).nodePort = value;
  });
}

/**
 * Node ports of a new Service: ports with the same number (TCP and UDP of one port) share one node
 * port unless they ask for different ones; requested values are honoured even where none would be
 * allocated (a LoadBalancer without node port allocation).
 */
function createPortPlan(svc: Service): PortPlan {
  const plan: PortPlan = { requests: [], targets: [] };
  const ports = svc.spec.ports ?? [];
  if (needsNodePort(svc)) {
    const byPort = new Map<number, number>();
    ports.forEach((sp, i) => {
      const own = sp.nodePort ?? 0;
      if (own === 0 && !shouldAllocateNodePorts(svc)) return;
      const shared = byPort.get(sp.port);
      if (shared === undefined) {
        const requested = ports.find((q) => q.port === sp.port && (q.nodePort ?? 0) !== 0)?.nodePort;
        byPort.set(sp.port, plan.requests.length);
        plan.requests.push(requested);
        plan.targets.push([i]);
        return;
      }
      const sharedValue = plan.requests[shared];
      if (own === 0) (plan.targets[shared] as number[]).push(i);
      else if (own !== sharedValue) {
        plan.requests.push(own);
        plan.targets.push([i]);
      }
    });
  }
  if (needsHealthCheck(svc)) {
    plan.requests.push(svc.spec.healthCheckNodePort || undefined);
    plan.targets.push('hc');
  }
  return plan;
}

/** Allocation for a Service about to be created. Mutates it (families, IPs, node ports). */
export async function beginServiceCreate(al: ServiceAllocators | undefined, svc: Service, dryRun: boolean): Promise<WriteTransaction> {
  const pools = allocators(al);
  // An old client sends only clusterIP; the list follows it.
  if (svc.spec.clusterIP && (svc.spec.clusterIPs ?? []).length === 0) svc.spec.clusterIPs = [svc.spec.clusterIP];
  initIPFamilyFields(pools, svc, undefined);
  const txn = new ServiceTransaction(dryRun);
  try {
    await allocateClusterIPs(pools, svc, allFamilyIndexes(svc), txn, dryRun);
    await runPortPlan(pools, svc, createPortPlan(svc), txn, dryRun);
  } catch (e) {
    await txn.finish(false);
    throw e;
  }
  return txn;
}

/** Cluster IP changes of an update: to or from ExternalName, or a secondary family added or dropped. */
async function updateClusterIPs(al: ServiceAllocators, svc: Service, old: Service, txn: ServiceTransaction, dryRun: boolean): Promise<void> {
  if (isMatchingPreferDualStack(svc, old)) return;
  if (old.spec.type === 'ExternalName' && svc.spec.type !== 'ExternalName') {
    await allocateClusterIPs(al, svc, allFamilyIndexes(svc), txn, dryRun);
    return;
  }
  if (old.spec.clusterIPs?.[0] === CLUSTER_IP_NONE) return;
  const oldIPs = old.spec.clusterIPs ?? [];
  const oldFamilies = old.spec.ipFamilies ?? [];
  if (old.spec.type !== 'ExternalName' && svc.spec.type === 'ExternalName') {
    oldIPs.forEach((ip, i) => txn.releaseOnCommit(poolOf(al, oldFamilies[i] ?? familyOfIP(ip)), [ip]));
    return;
  }
  const families = svc.spec.ipFamilies ?? [];
  if (oldFamilies.length === 1 && families.length === 2) await allocateClusterIPs(al, svc, [1], txn, dryRun);
  if (oldFamilies.length === 2 && families.length === 1 && oldIPs[1]) txn.releaseOnCommit(poolOf(al, oldFamilies[1]), [oldIPs[1]]);
}

/** Node port changes of an update; what the old object held and the new one does not is released after the write. */
function updatePortPlan(svc: Service, old: Service, txn: ServiceTransaction, al: ServiceAllocators): PortPlan {
  const plan: PortPlan = { requests: [], targets: [] };
  const oldPorts = servicePortNodePorts(old);
  if (needsNodePort(old) && (svc.spec.type === 'ExternalName' || svc.spec.type === 'ClusterIP')) txn.releaseOnCommit(al.nodePorts, oldPorts);
  if (needsNodePort(svc)) {
    const asked = new Set<number>();
    (svc.spec.ports ?? []).forEach((sp, i) => {
      const own = sp.nodePort ?? 0;
      if (own === 0 && !shouldAllocateNodePorts(svc)) return;
      if (own !== 0) {
        if (oldPorts.includes(own) || asked.has(own)) return;
        asked.add(own);
        plan.requests.push(own);
      } else {
        plan.requests.push(undefined);
      }
      plan.targets.push([i]);
    });
  }
  if (!needsHealthCheck(old) && needsHealthCheck(svc)) {
    plan.requests.push(svc.spec.healthCheckNodePort || undefined);
    plan.targets.push('hc');
  } else if (needsHealthCheck(old) && !needsHealthCheck(svc) && old.spec.healthCheckNodePort) {
    txn.releaseOnCommit(al.nodePorts, [old.spec.healthCheckNodePort]);
  }
  return plan;
}

/** Allocation for an update of a stored Service. Mutates `svc`, never `old`. */
export async function beginServiceUpdate(al: ServiceAllocators | undefined, svc: Service, old: Service, dryRun: boolean): Promise<WriteTransaction> {
  const pools = allocators(al);
  initIPFamilyFields(pools, svc, old);
  const txn = new ServiceTransaction(dryRun);
  try {
    await updateClusterIPs(pools, svc, old, txn, dryRun);
    await runPortPlan(pools, svc, updatePortPlan(svc, old, txn, pools), txn, dryRun);
    if (needsNodePort(svc)) {
      const kept = new Set(servicePortNodePorts(svc));
      txn.releaseOnCommit(
        pools.nodePorts,
        servicePortNodePorts(old).filter((p) => !kept.has(p)),
      );
    }
  } catch (e) {
    await txn.finish(false);
    throw e;
  }
  return txn;
}

/** Gives back everything a deleted Service held. Never throws: the delete has happened. */
export async function releaseServiceAllocations(al: ServiceAllocators | undefined, svc: Service): Promise<void> {
  if (!al) return;
  const spec = svc.spec;
  const releases: Promise<void>[] = [];
  if (spec.type !== 'ExternalName' && spec.clusterIPs?.[0] !== CLUSTER_IP_NONE) {
    for (const ip of spec.clusterIPs ?? []) {
      const pool = poolOf(al, familyOfIP(ip));
      if (pool) releases.push(pool.release([ip]));
    }
  }
  const ports = servicePortNodePorts(svc);
  if (needsHealthCheck(svc) && spec.healthCheckNodePort) ports.push(spec.healthCheckNodePort);
  releases.push(al.nodePorts.release(ports));
  await Promise.allSettled(releases);
}
