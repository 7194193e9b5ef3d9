import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { create, eventually, gone, ownerOf, path } from './helpers.js';

describe('garbage collector: background, orphan and foreground deletion', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('background: deleting an owner removes its dependents, level by level', async () => {
    const owner = await create(s, 'configmaps', 'default', 'bg-owner');
    const child = await create(s, 'secrets', 'default', 'bg-child', { ownerReferences: [ownerOf(owner)] });
    await create(s, 'configmaps', 'default', 'bg-grandchild', { ownerReferences: [ownerOf(child)] });
    const unrelated = await create(s, 'configmaps', 'default', 'bg-unrelated');

    expect((await s.del(path('configmaps', 'default', 'bg-owner'))).status).toBe(200);
    await gone(s, path('secrets', 'default', 'bg-child'));
    await gone(s, path('configmaps', 'default', 'bg-grandchild'));
    const still = await s.get(path('configmaps', 'default', 'bg-unrelated'));
    expect(still.status).toBe(200);
    expect(still.body.metadata.uid).toBe(unrelated.metadata.uid);
  });

  it('orphan: the owner goes, the dependent stays without the reference to it', async () => {
    const owner = await create(s, 'configmaps', 'default', 'orphan-owner');
    const other = await create(s, 'secrets', 'default', 'orphan-other-owner');
    await create(s, 'secrets', 'default', 'orphan-child', { labels: { keep: 'me' }, ownerReferences: [ownerOf(owner)] });
    await create(s, 'configmaps', 'default', 'orphan-child-2', { ownerReferences: [ownerOf(owner, true), ownerOf(other)] });

    const d = await s.del(`${path('configmaps', 'default', 'orphan-owner')}?propagationPolicy=Orphan`);
    expect(d.status).toBe(200);
    expect(d.body.metadata.finalizers).toEqual(['orphan']);
    await gone(s, path('configmaps', 'default', 'orphan-owner'));

    const child = await s.get(path('secrets', 'default', 'orphan-child'));
    expect(child.status).toBe(200);
    expect(child.body.metadata.ownerReferences).toBeUndefined();
    expect(child.body.metadata.labels).toEqual({ keep: 'me' });
    const child2 = await s.get(path('configmaps', 'default', 'orphan-child-2'));
    expect(child2.status).toBe(200);
    expect(child2.body.metadata.ownerReferences).toEqual([ownerOf(other)]);
  });

  it('orphanDependents=true (the old form) orphans too', async () => {
    const owner = await create(s, 'configmaps', 'default', 'orphan-old-owner');
    await create(s, 'configmaps', 'default', 'orphan-old-child', { ownerReferences: [ownerOf(owner)] });
    expect((await s.del(path('configmaps', 'default', 'orphan-old-owner'), { orphanDependents: true })).status).toBe(200);
    await gone(s, path('configmaps', 'default', 'orphan-old-owner'));
    const child = await s.get(path('configmaps', 'default', 'orphan-old-child'));
    expect(child.status).toBe(200);
    expect(child.body.metadata.ownerReferences).toBeUndefined();
  });

  it('foreground: the owner waits for its blocking dependents only, then goes', async () => {
    const owner = await create(s, 'configmaps', 'default', 'fg-owner');
    // Both dependents hold a finalizer of their own, so their deletion can be watched step by step.
    await create(s, 'secrets', 'default', 'fg-blocking', { finalizers: ['example.com/hold'], ownerReferences: [ownerOf(owner, true)] });
    await create(s, 'configmaps', 'default', 'fg-nonblocking', { finalizers: ['example.com/hold'], ownerReferences: [ownerOf(owner, false)] });

    const d = await s.del(`${path('configmaps', 'default', 'fg-owner')}?propagationPolicy=Foreground`);
    expect(d.status).toBe(200);
    expect(d.body.metadata.deletionTimestamp).toBeTruthy();
    expect(d.body.metadata.finalizers).toEqual(['foregroundDeletion']);
    const w = await s.watch(`/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${d.body.metadata.resourceVersion}`);

    // The collector deletes both dependents; the blocking one keeps the owner.
    const blocking = await eventually(
      () => s.get(path('secrets', 'default', 'fg-blocking')),
      (r) => !!r.body?.metadata?.deletionTimestamp,
      'the blocking dependent is being deleted',
    );
    expect(blocking.body.metadata.finalizers).toEqual(['example.com/hold']);
    await eventually(
      () => s.get(path('configmaps', 'default', 'fg-nonblocking')),
      (r) => !!r.body?.metadata?.deletionTimestamp,
      'the non-blocking dependent is being deleted',
    );
    const waiting = await s.get(path('configmaps', 'default', 'fg-owner'));
    expect(waiting.status).toBe(200);
    expect(waiting.body.metadata.finalizers).toEqual(['foregroundDeletion']);

    // Releasing the blocking dependent lets the owner go, while the non-blocking one still exists.
    const p = await s.patch(path('secrets', 'default', 'fg-blocking'), { metadata: { finalizers: null } }, 'application/merge-patch+json');
    expect(p.status).toBe(200);
    await gone(s, path('secrets', 'default', 'fg-blocking'));
    await gone(s, path('configmaps', 'default', 'fg-owner'));
    expect((await s.get(path('configmaps', 'default', 'fg-nonblocking'))).status).toBe(200);

    // The watch of configmaps: the non-blocking dependent marked, then the owner deleted — and no
    // DELETED for the owner came before that dependent was marked.
    const seen: string[] = [];
    for (;;) {
      const [ev] = await w.next(1);
      seen.push(`${ev!.type} ${ev!.object.metadata.name}`);
      if (ev!.type === 'DELETED' && ev!.object.metadata.name === 'fg-owner') break;
    }
    w.close();
    expect(seen.indexOf('MODIFIED fg-nonblocking')).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf('MODIFIED fg-nonblocking')).toBeLessThan(seen.indexOf('DELETED fg-owner'));
    await s.patch(path('configmaps', 'default', 'fg-nonblocking'), { metadata: { finalizers: null } }, 'application/merge-patch+json');
    await gone(s, path('configmaps', 'default', 'fg-nonblocking'));
  });

  it('foreground: a dependent with dependents is deleted in the foreground too, so the watch shows the bottom going first', async () => {
    const top = await create(s, 'configmaps', 'default', 'chain-top');
    const middle = await create(s, 'configmaps', 'default', 'chain-middle', { ownerReferences: [ownerOf(top, true)] });
    await create(s, 'configmaps', 'default', 'chain-bottom', { ownerReferences: [ownerOf(middle, true)] });
    const w = await s.watch(`/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${(await s.get(path('configmaps', 'default'))).body.metadata.resourceVersion}`);

    expect((await s.del(`${path('configmaps', 'default', 'chain-top')}?propagationPolicy=Foreground`)).status).toBe(200);
    await gone(s, path('configmaps', 'default', 'chain-top'));
    expect((await s.get(path('configmaps', 'default', 'chain-middle'))).status).toBe(404);
    expect((await s.get(path('configmaps', 'default', 'chain-bottom'))).status).toBe(404);

    const events: { type: string; name: string; finalizers: string[] }[] = [];
    while (!events.some((e) => e.type === 'DELETED' && e.name === 'chain-top')) {
      const [ev] = await w.next(1);
      events.push({ type: ev!.type, name: ev!.object.metadata.name, finalizers: ev!.object.metadata.finalizers ?? [] });
    }
    w.close();
    const deletedOrder = events.filter((e) => e.type === 'DELETED').map((e) => e.name);
    expect(deletedOrder).toEqual(['chain-bottom', 'chain-middle', 'chain-top']);
    // The middle waited for its own dependent: it was marked with foregroundDeletion first.
    expect(events.some((e) => e.type === 'MODIFIED' && e.name === 'chain-middle' && e.finalizers.includes('foregroundDeletion'))).toBe(true);
  });

  it('a dependent with two owners survives the deletion of one and loses only that reference', async () => {
    const a = await create(s, 'configmaps', 'default', 'two-a');
    const b = await create(s, 'secrets', 'default', 'two-b');
    await create(s, 'configmaps', 'default', 'two-child', { ownerReferences: [ownerOf(a, true), ownerOf(b)] });

    expect((await s.del(path('configmaps', 'default', 'two-a'))).status).toBe(200);
    const child = await eventually(
      () => s.get(path('configmaps', 'default', 'two-child')),
      (r) => r.status !== 200 || r.body.metadata.ownerReferences?.length !== 2,
      'the reference to the deleted owner is removed',
    );
    expect(child.status).toBe(200);
    expect(child.body.metadata.ownerReferences).toEqual([ownerOf(b)]);

    // The last owner's deletion then takes it.
    expect((await s.del(path('secrets', 'default', 'two-b'))).status).toBe(200);
    await gone(s, path('configmaps', 'default', 'two-child'));
  });

  it('a dependent of an owner deleted in the foreground that has another live owner only loses that reference', async () => {
    const a = await create(s, 'configmaps', 'default', 'fg2-a');
    const b = await create(s, 'configmaps', 'default', 'fg2-b');
    await create(s, 'secrets', 'default', 'fg2-child', { ownerReferences: [ownerOf(a, true), ownerOf(b, true)] });
    expect((await s.del(`${path('configmaps', 'default', 'fg2-a')}?propagationPolicy=Foreground`)).status).toBe(200);
    await gone(s, path('configmaps', 'default', 'fg2-a'));
    const child = await s.get(path('secrets', 'default', 'fg2-child'));
    expect(child.status).toBe(200);
    expect(child.body.metadata.ownerReferences).toEqual([ownerOf(b, true)]);
  });
});
