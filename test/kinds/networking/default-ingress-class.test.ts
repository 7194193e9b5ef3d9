/** The DefaultIngressClass admission plugin, over HTTP: new ingresses without a class get the default. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickDefaultClass } from '../../../src/admission/plugins/default-ingress-class/index.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const IC = '/apis/networking.orch.io/v1/ingressclasses';
const NS = 'dic';
const ING = `/apis/networking.orch.io/v1/namespaces/${NS}/ingresses`;
const DEFAULT = 'ingressclass.orch.io/is-default-class';
const LEGACY = 'orch.io/ingress.class';
const MERGE = 'application/merge-patch+json';
const spec = { defaultBackend: { service: { name: 'web', port: { number: 80 } } } };

describe('DefaultIngressClass', () => {
  let s: TestServer;
  let n = 0;
  const ingress = async (extra: { metadata?: Record<string, unknown>; spec?: Record<string, unknown> } = {}) => {
    const r = await s.post(ING, { metadata: { name: `i-${++n}`, ...extra.metadata }, spec: { ...spec, ...extra.spec } });
    expect(r.status, r.text).toBe(201);
    return r.body;
  };
  const ingressClass = async (name: string, isDefault?: string) => {
    const r = await s.post(IC, { metadata: { name, ...(isDefault !== undefined ? { annotations: { [DEFAULT]: isDefault } } : {}) }, spec: { controller: 'acme.io/c' } });
    expect(r.status, r.text).toBe(201);
  };

  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it('leaves the class unset while no class is the default', async () => {
    await ingressClass('plain');
    await ingressClass('not-quite', 'True');
    expect((await ingress()).spec.ingressClassName).toBeUndefined();
  });

  it('assigns the default class to a new ingress that names none, even right after the class is created', async () => {
    await ingressClass('main', 'true');
    expect((await ingress()).spec.ingressClassName).toBe('main');
    // Dry run is defaulted the same way.
    const dry = await s.post(`${ING}?dryRun=All`, { metadata: { name: 'dry' }, spec });
    expect(dry.body.spec.ingressClassName).toBe('main');
  });

  it('keeps a class the ingress names, and leaves an ingress with the legacy annotation alone', async () => {
    expect((await ingress({ spec: { ingressClassName: 'plain' } })).spec.ingressClassName).toBe('plain');
    const legacy = await ingress({ metadata: { annotations: { [LEGACY]: 'other' } } });
    expect(legacy.spec.ingressClassName).toBeUndefined();
    // Even an empty legacy annotation counts: it is there.
    expect((await ingress({ metadata: { annotations: { [LEGACY]: '' } } })).spec.ingressClassName).toBeUndefined();
  });

  it('acts on create only: an update that drops the class keeps it dropped', async () => {
    const created = await ingress();
    expect(created.spec.ingressClassName).toBe('main');
    const updated = await s.patch(`${ING}/${created.metadata.name}`, { spec: { ingressClassName: null } }, MERGE);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.spec.ingressClassName).toBeUndefined();
  });

  it('picks the newest of several defaults, and the lowest name among classes created the same second', async () => {
    await ingressClass('zeta', 'true');
    await ingressClass('alpha', 'true');
    const classes = (await s.get(IC)).body.items.filter((c: any) => c.metadata.annotations?.[DEFAULT] === 'true');
    const newest = Math.max(...classes.map((c: any) => Date.parse(c.metadata.creationTimestamp)));
    const expected = classes
      .filter((c: any) => Date.parse(c.metadata.creationTimestamp) === newest)
      .map((c: any) => c.metadata.name)
      .sort()[0];
    expect((await ingress()).spec.ingressClassName).toBe(expected);
    // Deleting the defaults one by one moves the choice to the next newest.
    for (const name of ['alpha', 'zeta', 'main']) expect((await s.del(`${IC}/${name}`)).status).toBe(200);
    expect((await ingress()).spec.ingressClassName).toBeUndefined();
  });

  it('orders defaults by creation time first (pure choice)', () => {
    const c = (name: string, creationTimestamp: string, v = 'true') => ({ metadata: { name, creationTimestamp, annotations: { [DEFAULT]: v } } });
    const older = c('a', '2024-01-01T00:00:00Z');
    const newer = c('z', '2024-01-01T00:00:05Z');
    expect(pickDefaultClass([older, newer], DEFAULT)?.metadata.name).toBe('z');
    expect(pickDefaultClass([newer, older], DEFAULT)?.metadata.name).toBe('z');
    expect(pickDefaultClass([c('b', '2024-01-01T00:00:00Z'), c('a', '2024-01-01T00:00:00Z')], DEFAULT)?.metadata.name).toBe('a');
    expect(pickDefaultClass([c('x', '2024-01-01T00:00:09Z', 'false'), older], DEFAULT)?.metadata.name).toBe('a');
  });

  it('follows the API domain: under k8s.io the Kubernetes annotation keys apply', async () => {
    const k = await startTestServer({ apiDomain: 'k8s.io' });
    try {
      expect((await k.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
      const cls = await k.post('/apis/networking.k8s.io/v1/ingressclasses', {
        metadata: { name: 'k', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
        spec: { controller: 'k8s.io/ingress-nginx' },
      });
      expect(cls.status).toBe(201);
      const path = `/apis/networking.k8s.io/v1/namespaces/${NS}/ingresses`;
      expect((await k.post(path, { metadata: { name: 'a' }, spec })).body.spec.ingressClassName).toBe('k');
      const legacy = await k.post(path, { metadata: { name: 'b', annotations: { 'kubernetes.io/ingress.class': 'x' } }, spec });
      expect(legacy.body.spec.ingressClassName).toBeUndefined();
    } finally {
      await k.close();
    }
  });
});
