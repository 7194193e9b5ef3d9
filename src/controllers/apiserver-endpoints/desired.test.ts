import { describe, expect, it } from 'vitest';
import { endpointGroups, endpointSlices, endpointSubsets, masterLeaseName, type MasterLease } from './desired.js';

const now = 1_000_000;
const lease = (ip: string, port: number, renewedAt = now): MasterLease => ({ name: ip, ip, port, renewedAt, durationMs: 15_000 });

describe('the kubernetes endpoints from master leases', () => {
  it('keep the live addresses, sorted and grouped by port', () => {
    const groups = endpointGroups([lease('10.0.0.9', 6443), lease('10.0.0.2', 6443), lease('10.0.0.3', 6443, now - 20_000), lease('fd00::1', 7443)], now);
    expect(groups).toEqual([
      { port: 6443, ips: ['10.0.0.2', '10.0.0.9'] },
      { port: 7443, ips: ['fd00::1'] },
    ]);
    expect(endpointSubsets(groups)[0]).toEqual({ addresses: [{ ip: '10.0.0.2' }, { ip: '10.0.0.9' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] });
    expect(endpointSlices(groups).map((s) => [s.name, s.addressType])).toEqual([
      ['kubernetes', 'IPv4'],
      ['kubernetes-7443', 'IPv6'],
    ]);
  });

  it('name a lease by address and port', () => {
    expect(masterLeaseName('orch', '10.1.2.3', 6443)).toBe('orch-apiserver-10-1-2-3-6443');
    expect(masterLeaseName('kube', 'fd00::1', 6443)).toBe('kube-apiserver-fd00--1-6443');
  });
});
