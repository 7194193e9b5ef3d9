import { describe, expect, it } from 'vitest';
import { createMemoryKV } from '../storage/memory/memory-kv.js';
import { API_DOMAIN_KEY, claimStoreDomain, StoreDomainMismatchError, storeLocation } from './store-domain.js';

const WHERE = { description: 'the data directory /srv/orch', flag: '--data-dir' };

describe('claimStoreDomain', () => {
  it('records the domain at the first start and accepts it at the next', async () => {
    const kv = createMemoryKV();
    await claimStoreDomain(kv, 'orch.io', 'orch-system', WHERE);
    const { entry } = await kv.get(API_DOMAIN_KEY);
    expect(JSON.parse(entry?.value ?? '')).toEqual({ apiDomain: 'orch.io' });
    await claimStoreDomain(kv, 'orch.io', 'orch-system', WHERE);
    expect((await kv.get(API_DOMAIN_KEY)).entry?.modRevision).toBe(entry?.modRevision);
  });

  it('refuses another domain, naming both and the way out, and writes nothing', async () => {
    const kv = createMemoryKV();
    await claimStoreDomain(kv, 'k8s.io', 'kube-system', WHERE);
    const before = await kv.currentRevision();
    const err = await claimStoreDomain(kv, 'orch.io', 'orch-system', WHERE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreDomainMismatchError);
    expect(err).toMatchObject({ storedDomain: 'k8s.io', requestedDomain: 'orch.io' });
    expect((err as Error).message).toBe(
      'the data directory /srv/orch was created with --api-domain=k8s.io, and this server was started with --api-domain=orch.io; one store serves one API domain. ' +
        'Start with --api-domain=k8s.io to use it, or give orch.io a store of its own with another --data-dir',
    );
    expect(await kv.currentRevision()).toBe(before);
  });

  it.each([
    ['kube-system', 'orch.io', 'orch-system', 'k8s.io'],
    ['orch-system', 'k8s.io', 'kube-system', 'orch.io'],
  ])('knows a store written before the record by its %s namespace', async (found, domain, ours, stored) => {
    const kv = createMemoryKV();
    await kv.create(`/registry/core/namespaces/${found}`, '{}');
    await expect(claimStoreDomain(kv, domain, ours, WHERE)).rejects.toMatchObject({ storedDomain: stored, requestedDomain: domain });
    expect((await kv.get(API_DOMAIN_KEY)).entry).toBeUndefined();
  });

  it('adopts an unrecorded store that holds its own system namespace', async () => {
    const kv = createMemoryKV();
    await kv.create('/registry/core/namespaces/orch-system', '{}');
    await kv.create('/registry/core/namespaces/kube-system', '{}'); // made by a user, not a k8s.io server
    await claimStoreDomain(kv, 'orch.io', 'orch-system', WHERE);
    expect(JSON.parse((await kv.get(API_DOMAIN_KEY)).entry?.value ?? '')).toEqual({ apiDomain: 'orch.io' });
  });

  it('lets exactly one of two racing first starts with different domains win', async () => {
    const kv = createMemoryKV();
    const results = await Promise.allSettled([claimStoreDomain(kv, 'orch.io', 'orch-system', WHERE), claimStoreDomain(kv, 'k8s.io', 'kube-system', WHERE)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(StoreDomainMismatchError);
  });

  it('says so when the record cannot be read, rather than guessing', async () => {
    const kv = createMemoryKV();
    await kv.create(API_DOMAIN_KEY, 'not json');
    await expect(claimStoreDomain(kv, 'orch.io', 'orch-system', WHERE)).rejects.toThrow(/unreadable API domain record/);
  });
});

describe('storeLocation', () => {
  it('names the data directory, the etcd prefix and servers, and nothing for memory', () => {
    expect(storeLocation('sqlite', { dataDir: '/srv/orch' })).toEqual({ description: 'the data directory /srv/orch', flag: '--data-dir' });
    expect(storeLocation('etcd', { etcdServers: ['http://127.0.0.1:2379'] })).toEqual({ description: 'the etcd prefix /orch at http://127.0.0.1:2379', flag: '--etcd-prefix' });
    expect(storeLocation('etcd', { etcdServers: ['http://a:2379', 'http://b:2379'], etcdPrefix: '/team' })?.description).toBe('the etcd prefix /team at http://a:2379,http://b:2379');
    expect(storeLocation('memory', {})).toBeUndefined();
  });
});
