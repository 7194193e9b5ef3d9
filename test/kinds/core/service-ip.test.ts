/**
 * Service cluster IPs and IP families: allocation from --service-cluster-ip-range, manual addresses,
 * headless services, immutability, type changes to and from ExternalName, and dual stack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { created, invalidCauses, svc, SVC } from './service-helpers.js';

const MERGE = 'application/merge-patch+json';

describe('Service cluster IPs on a single-stack cluster', () => {
  let s: TestServer;
  beforeAll(async () => {
    // Addresses asked for by name below are all in 10.96.0.1-16, the band dynamic allocation leaves
    // alone while others remain, so they never collide with an earlier automatic one.
    s = await startTestServer({ serviceClusterIPRange: '10.96.0.0/24' });
  });
  afterAll(() => s.close());

  it('allocates from the configured range and keeps clusterIP and clusterIPs in step', async () => {
    const out = await created(s, svc('auto'));
    expect(out.spec.clusterIP).toMatch(/^10\.96\.0\.\d+$/);
    expect(out.spec.clusterIPs).toEqual([out.spec.clusterIP]);
    expect(out.spec).toMatchObject({ ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
  });

  it('takes a requested address in range and unused', async () => {
    const out = await created(s, svc('manual', { clusterIP: '10.96.0.5' }));
    expect(out.spec).toMatchObject({ clusterIP: '10.96.0.5', clusterIPs: ['10.96.0.5'] });
    const plural = await created(s, svc('manual-plural', { clusterIP: '10.96.0.6', clusterIPs: ['10.96.0.6'] }));
    expect(plural.spec.clusterIPs).toEqual(['10.96.0.6']);
  });

  it('refuses an address in use or out of range, in Kubernetes words', async () => {
    await created(s, svc('taken', { clusterIP: '10.96.0.7' }));
    const r = await s.post(SVC, svc('taken-again', { clusterIP: '10.96.0.7' }));
    expect(invalidCauses(r)).toEqual(['spec.clusterIPs: Invalid value: ["10.96.0.7"]: failed to allocate IP 10.96.0.7: provided IP is already allocated']);
    expect(r.body.message).toBe('Service "taken-again" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.7"]: failed to allocate IP 10.96.0.7: provided IP is already allocated');
    expect(invalidCauses(await s.post(SVC, svc('outside', { clusterIP: '10.97.0.7' })))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.97.0.7"]: failed to allocate IP 10.97.0.7: the provided IP (10.97.0.7) is not in the valid range. The range of valid IPs is 10.96.0.0/24',
    ]);
    // The network and broadcast addresses are never handed out.
    expect(invalidCauses(await s.post(SVC, svc('network', { clusterIP: '10.96.0.0' })))[0]).toContain('is not in the valid range');
    expect(invalidCauses(await s.post(SVC, svc('broadcast', { clusterIP: '10.96.0.255' })))[0]).toContain('is not in the valid range');
  });

  it('refuses malformed addresses before allocating', async () => {
    expect(invalidCauses(await s.post(SVC, svc('malformed', { clusterIP: '10.96.0.300' })))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "10.96.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    expect(invalidCauses(await s.post(SVC, svc('mismatch', { clusterIP: '10.96.0.8', clusterIPs: ['10.96.0.9'] })))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.96.0.9"]: first value must match `clusterIP`',
    ]);
    expect(invalidCauses(await s.post(SVC, svc('plural-only', { clusterIPs: ['10.96.0.9'] })))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.96.0.9"]: must be empty when `clusterIP` is not specified',
    ]);
    expect(invalidCauses(await s.post(SVC, svc('three', { clusterIP: '10.96.0.8', clusterIPs: ['10.96.0.8', 'fd00::8', '10.96.0.9'], ipFamilyPolicy: 'PreferDualStack' })))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.96.0.8","fd00::8","10.96.0.9"]: may only hold up to 2 values',
      'spec.clusterIPs: Invalid value: ["10.96.0.8","fd00::8","10.96.0.9"]: may specify no more than one IP for each IP family',
    ]);
    expect(invalidCauses(await s.post(SVC, svc('fam-bad', { ipFamilies: ['IPv5'] })))).toEqual(['spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"']);
    expect(invalidCauses(await s.post(SVC, svc('pol-bad', { ipFamilyPolicy: 'Maybe' })))).toEqual([
      'spec.ipFamilyPolicy: Unsupported value: "Maybe": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
    ]);
    expect(invalidCauses(await s.post(SVC, svc('fam-ip', { clusterIP: '10.96.0.10', ipFamilies: ['IPv6'] })))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "10.96.0.10": expected an IPv6 value as indicated by `ipFamilies[0]`',
    ]);
  });

  it('refuses families the cluster does not have, and dual stack it cannot give', async () => {
    expect(invalidCauses(await s.post(SVC, svc('v6', { ipFamilies: ['IPv6'] })))).toEqual(['spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster']);
    expect(invalidCauses(await s.post(SVC, svc('v6-ip', { clusterIP: 'fd00::1' })))).toEqual(['spec.clusterIPs[0]: Invalid value: ["fd00::1"]: IPv6 is not configured on this cluster']);
    expect(invalidCauses(await s.post(SVC, svc('require', { ipFamilyPolicy: 'RequireDualStack' })))).toEqual([
      'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    ]);
    expect(invalidCauses(await s.post(SVC, svc('two-single', { ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'SingleStack' })))).toEqual([
      "spec.ipFamilyPolicy: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
    ]);
    expect(invalidCauses(await s.post(SVC, svc('dup-fam', { ipFamilies: ['IPv4', 'IPv4'], ipFamilyPolicy: 'PreferDualStack' })))).toEqual([
      'spec.ipFamilies[1]: Duplicate value: "IPv4"',
    ]);
    // PreferDualStack on a single-stack cluster gets one family.
    const prefer = await created(s, svc('prefer', { ipFamilyPolicy: 'PreferDualStack' }));
    expect(prefer.spec).toMatchObject({ ipFamilies: ['IPv4'], ipFamilyPolicy: 'PreferDualStack' });
    expect(prefer.spec.clusterIPs).toHaveLength(1);
  });

  it('makes headless services without allocating: single stack with a selector, both families without', async () => {
    const withSel = await created(s, svc('headless', { clusterIP: 'None' }));
    expect(withSel.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
    const bare = await created(s, { metadata: { name: 'headless-bare' }, spec: { clusterIP: 'None', ports: [{ port: 80 }] } });
    expect(bare.spec).toMatchObject({ clusterIPs: ['None'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' });
    expect(invalidCauses(await s.post(SVC, svc('headless-np', { clusterIP: 'None', type: 'NodePort' })))).toEqual([
      "spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort services",
    ]);
    expect(invalidCauses(await s.post(SVC, svc('none-second', { clusterIP: 'None', clusterIPs: ['None', '10.96.0.14'] })))).toEqual([
      'spec.clusterIPs: Invalid value: ["None","10.96.0.14"]: \'None\' must be the first and only value',
    ]);
  });

  it('keeps the cluster IP: it cannot change, and a manifest without it keeps the allocated one', async () => {
    const out = await created(s, svc('immutable'));
    const moved = await s.put(`${SVC}/immutable`, { ...out, spec: { ...out.spec, clusterIP: '10.96.0.11', clusterIPs: ['10.96.0.11'] } });
    expect(invalidCauses(moved)).toEqual(['spec.clusterIPs[0]: Invalid value: ["10.96.0.11"]: may not change once set']);
    const singular = await s.put(`${SVC}/immutable`, { ...out, spec: { ...out.spec, clusterIP: '10.96.0.11' } });
    expect(invalidCauses(singular)).toEqual(['spec.clusterIPs[0]: Invalid value: ["10.96.0.11"]: may not change once set']);
    // Sending the original manifest again (no clusterIP) keeps what was allocated.
    const again = await s.put(`${SVC}/immutable`, svc('immutable', { selector: { app: 'other' } }));
    expect(again.status, again.text).toBe(200);
    expect(again.body.spec).toMatchObject({ clusterIP: out.spec.clusterIP, clusterIPs: out.spec.clusterIPs, selector: { app: 'other' } });
  });

  it('switching to ExternalName clears cluster IPs, families and policy and frees the address; back again allocates', async () => {
    await created(s, svc('switch', { clusterIP: '10.96.0.12' }));
    const ext = await s.patch(`${SVC}/switch`, { spec: { type: 'ExternalName', externalName: 'db.example.com' } }, MERGE);
    expect(ext.status, ext.text).toBe(200);
    expect(ext.body.spec.clusterIP).toBeUndefined();
    expect(ext.body.spec.clusterIPs).toBeUndefined();
    expect(ext.body.spec.ipFamilies).toBeUndefined();
    expect(ext.body.spec.ipFamilyPolicy).toBeUndefined();
    // The address went back to the pool.
    await created(s, svc('reuses-switch', { clusterIP: '10.96.0.12' }));
    const back = await s.patch(`${SVC}/switch`, { spec: { type: 'ClusterIP', externalName: null } }, MERGE);
    expect(back.status, back.text).toBe(200);
    expect(back.body.spec.clusterIP).toMatch(/^10\.96\.0\.\d+$/);
    expect(back.body.spec.clusterIP).not.toBe('10.96.0.12');
    expect(back.body.spec).toMatchObject({ ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
  });

  it('switching to ExternalName while changing the IP is refused', async () => {
    const out = await created(s, svc('switch-bad'));
    const r = await s.put(`${SVC}/switch-bad`, { ...out, spec: { ...out.spec, type: 'ExternalName', externalName: 'x.example.com', clusterIP: '10.96.0.13', clusterIPs: ['10.96.0.13'] } });
    expect(invalidCauses(r)).toContain('spec.clusterIPs: Forbidden: may not be set for ExternalName services');
  });
});

describe('Service cluster IPs on a dual-stack cluster', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ serviceClusterIPRange: '10.96.0.0/24,fd00:10::/112' });
  });
  afterAll(() => s.close());

  it('gives single stack by default, two addresses to PreferDualStack and RequireDualStack', async () => {
    const single = await created(s, svc('single'));
    expect(single.spec.ipFamilies).toEqual(['IPv4']);
    const prefer = await created(s, svc('prefer', { ipFamilyPolicy: 'PreferDualStack' }));
    expect(prefer.spec.ipFamilies).toEqual(['IPv4', 'IPv6']);
    expect(prefer.spec.clusterIPs[0]).toMatch(/^10\.96\.0\./);
    expect(prefer.spec.clusterIPs[1]).toMatch(/^fd00:10::/);
    const v6first = await created(s, svc('v6first', { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6'] }));
    expect(v6first.spec.ipFamilies).toEqual(['IPv6', 'IPv4']);
    expect(v6first.spec.clusterIP).toMatch(/^fd00:10::/);
    const manual = await created(s, svc('manual2', { ipFamilyPolicy: 'RequireDualStack', clusterIP: 'fd00:10::7', clusterIPs: ['fd00:10::7', '10.96.0.7'] }));
    expect(manual.spec).toMatchObject({ clusterIPs: ['fd00:10::7', '10.96.0.7'], ipFamilies: ['IPv6', 'IPv4'] });
    expect(invalidCauses(await s.post(SVC, svc('two-v4', { ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.96.0.8', clusterIPs: ['10.96.0.8', '10.96.0.9'] })))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.96.0.8","10.96.0.9"]: may specify no more than one IP for each IP family',
    ]);
  });

  it('adds and removes the secondary family, never changes the primary', async () => {
    const out = await created(s, svc('grow'));
    const up = await s.patch(`${SVC}/grow`, { spec: { ipFamilyPolicy: 'PreferDualStack' } }, MERGE);
    expect(up.status, up.text).toBe(200);
    expect(up.body.spec.ipFamilies).toEqual(['IPv4', 'IPv6']);
    expect(up.body.spec.clusterIPs[0]).toBe(out.spec.clusterIP);
    const secondary = up.body.spec.clusterIPs[1] as string;
    // Removing the secondary needs SingleStack.
    const noPolicy = await s.patch(`${SVC}/grow`, { spec: { clusterIPs: [out.spec.clusterIP], ipFamilies: ['IPv4'] } }, MERGE);
    expect(invalidCauses(noPolicy)).toEqual([
      "spec.ipFamilyPolicy: Invalid value: \"PreferDualStack\": must be 'SingleStack' to release the secondary cluster IP",
      "spec.ipFamilyPolicy: Invalid value: \"PreferDualStack\": must be 'SingleStack' to release the secondary IP family",
    ]);
    const down = await s.patch(`${SVC}/grow`, { spec: { ipFamilyPolicy: 'SingleStack' } }, MERGE);
    expect(down.status, down.text).toBe(200);
    expect(down.body.spec).toMatchObject({ clusterIPs: [out.spec.clusterIP], ipFamilies: ['IPv4'] });
    // The secondary address was released.
    await created(s, svc('takes-secondary', { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6'], clusterIP: secondary, clusterIPs: [secondary] }));
    const flip = await s.patch(`${SVC}/grow`, { spec: { ipFamilies: ['IPv6'], clusterIP: null, clusterIPs: null } }, MERGE);
    expect(flip.status).toBe(422);
    // The allocated address is kept (the manifest left it out), so the new primary family cannot match it.
    expect(invalidCauses(flip)).toEqual([`spec.clusterIPs[0]: Invalid value: "${out.spec.clusterIP}": expected an IPv6 value as indicated by \`ipFamilies[0]\``]);
    const swapped = await s.patch(`${SVC}/grow`, { spec: { ipFamilies: ['IPv6', 'IPv4'], ipFamilyPolicy: 'RequireDualStack', clusterIPs: null } }, MERGE);
    expect(invalidCauses(swapped)).toContain('spec.clusterIPs[0]: Invalid value: "' + out.spec.clusterIP + '": expected an IPv6 value as indicated by `ipFamilies[0]`');
  });

  it('refuses swapping the families of a dual-stack service', async () => {
    const out = await created(s, svc('swap', { ipFamilyPolicy: 'RequireDualStack' }));
    const [v4, v6] = out.spec.clusterIPs as string[];
    const r = await s.put(`${SVC}/swap`, { ...out, spec: { ...out.spec, clusterIP: v6, clusterIPs: [v6, v4], ipFamilies: ['IPv6', 'IPv4'] } });
    expect(invalidCauses(r)).toEqual([
      `spec.clusterIPs[0]: Invalid value: ["${v6}","${v4}"]: may not change once set`,
      `spec.clusterIPs[1]: Invalid value: ["${v6}","${v4}"]: may not change once set`,
      'spec.ipFamilies[0]: Invalid value: ["IPv6","IPv4"]: may not change once set',
    ]);
  });
});
