/**
 * Where the server listens and how it names itself: loopback checks for plain HTTP, the URL clients
 * on this machine use, and the advertised address kube-apiserver would pick. Reads the host's
 * interfaces (no traffic).
 */
import { networkInterfaces } from 'node:os';
import { parseIP } from '../machinery/ip.js';
import { isUnspecified } from './serving-certificates.js';

/** 127.0.0.0/8, ::1 and IPv4-mapped 127.x: an address only this machine reaches. */
export function isLoopback(address: string): boolean {
  const ip = parseIP(address);
  if (!ip) return false;
  return ip.family === 'IPv4' ? ip.value >> 24n === 127n : ip.value === 1n;
}

/** The URL a client on this machine uses: a wildcard bind address is reached over loopback. */
export function localUrl(scheme: 'http' | 'https', address: string, family: string, port: number): string {
  const host = isUnspecified(address) ? (family === 'IPv6' ? '[::1]' : '127.0.0.1') : family === 'IPv6' ? `[${address}]` : address;
  return `${scheme}://${host}:${port}`;
}

/**
 * `--advertise-address` when given; else the bind address when it names one interface; else, as
 * kube-apiserver, an address of the host's own (the first non-internal IPv4, then IPv6).
 */
export function advertisedAddress(given: string | undefined, bindAddress: string): string | undefined {
  if (given !== undefined) return given;
  if (!isUnspecified(bindAddress)) return bindAddress;
  const all = Object.values(networkInterfaces()).flatMap((list) => list ?? []).filter((i) => !i.internal);
  return (all.find((i) => i.family === 'IPv4') ?? all.find((i) => i.family === 'IPv6' && !i.address.startsWith('fe80')))?.address;
}
