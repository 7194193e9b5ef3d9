/**
 * The CRD controller: for each CustomResourceDefinition it decides the accepted names
 * (NamesAccepted), serves the custom resource through ResourceSets, and only then reports it
 * Established, so a client that waited for Established finds the resource served. A change to one
 * CRD re-examines the others of its group (a freed name may now be accepted). A CRD being deleted
 * goes to the cleanup (controllers/crd-cleanup) instead.
 */
import { isDeepStrictEqual } from 'node:util';
import { crdCleanupFinalizer, crdConditionTrue, customResourceDefinitions, setCrdCondition, type CustomResourceDefinition } from '../../apis/apiextensions/index.js';
import type { InProcessClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import { isStatusError } from '../../machinery/errors.js';
import type { Lister } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import type { RegistryView } from '../../registry/registry.js';
import type { ResourceSets } from '../../registry/resource-sets.js';
import { cleanUpCustomResources } from '../crd-cleanup/index.js';
import { WorkQueue } from '../framework/work-queue.js';
import { acceptNames, takenNames } from './names.js';

export interface CrdControllerDeps {
  client: InProcessClient;
  crds: Lister<CustomResourceDefinition>;
  names: ApiNames;
  /** What the server serves now, for names a CRD may not take from a built-in resource. */
  registry: RegistryView;
  resourceSets: ResourceSets;
  log: Logger;
}

export const crdSetId = (name: string): string => `crd:${name}`;

function now(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

export function startCrdController(deps: CrdControllerDeps): { stop(): void } {
  const { client, crds, names, resourceSets, log } = deps;
  const crdClient = client.resource(names.group('apiextensions'), 'customresourcedefinitions');
  /** What each CRD is served as now (its spec and accepted names), so unchanged CRDs are not served again. */
  const servedAs = new Map<string, string>();

  const ownSetKeys = (): Set<string> => new Set([...servedAs.keys()]);

  const writeStatus = async (name: string, change: (crd: CustomResourceDefinition) => void): Promise<CustomResourceDefinition | undefined> => {
    try {
      return (await crdClient.update('', name, (current) => {
        const crd = current as CustomResourceDefinition;
        change(crd);
        return crd;
      }, 'status')) as CustomResourceDefinition;
    } catch (e) {
      if (isStatusError(e, 'NotFound')) return undefined;
      throw e;
    }
  };

  const sync = async (name: string): Promise<void> => {
    const crd = crds.get('', name);
    if (!crd) {
      servedAs.delete(name);
      await resourceSets.remove(crdSetId(name));
      return;
    }
    if (crd.metadata.deletionTimestamp) {
      if (!(crd.metadata.finalizers ?? []).includes(crdCleanupFinalizer(names))) return;
      const terminating = `terminating:${crd.metadata.uid ?? ''}`;
      if (servedAs.has(name) && servedAs.get(name) !== terminating) {
        // Still served (its objects must be deletable), but refusing creates from now on.
        await resourceSets.serve(crdSetId(name), customResourceDefinitions(plain(crd), names));
        servedAs.set(name, terminating);
      }
      await cleanUpCustomResources({ client, crd, names, log, writeStatus, stopServing: async () => {
        servedAs.delete(name);
        await resourceSets.remove(crdSetId(name));
      } });
      return;
    }
    // Names taken by resources the server serves otherwise (built-ins and other sets), in the CRD's group.
    const own = ownSetKeys();
    const servedElsewhere = deps.registry.all().filter((r) => r.def.group === crd.spec.group && !(own.has(name) && r.def.kind === crd.status?.acceptedNames?.kind && r.def.resource === crd.status.acceptedNames.plural));
    const naming = acceptNames(crd, takenNames(crd.spec.group, name, crds.list(), servedElsewhere.map((r) => ({ resource: r.def.resource, kind: r.def.kind, singular: r.def.singular, ...(r.def.shortNames ? { shortNames: r.def.shortNames } : {}) }))));
    let current: CustomResourceDefinition | undefined = crd;
    const namesCondition = crd.status?.conditions?.find((c) => c.type === 'NamesAccepted');
    if (!isDeepStrictEqual(plain(crd.status?.acceptedNames), plain(naming.accepted)) || namesCondition?.status !== naming.condition.status || namesCondition.reason !== naming.condition.reason) {
      current = await writeStatus(name, (c) => {
        c.status ??= { acceptedNames: { plural: '', kind: '' } };
        c.status.acceptedNames = structuredClone(naming.accepted);
        setCrdCondition(c, { type: 'NamesAccepted', ...naming.condition }, now());
        if (naming.condition.status === 'False' && !crdConditionTrue(c, 'Established')) {
          setCrdCondition(c, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }, now());
        }
      });
      if (!current) return;
    }
    if (!current.status?.acceptedNames?.plural) return;
    const fingerprint = JSON.stringify([current.spec, current.status.acceptedNames]);
    if (servedAs.get(name) !== fingerprint) {
      await resourceSets.serve(crdSetId(name), customResourceDefinitions(plain(current) as CustomResourceDefinition, names));
      servedAs.set(name, fingerprint);
    }
    if (!crdConditionTrue(current, 'Established')) {
      await writeStatus(name, (c) => setCrdCondition(c, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, now()));
    }
  };

  const queue = new WorkQueue(sync, (key, error, attempt) => log.warn('custom resource definition sync failed; retrying', { crd: key, attempt, error: error instanceof Error ? error.message : String(error) }), {
    workers: 1,
    minRetryMs: 50,
    maxRetryMs: 5_000,
  });
  const unsubscribe = crds.onChange((event) => {
    queue.add(event.object.metadata.name ?? '');
    // Another CRD of the group may now get a name this one held or gave up.
    for (const other of crds.list()) if (other.spec.group === event.object.spec.group && other.metadata.name !== event.object.metadata.name) queue.add(other.metadata.name ?? '');
  });
  for (const crd of crds.list()) queue.add(crd.metadata.name ?? '');
  return {
    stop() {
      unsubscribe();
      queue.stop();
    },
  };
}

/** Frozen lister objects become plain values. */
function plain<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}
