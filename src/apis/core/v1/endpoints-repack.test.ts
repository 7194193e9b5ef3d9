import { describe, expect, it } from 'vitest';
import { repackSubsets } from './endpoints-repack.js';

describe('repackSubsets', () => {
  it('groups addresses by the exact set of ports they serve', () => {
    const out = repackSubsets([
      { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ name: 'a', port: 80, protocol: 'TCP' }] },
      { addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'b', port: 81, protocol: 'TCP' }] },
    ]);
    expect(out).toEqual([
      { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ name: 'a', port: 80, protocol: 'TCP' }] },
      { addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'b', port: 81, protocol: 'TCP' }] },
    ]);
  });

  it('merges ports served by the same addresses into one subset', () => {
    const out = repackSubsets([
      { addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'b', port: 81, protocol: 'TCP' }] },
      { addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'a', port: 80, protocol: 'TCP' }] },
    ]);
    expect(out).toEqual([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'a', port: 80, protocol: 'TCP' }, { name: 'b', port: 81, protocol: 'TCP' }] }]);
  });

  it('ready wins over not ready for the same address and port; the same IP with another target stays apart', () => {
    const out = repackSubsets([
      { notReadyAddresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] },
      { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.1', targetRef: { kind: 'Pod', name: 'p', uid: 'u2' } }], ports: [{ port: 80, protocol: 'TCP' }] },
    ]);
    expect(out).toEqual([
      { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.1', targetRef: { kind: 'Pod', name: 'p', uid: 'u2' } }], ports: [{ port: 80, protocol: 'TCP' }] },
    ]);
  });

  it('keeps port-less subsets and does not change its input', () => {
    const input = [{ addresses: [{ ip: '10.0.0.2' }, { ip: '10.0.0.1' }] }];
    const copy = structuredClone(input);
    expect(repackSubsets(input)).toEqual([{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] }]);
    expect(input).toEqual(copy);
    expect(repackSubsets([])).toEqual([]);
  });
});
