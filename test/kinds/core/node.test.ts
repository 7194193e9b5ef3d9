import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, expectStatus, invalidCauses, MERGE, warningsOf } from './helpers.js';

const NODES = '/api/v1/nodes';

describe('Node', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const node = (name: string, spec: Record<string, unknown> = {}, status?: Record<string, unknown>) => ({
    metadata: { name },
    spec,
    ...(status ? { status } : {}),
  });

  it('is cluster-scoped, with short name no and a status subresource', async () => {
    const r = await s.get('/api/v1');
    const nodes = r.body.resources.find((x: any) => x.name === 'nodes');
    expect(nodes).toMatchObject({ namespaced: false, kind: 'Node', shortNames: ['no'] });
    expect(r.body.resources.find((x: any) => x.name === 'nodes/status')).toBeTruthy();
  });

  it('keeps the status a node is registered with, defaulting allocatable to capacity', async () => {
    const r = await s.post(NODES, node('registered', {}, { capacity: { cpu: '4', memory: '8Gi' }, addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] }));
    expect(r.status, r.text).toBe(201);
    expect(r.body.status.capacity).toEqual({ cpu: '4', memory: '8Gi' });
    expect(r.body.status.allocatable).toEqual({ cpu: '4', memory: '8Gi' });
    expect(r.body.status.addresses).toEqual([{ type: 'InternalIP', address: '10.0.0.1' }]);
    // Value structs print with their zero values, as Go does.
    expect(r.body.status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 0 } });
    expect(r.body.status.nodeInfo.kubeletVersion).toBe('');
  });

  it('drops the removed dynamic kubelet configuration on create', async () => {
    const r = await s.post(NODES, node('dynconf', { configSource: { configMap: { namespace: 'x', name: 'y', kubeletConfigKey: 'k' } } }, { config: { error: 'x' } }));
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.configSource).toBeUndefined();
    expect(r.body.status.config).toBeUndefined();
  });

  it('needs a DNS subdomain name', async () => {
    expectCauses(await s.post(NODES, node('Not_A_Name')), [{ field: 'metadata.name', reason: 'FieldValueInvalid' }]);
  });

  describe('taints', () => {
    it('checks key, value and effect, under metadata.taints as Kubernetes names them', async () => {
      const r = await s.post(NODES, node('tainted', {
        taints: [
          { key: 'bad key', effect: 'NoSchedule' },
          { key: 'ok', value: 'bad value!', effect: 'NoSchedule' },
          { key: 'noeffect' },
          { key: 'weird', effect: 'Sometimes' },
        ],
      }));
      const causes = invalidCauses(r);
      expect(causes.map((c) => [c.field, c.reason])).toEqual([
        ['metadata.taints[0].key', 'FieldValueInvalid'],
        ['metadata.taints[1].value', 'FieldValueInvalid'],
        ['metadata.taints[2].effect', 'FieldValueRequired'],
        ['metadata.taints[3].effect', 'FieldValueNotSupported'],
      ]);
      expect(causes[3]?.message).toBe('Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"');
    });

    it('refuses two taints with the same key and effect, not the same key with another effect', async () => {
      const dup = await s.post(NODES, node('dup-taints', { taints: [{ key: 'a', effect: 'NoSchedule' }, { key: 'a', value: 'x', effect: 'NoSchedule' }] }));
      const [cause] = invalidCauses(dup);
      expect(cause).toMatchObject({ field: 'metadata.taints[1]', reason: 'FieldValueDuplicate' });
      expect(cause?.message).toMatch(/taints must be unique by key and effect pair$/);
      const ok = await s.post(NODES, node('two-effects', { taints: [{ key: 'a', effect: 'NoSchedule' }, { key: 'a', effect: 'NoExecute' }] }));
      expect(ok.status, ok.text).toBe(201);
    });

    it('validates taints on update too', async () => {
      expect((await s.post(NODES, node('retaint'))).status).toBe(201);
      const r = await s.patch(`${NODES}/retaint`, { spec: { taints: [{ key: 'k', effect: 'Bad' }] } }, MERGE);
      expectCauses(r, [{ field: 'metadata.taints[0].effect', reason: 'FieldValueNotSupported' }]);
      const ok = await s.patch(`${NODES}/retaint`, { spec: { taints: [{ key: 'k', effect: 'NoExecute' }], unschedulable: true } }, MERGE);
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.spec.taints).toEqual([{ key: 'k', effect: 'NoExecute' }]);
    });
  });

  describe('pod CIDRs', () => {
    it('makes podCIDR the first of podCIDRs, and a lone podCIDR the list', async () => {
      const a = await s.post(NODES, node('cidr-list', { podCIDR: '10.9.9.0/24', podCIDRs: ['10.1.0.0/24', 'fd00::/64'] }));
      expect(a.status, a.text).toBe(201);
      expect(a.body.spec).toMatchObject({ podCIDR: '10.1.0.0/24', podCIDRs: ['10.1.0.0/24', 'fd00::/64'] });
      const b = await s.post(NODES, node('cidr-one', { podCIDR: '10.2.0.0/24' }));
      expect(b.body.spec).toMatchObject({ podCIDR: '10.2.0.0/24', podCIDRs: ['10.2.0.0/24'] });
    });

    it('needs valid CIDRs, at most one per IP family', async () => {
      expectCauses(await s.post(NODES, node('cidr-bad', { podCIDRs: ['10.0.0.0/33'] })), [
        { field: 'spec.podCIDRs[0]', reason: 'FieldValueInvalid', message: 'Invalid value: ["10.0.0.0/33"]: must be valid CIDR' },
      ]);
      expectCauses(await s.post(NODES, node('cidr-same-family', { podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] })), [
        { field: 'spec.podCIDRs', reason: 'FieldValueInvalid', message: 'Invalid value: ["10.0.0.0/24","10.1.0.0/24"]: may specify no more than one CIDR for each IP family' },
      ]);
      const three = await s.post(NODES, node('cidr-three', { podCIDRs: ['10.0.0.0/24', 'fd00::/64', 'fd01::/64'] }));
      expect(invalidCauses(three).map((c) => c.field)).toEqual(['spec.podCIDRs']);
    });

    it('may be set once, from empty, and never changed', async () => {
      expect((await s.post(NODES, node('cidr-later'))).status).toBe(201);
      const set = await s.patch(`${NODES}/cidr-later`, { spec: { podCIDRs: ['10.3.0.0/24'] } }, MERGE);
      expect(set.status, set.text).toBe(200);
      expect(set.body.spec.podCIDR).toBe('10.3.0.0/24');
      expectCauses(await s.patch(`${NODES}/cidr-later`, { spec: { podCIDRs: ['10.4.0.0/24'] } }, MERGE), [
        { field: 'spec.podCIDRs', reason: 'FieldValueForbidden', message: 'Forbidden: node updates may not change podCIDR except from "" to valid' },
      ]);
    });
  });

  it('sets providerID once and never changes externalID', async () => {
    expect((await s.post(NODES, node('provider', { externalID: 'ext-1' }))).status).toBe(201);
    expect((await s.patch(`${NODES}/provider`, { spec: { providerID: 'cloud://one' } }, MERGE)).status).toBe(200);
    expectCauses(await s.patch(`${NODES}/provider`, { spec: { providerID: 'cloud://two' } }, MERGE), [
      { field: 'spec.providerID', reason: 'FieldValueForbidden', message: 'Forbidden: node updates may not change providerID except from "" to valid' },
    ]);
    expectCauses(await s.patch(`${NODES}/provider`, { spec: { externalID: 'ext-2' } }, MERGE), [{ field: 'spec.externalID', reason: 'FieldValueForbidden' }]);
  });

  it('checks capacity and allocatable: not negative, whole for counted resources', async () => {
    const r = await s.post(NODES, node('resources', {}, { capacity: { cpu: '-1', pods: '1500m', 'example.com/gpu': '0.5', memory: '1.5Gi' } }));
    const causes = invalidCauses(r);
    const fields = causes.map((c) => `${c.field}: ${c.message}`);
    expect(fields).toContain('status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0');
    expect(fields).toContain('status.capacity.pods: Invalid value: "1500m": must be an integer');
    expect(fields).toContain('status.capacity.example.com/gpu: Invalid value: "500m": must be an integer');
    // Allocatable was defaulted from capacity, so it is reported as well.
    expect(fields).toContain('status.allocatable.cpu: Invalid value: "-1": must be greater than or equal to 0');
    expect(fields.some((f) => f.startsWith('status.capacity.memory'))).toBe(false);
  });

  it('keeps status out of the main endpoint and spec out of /status', async () => {
    const created = await s.post(NODES, node('halves', {}, { capacity: { cpu: '1' } }));
    expect(created.status).toBe(201);
    const main = await s.patch(`${NODES}/halves`, { spec: { unschedulable: true }, status: { capacity: { cpu: '64' } } }, MERGE);
    expect(main.status, main.text).toBe(200);
    expect(main.body.spec.unschedulable).toBe(true);
    expect(main.body.status.capacity).toEqual({ cpu: '1' });
    const status = await s.patch(`${NODES}/halves/status`, { spec: { unschedulable: false }, status: { capacity: { cpu: '2' }, phase: 'Running' } }, MERGE);
    expect(status.status, status.text).toBe(200);
    expect(status.body.spec.unschedulable).toBe(true);
    expect(status.body.status.capacity).toEqual({ cpu: '2' });
  });

  it('checks resources in a status update too', async () => {
    expect((await s.post(NODES, node('status-resources'))).status).toBe(201);
    const r = await s.patch(`${NODES}/status-resources/status`, { status: { capacity: { memory: '-1Gi' }, allocatable: { memory: '1Gi' } } }, MERGE);
    expectCauses(r, [{ field: 'status.capacity.memory', reason: 'FieldValueInvalid', message: 'Invalid value: "-1Gi": must be greater than or equal to 0' }]);
  });

  it('refuses duplicate addresses in a status update', async () => {
    expect((await s.post(NODES, node('addrs'))).status).toBe(201);
    const addr = { type: 'InternalIP', address: '10.0.0.9' };
    const r = await s.patch(`${NODES}/addrs/status`, { status: { addresses: [addr, { type: 'Hostname', address: 'a' }, addr] } }, MERGE);
    expectCauses(r, [{ field: 'status.addresses[2]', reason: 'FieldValueDuplicate' }]);
  });

  it('warns that configSource is removed when a node that has it is updated', async () => {
    expect((await s.post(NODES, node('warn-config'))).status).toBe(201);
    // configSource is dropped unless the stored node has it, so no warning and no field.
    const r = await s.patch(`${NODES}/warn-config`, { spec: { configSource: { configMap: { namespace: 'a', name: 'b', kubeletConfigKey: 'c' } } } }, MERGE);
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.configSource).toBeUndefined();
    expect(warningsOf(r)).toEqual([]);
  });

  it('selects by spec.unschedulable, and no other kind-specific field', async () => {
    expect((await s.post(NODES, node('sel-cordoned', { unschedulable: true }))).status).toBe(201);
    expect((await s.post(NODES, node('sel-open'))).status).toBe(201);
    const cordoned = await s.get(`${NODES}?fieldSelector=spec.unschedulable%3Dtrue`);
    const names = cordoned.body.items.map((i: any) => i.metadata.name);
    expect(names).toContain('sel-cordoned');
    expect(names).not.toContain('sel-open');
    const open = await s.get(`${NODES}?fieldSelector=spec.unschedulable%3Dfalse`);
    expect(open.body.items.map((i: any) => i.metadata.name)).toContain('sel-open');
    const bad = await s.get(`${NODES}?fieldSelector=status.phase%3DRunning`);
    expect(expectStatus(bad, 400, 'BadRequest').message).toMatch(/field label not supported: status.phase/);
  });
});
