/**
 * What the `kubernetes` Service's endpoints should say, from the live master leases: every address
 * whose lease has not expired, sorted, grouped by port (all instances of a cluster normally share
 * one port, and then there is one subset and one EndpointSlice, as kube-apiserver writes them).
 * Pure.
 */

export interface MasterLease {
  name: string;
  ip: string;
  port: number;
  /** When it was last renewed (ms since the epoch) and for how long that holds. */
  renewedAt: number;
  durationMs: number;
}

export interface EndpointGroup {
  port: number;
  ips: string[];
}

export const isExpired = (lease: MasterLease, now: number): boolean => lease.renewedAt + lease.durationMs < now;

/** The live addresses by port, ports ascending, addresses sorted. */
export function endpointGroups(leases: readonly MasterLease[], now: number): EndpointGroup[] {
  const byPort = new Map<number, Set<string>>();
  for (const l of leases) {
    if (isExpired(l, now)) continue;
    const set = byPort.get(l.port) ?? new Set<string>();
    set.add(l.ip);
    byPort.set(l.port, set);
  }
  return [...byPort.entries()].sort(([a], [b]) => a - b).map(([port, ips]) => ({ port, ips: [...ips].sort() }));
}

/** The Endpoints subsets kube-apiserver writes: the port named `https`, TCP. */
export function endpointSubsets(groups: readonly EndpointGroup[]): unknown[] {
  return groups.map((g) => ({ addresses: g.ips.map((ip) => ({ ip })), ports: [{ name: 'https', port: g.port, protocol: 'TCP' }] }));
}

/** The EndpointSlices: `kubernetes` for the first port, `kubernetes-<port>` for any other; one per address family. */
export function endpointSlices(groups: readonly EndpointGroup[]): { name: string; addressType: 'IPv4' | 'IPv6'; ips: string[]; port: number }[] {
  const out: { name: string; addressType: 'IPv4' | 'IPv6'; ips: string[]; port: number }[] = [];
  groups.forEach((g, i) => {
    const base = i === 0 ? 'kubernetes' : `kubernetes-${g.port}`;
    const v4 = g.ips.filter((ip) => !ip.includes(':'));
    const v6 = g.ips.filter((ip) => ip.includes(':'));
    if (v4.length) out.push({ name: base, addressType: 'IPv4', ips: v4, port: g.port });
    if (v6.length) out.push({ name: v4.length ? `${base}-ipv6` : base, addressType: 'IPv6', ips: v6, port: g.port });
  });
  return out;
}

/** The master lease's name for an address and port: `<prefix>-apiserver-<ip>-<port>`, dots and colons as dashes. */
export function masterLeaseName(prefix: string, ip: string, port: number): string {
  return `${prefix}-apiserver-${ip.replace(/[.:]/g, '-').replace(/^-+|-+$/g, '')}-${port}`.toLowerCase();
}
