/**
 * IP addresses and CIDRs as Kubernetes reads them (Go's net package): dotted IPv4 without leading
 * zeros, IPv6 with `::` compression and an optional dotted tail. An IPv4-mapped IPv6 address
 * (`::ffff:10.0.0.1`) counts as IPv4, as Go's `To4()` makes it. Pure functions, no I/O.
 */
export type IPFamily = 'IPv4' | 'IPv6';

export interface ParsedIP {
  readonly family: IPFamily;
  /** The address as an unsigned integer (32 bits for IPv4, 128 for IPv6). */
  readonly value: bigint;
}

export interface ParsedCIDR {
  readonly family: IPFamily;
  /** The network address (host bits cleared). */
  readonly network: bigint;
  readonly prefix: number;
  /** Number of address bits of the family (32 or 128). */
  readonly bits: number;
}

const V4_OCTET = /^(0|[1-9][0-9]{0,2})$/;
const V6_GROUP = /^[0-9a-fA-F]{1,4}$/;

function parseV4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const p of parts) {
    if (!V4_OCTET.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseV6(text: string): bigint | undefined {
  if (text.length === 0) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (s: string): string[] | undefined => (s === '' ? [] : s.split(':'));
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  if (!head || !tail) return undefined;
  const words: number[] = [];
  const pushGroups = (groups: string[], isLast: boolean): boolean => {
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i] as string;
      if (isLast && i === groups.length - 1 && g.includes('.')) {
        const v4 = parseV4(g);
        if (v4 === undefined) return false;
        words.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
        continue;
      }
      if (!V6_GROUP.test(g)) return false;
      words.push(parseInt(g, 16));
    }
    return true;
  };
  const compressed = halves.length === 2;
  if (!pushGroups(head, !compressed)) return undefined;
  const headWords = words.length;
  if (!pushGroups(tail, true)) return undefined;
  const tailWords = words.length - headWords;
  if (compressed) {
    if (headWords + tailWords > 7) return undefined;
    words.splice(headWords, 0, ...new Array<number>(8 - headWords - tailWords).fill(0));
  }
  if (words.length !== 8) return undefined;
  return words.reduce((acc, w) => (acc << 16n) | BigInt(w), 0n);
}

/** Parses an IP address; undefined when it is not one. */
export function parseIP(text: string): ParsedIP | undefined {
  if (text.includes(':')) {
    const v = parseV6(text);
    if (v === undefined) return undefined;
    if (v >> 32n === 0xffffn) return { family: 'IPv4', value: v & 0xffffffffn };
    return { family: 'IPv6', value: v };
  }
  const v = parseV4(text);
  return v === undefined ? undefined : { family: 'IPv4', value: v };
}

export function familyOfIP(text: string): IPFamily | undefined {
  return parseIP(text)?.family;
}

/** The canonical text of an address (Go's `net.IP.String()`: RFC 5952 for IPv6). */
export function formatIP(ip: ParsedIP): string {
  if (ip.family === 'IPv4') {
    return [24n, 16n, 8n, 0n].map((s) => String((ip.value >> s) & 0xffn)).join('.');
  }
  const words = Array.from({ length: 8 }, (_, i) => Number((ip.value >> BigInt(112 - 16 * i)) & 0xffffn));
  // The longest run of two or more zero groups is written as '::' (the first one on a tie).
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (ws: number[]): string => ws.map((w) => w.toString(16)).join(':');
  if (bestStart < 0) return hex(words);
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLen))}`;
}

/** Parses `address/prefix`; the address may have host bits set (they are cleared), as Go's ParseCIDR. */
export function parseCIDR(text: string): ParsedCIDR | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const addr = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  if (!/^(0|[1-9][0-9]{0,2})$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  // A CIDR keeps the family it is written in: `::ffff:10.0.0.0/104` is an IPv6 range.
  const isV6 = addr.includes(':');
  const value = isV6 ? parseV6(addr) : parseV4(addr);
  if (value === undefined) return undefined;
  const bits = isV6 ? 128 : 32;
  if (prefix > bits) return undefined;
  const hostMask = (1n << BigInt(bits - prefix)) - 1n;
  return { family: isV6 ? 'IPv6' : 'IPv4', network: value & ~hostMask, prefix, bits };
}

export function formatCIDR(c: ParsedCIDR): string {
  return `${formatIP({ family: c.family, value: c.network })}/${c.prefix}`;
}

export function cidrContains(c: ParsedCIDR, ip: ParsedIP): boolean {
  if (c.family !== ip.family) return false;
  const hostBits = BigInt(c.bits - c.prefix);
  return ip.value >> hostBits === c.network >> hostBits;
}

/**
 * Why an address may not serve as an external or endpoint IP, in Kubernetes' words: unspecified,
 * loopback and link-local addresses are node-centric or meaningless there.
 */
export function specialIPProblems(text: string): string[] {
  const ip = parseIP(text);
  if (!ip) return ['must be a valid IP address'];
  const v = ip.value;
  const out: string[] = [];
  if (ip.family === 'IPv4') {
    if (v === 0n) out.push(`may not be unspecified (${text})`);
    if (v >> 24n === 127n) out.push('may not be in the loopback range (127.0.0.0/8, ::1/128)');
    if (v >> 16n === 0xa9fen) out.push('may not be in the link-local range (169.254.0.0/16, fe80::/10)');
    if (v >> 8n === 0xe00000n) out.push('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)');
    return out;
  }
  if (v === 0n) out.push(`may not be unspecified (${text})`);
  if (v === 1n) out.push('may not be in the loopback range (127.0.0.0/8, ::1/128)');
  if (v >> 118n === 0x3fan) out.push('may not be in the link-local range (169.254.0.0/16, fe80::/10)');
  if (v >> 120n === 0xffn && ((v >> 112n) & 0x0fn) === 0x2n) out.push('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)');
  return out;
}
