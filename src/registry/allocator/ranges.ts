/**
 * The ranges allocators hand out from: a service CIDR (IPs of one family) or a node port range.
 * A range maps values to offsets of a bitmap, and knows Kubernetes' texts for its refusals.
 */
import { cidrContains, formatCIDR, formatIP, parseCIDR, parseIP, type IPFamily, type ParsedCIDR } from '../../machinery/ip.js';

export interface RangeSpec<T> {
  /** The range as printed in messages: `10.0.0.0/24`, `30000-32767`. */
  readonly text: string;
  /** Number of values in the range (bitmap length in bits). */
  readonly size: number;
  /**
   * Offsets below this are left to explicit requests while others remain: dynamic allocation takes
   * from above first (Kubernetes' static subrange), so manual choices rarely collide.
   */
  readonly staticBand: number;
  /** The offset of a value, or undefined when the value is not in the range. */
  offsetOf(value: T): number | undefined;
  valueAt(offset: number): T;
  notInRangeMessage(value: T): string;
  readonly allocatedMessage: string;
}

/** Kubernetes' min(max(min, size/step), max) rule for the static band. */
function staticBand(size: number, min: number, step: number, max: number): number {
  if (size <= min) return 0;
  return Math.min(Math.max(min, Math.floor(size / step)), max);
}

/** More addresses than this would make the bitmap unwieldy; Kubernetes caps IPv6 ranges the same way. */
const MAX_IPV6_ADDRESSES = 65536;
/** Host bits beyond this are refused: Kubernetes' limit of a /12 for IPv4 (and /108 for IPv6). */
export const MAX_HOST_BITS = 20;

export interface IPRange extends RangeSpec<string> {
  readonly family: IPFamily;
  readonly cidr: ParsedCIDR;
}

/**
 * The addresses of a service CIDR: its network address is never handed out, nor, for IPv4, its
 * broadcast address.
 */
export function ipRange(cidr: ParsedCIDR): IPRange {
  const total = 2 ** (cidr.bits - cidr.prefix);
  let size = cidr.family === 'IPv4' ? total - 2 : Math.min(total - 1, MAX_IPV6_ADDRESSES - 1);
  size = Math.max(size, 0);
  const base = cidr.network + 1n;
  const text = formatCIDR(cidr);
  return {
    family: cidr.family,
    cidr,
    text,
    size,
    staticBand: staticBand(total, 16, 16, 256),
    offsetOf(value) {
      const ip = parseIP(value);
      if (!ip || !cidrContains(cidr, ip)) return undefined;
      const off = ip.value - base;
      return off >= 0n && off < BigInt(size) ? Number(off) : undefined;
    },
    valueAt: (offset) => formatIP({ family: cidr.family, value: base + BigInt(offset) }),
    notInRangeMessage: (value) => `the provided IP (${value}) is not in the valid range. The range of valid IPs is ${text}`,
    allocatedMessage: 'provided IP is already allocated',
  };
}

export function portRange(first: number, last: number): RangeSpec<number> {
  const size = last - first + 1;
  const text = `${first}-${last}`;
  return {
    text,
    size,
    staticBand: staticBand(size, 16, 32, 128),
    offsetOf: (port) => (Number.isInteger(port) && port >= first && port <= last ? port - first : undefined),
    valueAt: (offset) => first + offset,
    notInRangeMessage: () => `provided port is not in the valid range. The range of valid ports is ${text}`,
    allocatedMessage: 'provided port is already allocated',
  };
}

/**
 * `--service-cluster-ip-range`: one CIDR, or two of different families (dual stack). Throws an
 * Error naming the flag when the text is not acceptable.
 */
export function parseServiceClusterIPRanges(text: string): IPRange[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length > 2) throw new Error('--service-cluster-ip-range must not contain more than two entries');
  const ranges = parts.map((p, i) => {
    const cidr = parseCIDR(p);
    if (!cidr) throw new Error(`--service-cluster-ip-range[${i}]: ${JSON.stringify(p)} is not a valid CIDR (e.g. 10.0.0.0/24 or fd00::/108)`);
    if (cidr.bits - cidr.prefix > MAX_HOST_BITS) {
      throw new Error(`--service-cluster-ip-range[${i}]: ${p} is too large; the mask must be >= ${cidr.bits - MAX_HOST_BITS} for ${cidr.bits}-bit addresses`);
    }
    const range = ipRange(cidr);
    if (range.size < 1) throw new Error(`--service-cluster-ip-range[${i}]: ${p} is too small to hold any service IP`);
    return range;
  });
  if (ranges.length === 2 && ranges[0]?.family === ranges[1]?.family) {
    throw new Error('--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP families');
  }
  return ranges;
}

/** `--service-node-port-range`: `first-last`, `first+count` or a single port. */
export function parseNodePortRange(text: string): RangeSpec<number> {
  const m = /^(\d{1,5})(?:([-+])(\d{1,5}))?$/.exec(text.trim());
  const bad = (): never => {
    throw new Error(`--service-node-port-range: ${JSON.stringify(text)} is not a port range like 30000-32767`);
  };
  if (!m) return bad();
  const first = Number(m[1]);
  const last = m[2] === '-' ? Number(m[3]) : m[2] === '+' ? first + Number(m[3]) : first;
  if (first < 1 || last > 65535 || last < first) return bad();
  return portRange(first, last);
}
