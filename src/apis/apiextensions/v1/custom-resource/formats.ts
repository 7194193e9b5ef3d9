/**
 * The string formats a custom resource's schema may name, checked as Kubernetes checks them; an
 * unknown format is not checked, as in Kubernetes.
 */
import { isIP } from 'node:net';

const CHECKS: Readonly<Record<string, (v: string) => boolean>> = {
  byte: (v) => /^[A-Za-z0-9+/]*={0,2}$/.test(v) && v.length % 4 === 0,
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v.replace(' ', 'T'))),
  uuid: (v) => /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/.test(v),
  hostname: (v) => v.length <= 253 && /^[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*$/.test(v),
  ipv4: (v) => isIP(v) === 4,
  ipv6: (v) => isIP(v) === 6,
  cidr: (v) => {
    const [ip, bits, ...rest] = v.split('/');
    if (rest.length || ip === undefined || bits === undefined || !/^\d+$/.test(bits)) return false;
    const family = isIP(ip);
    return family !== 0 && Number(bits) <= (family === 4 ? 32 : 128);
  },
  mac: (v) => /^([0-9A-Fa-f]{2}[:-]){5}([0-9A-Fa-f]{2})$/.test(v),
  email: (v) => /^[^@\s]+@[^@\s]+$/.test(v),
  uri: (v) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(v),
  duration: (v) => /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/.test(v),
};

/** Whether `v` has the format; true for formats not checked. */
export function checkFormat(format: string, v: string): boolean {
  const check = CHECKS[format];
  return check ? check(v) : true;
}
