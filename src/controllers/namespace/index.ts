/**
 * The namespace controller: when a namespace is marked for deletion it deletes every object in it,
 * reports what remains in the namespace's conditions, and once nothing is left removes its
 * finalizer through `/finalize`, which lets the namespace go.
 */
import type { Namespace } from '../../apis/core/v1/namespace.js';
import type { InProcessClient, ResourceClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import { isStatusError } from '../../machinery/errors.js';
import type { ResourceRegistry } from '../../registry/registry.js';
import { formatTime } from '../../registry/object-meta.js';
import type { KubeObject } from '../../schema/index.js';
import type { Logger } from '../../machinery/logger.js';
import { WorkQueue } from '../framework/work-queue.js';

export interface NamespaceController {
  stop(): void;
}

interface Condition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

const RETRY_MIN_MS = 100;
/** Content still present (finalizers at work): look again within a second, as Kubernetes' estimate does. */
const CONTENT_RETRY_MAX_MS = 1000;
const RETRY_MAX_MS = 10_000;

export function startNamespaceController(deps: { client: InProcessClient; registry: ResourceRegistry; names: ApiNames; log: Logger }): NamespaceController {
  const { client, registry, names, log } = deps;
  const namespaces = client.resource('', 'namespaces');
  const abort = new AbortController();
  /** Passes that found content remaining, per namespace: the backoff grows with them. */
  const attempts = new Map<string, number>();

  const pass = async (name: string): Promise<void> => {
    try {
      if (await finalizeNamespace(name)) {
        attempts.delete(name);
        return;
      }
      const n = attempts.get(name) ?? 0;
      attempts.set(name, n + 1);
      queue.addAfter(name, Math.min(CONTENT_RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.min(n, 7)));
    } catch (e) {
      // Another server instance finished the namespace between our read and our write.
      const gone = isStatusError(e, 'NotFound') && (await namespaces.get('', name).then((ns) => ns === undefined, () => false));
      if (gone) {
        attempts.delete(name);
        return;
      }
      throw e;
    }
  };
  const queue = new WorkQueue(
    pass,
    (name, error) => log.warn('namespace cleanup failed; retrying', { namespace: name, error: error instanceof Error ? error.message : String(error) }),
    { workers: 1, minRetryMs: RETRY_MIN_MS, maxRetryMs: RETRY_MAX_MS },
  );
  const enqueue = (name: string): void => queue.add(name);

  /** One cleanup pass; true when the namespace needs no more work. */
  const finalizeNamespace = async (name: string): Promise<boolean> => {
    const ns = (await namespaces.get('', name)) as Namespace | undefined;
    if (!ns || !ns.metadata.deletionTimestamp) return true;
    if (!(ns.spec.finalizers ?? []).includes(names.namespaceFinalizer)) return true;
    const remaining = await deleteContent(name);
    if (remaining.objects > 0) {
      await setConditions(name, contentConditions(remaining));
      return false;
    }
    await setConditions(name, contentConditions(remaining));
    await namespaces.update(
      '',
      name,
      (current) => {
        const cur = current as Namespace;
        cur.spec.finalizers = (cur.spec.finalizers ?? []).filter((f) => f !== names.namespaceFinalizer);
        return cur;
      },
      'finalize',
    );
    log.info('namespace content removed; namespace finalized', { namespace: name });
    return true;
  };

  const deleteContent = async (namespace: string): Promise<Remaining> => {
    const remaining: Remaining = { objects: 0, byResource: new Map(), byFinalizer: new Map() };
    for (const store of registry.namespacedStores()) {
      const rc: ResourceClient = client.forStore(store);
      for (const obj of await rc.list(namespace)) {
        const name = obj.metadata.name as string;
        const result = obj.metadata.deletionTimestamp ? { object: obj, deleted: false } : await rc.delete(namespace, name, { propagationPolicy: 'Background' });
        if (result && !result.deleted) countRemaining(remaining, store.def.resource, store.def.group, result.object);
      }
    }
    return remaining;
  };

  const setConditions = async (name: string, conditions: Condition[]): Promise<void> => {
    const now = formatTime(new Date());
    await namespaces.update(
      '',
      name,
      (current) => {
        const ns = current as Namespace;
        const existing = ns.status.conditions ?? [];
        const next = conditions.map((c) => {
          const old = existing.find((e) => e.type === c.type);
          const lastTransitionTime = old && old.status === c.status ? old.lastTransitionTime : now;
          return { ...c, ...(lastTransitionTime ? { lastTransitionTime } : {}) };
        });
        ns.status.conditions = [...existing.filter((e) => !conditions.some((c) => c.type === e.type)), ...next];
        return ns;
      },
      'status',
    );
  };

  // Follow namespaces: every change to one marked for deletion schedules a cleanup pass.
  void (async () => {
    try {
      const events = await namespaces.store.watch({ namespace: '', signal: abort.signal, resourceVersion: '0' }, () => {
        throw new Error('no bookmarks requested');
      });
      for await (const ev of events) {
        if (ev.type !== 'ADDED' && ev.type !== 'MODIFIED') continue;
        const ns = ev.object.parse<Namespace>();
        if (ns.metadata.deletionTimestamp && (ns.spec.finalizers ?? []).includes(names.namespaceFinalizer)) {
          enqueue(ns.metadata.name as string);
        }
      }
    } catch (e) {
      if (!abort.signal.aborted) log.error('namespace controller stopped following namespaces', { error: (e as Error).message });
    }
  })();

  return {
    stop() {
      abort.abort();
      queue.stop();
    },
  };
}

interface Remaining {
  objects: number;
  byResource: Map<string, number>;
  byFinalizer: Map<string, number>;
}

function countRemaining(r: Remaining, resource: string, group: string, obj: KubeObject): void {
  r.objects++;
  // Kubernetes prints a core-group resource without a trailing dot.
  const key = group ? `${resource}.${group}` : resource;
  r.byResource.set(key, (r.byResource.get(key) ?? 0) + 1);
  for (const f of obj.metadata.finalizers ?? []) r.byFinalizer.set(f, (r.byFinalizer.get(f) ?? 0) + 1);
}

function contentConditions(r: Remaining): Condition[] {
  const resources = [...r.byResource].map(([k, n]) => `${k} has ${n} resource instances`).join(', ');
  const finalizers = [...r.byFinalizer].map(([k, n]) => `${k} in ${n} resource instances`).join(', ');
  return [
    { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
    { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
    { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
    r.objects > 0
      ? { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${resources}` }
      : { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
    r.byFinalizer.size > 0
      ? { type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizersRemain', message: `Some content in the namespace has finalizers remaining: ${finalizers}` }
      : { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
  ];
}
