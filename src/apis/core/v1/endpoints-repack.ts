/**
 * Endpoints are stored repacked, as Kubernetes canonicalizes them: every address is grouped with
 * exactly the ports it serves, so each subset is "these addresses × these ports", an address in
 * one subset only once, and ready beating not-ready for the same port. Addresses are sorted by IP
 * and target UID as in Kubernetes; ports and subsets in a fixed order of our own (Kubernetes
 * orders them by a hash of their Go representation, which has no meaning to a client).
 */
import type { EndpointAddress, EndpointPort, EndpointSubset } from './endpoints.js';

/** A subset without ports still keeps its addresses: they stand under this sentinel. */
const NO_PORT = '\u0000no-port';

const addressKey = (a: EndpointAddress): string => JSON.stringify([a.ip, a.targetRef?.uid ?? '']);
const portKey = (p: EndpointPort): string => JSON.stringify([p.name ?? '', p.port, p.protocol ?? '', p.appProtocol ?? null]);

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  return compareStrings(a.ip, b.ip) || compareStrings(a.targetRef?.uid ?? '', b.targetRef?.uid ?? '');
}

function comparePorts(a: EndpointPort, b: EndpointPort): number {
  return compareStrings(a.name ?? '', b.name ?? '') || a.port - b.port || compareStrings(a.protocol ?? '', b.protocol ?? '');
}

/** The subsets regrouped. Pure: returns new subsets and never changes its input. */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const addresses = new Map<string, EndpointAddress>();
  const ports = new Map<string, EndpointPort | undefined>();
  // port key → address key → ready
  const readiness = new Map<string, Map<string, boolean>>();
  const note = (port: EndpointPort | undefined, addr: EndpointAddress, ready: boolean): void => {
    const ak = addressKey(addr);
    if (!addresses.has(ak)) addresses.set(ak, structuredClone(addr));
    const pk = port ? portKey(port) : NO_PORT;
    if (!ports.has(pk)) ports.set(pk, port ? structuredClone(port) : undefined);
    const byAddress = readiness.get(pk) ?? new Map<string, boolean>();
    readiness.set(pk, byAddress);
    if (!byAddress.get(ak)) byAddress.set(ak, ready);
  };
  for (const ss of subsets) {
    const portsOfSubset: (EndpointPort | undefined)[] = ss.ports?.length ? ss.ports : [undefined];
    for (const port of portsOfSubset) {
      for (const a of ss.addresses ?? []) note(port, a, true);
      for (const a of ss.notReadyAddresses ?? []) note(port, a, false);
    }
  }
  // Ports that serve the same addresses (with the same readiness) share a subset.
  const groups = new Map<string, { readiness: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const [pk, byAddress] of readiness) {
    const key = JSON.stringify([...byAddress].sort(([a], [b]) => compareStrings(a, b)));
    const group = groups.get(key) ?? { readiness: byAddress, ports: [] };
    groups.set(key, group);
    const port = ports.get(pk);
    if (port) group.ports.push(port);
  }
  const out: EndpointSubset[] = [];
  for (const group of groups.values()) {
    const ready: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [ak, isReady] of group.readiness) (isReady ? ready : notReady).push(addresses.get(ak) as EndpointAddress);
    const subset: EndpointSubset = {};
    if (ready.length) subset.addresses = ready.sort(compareAddresses);
    if (notReady.length) subset.notReadyAddresses = notReady.sort(compareAddresses);
    if (group.ports.length) subset.ports = group.ports.sort(comparePorts);
    out.push(subset);
  }
  return out.sort((a, b) => compareStrings(JSON.stringify(a), JSON.stringify(b)));
}
