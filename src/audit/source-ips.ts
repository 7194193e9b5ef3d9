/**
 * The request's source addresses as Kubernetes lists them in audit events: every valid address of
 * X-Forwarded-For, then X-Real-Ip unless already listed, then the connection's own address unless
 * it is the last one listed (it cannot be spoofed, so it is always there).
 */
import { isIP } from 'node:net';

function clean(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const a = address.trim();
  // A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d; Go reports a.b.c.d.
  const plain = a.toLowerCase().startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a;
  return isIP(plain) ? plain : undefined;
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export function sourceIPs(headers: Readonly<Record<string, string | string[] | undefined>>, remoteAddress: string | undefined): string[] {
  const out: string[] = [];
  for (const part of (header(headers['x-forwarded-for']) ?? '').split(',')) {
    const ip = clean(part);
    if (ip) out.push(ip);
  }
  const real = clean(header(headers['x-real-ip']));
  if (real && !out.includes(real)) out.push(real);
  const remote = clean(remoteAddress);
  if (remote && out.at(-1) !== remote) out.push(remote);
  return out;
}
