/**
 * Deleting a CustomResourceDefinition (Kubernetes' finalizing controller): while the CRD is marked
 * for deletion and holds the cleanup finalizer, every custom object is deleted, then the resource
 * stops being served and the finalizer is removed, so the CRD goes last. The Terminating
 * condition says how far it got; a failure is reported there and retried.
 */
import { crdCleanupFinalizer, setCrdCondition, type CustomResourceDefinition } from '../../apis/apiextensions/index.js';
import type { InProcessClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import { isStatusError } from '../../machinery/errors.js';
import type { Logger } from '../../machinery/logger.js';

export interface CleanupDeps {
  client: InProcessClient;
  crd: CustomResourceDefinition;
  names: ApiNames;
  log: Logger;
  writeStatus(name: string, change: (crd: CustomResourceDefinition) => void): Promise<CustomResourceDefinition | undefined>;
  stopServing(): Promise<void>;
}

function now(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

export async function cleanUpCustomResources(deps: CleanupDeps): Promise<void> {
  const { client, crd, names } = deps;
  const name = crd.metadata.name ?? '';
  const plural = crd.status?.acceptedNames?.plural;
  const terminating = crd.status?.conditions?.find((c) => c.type === 'Terminating');
  // Each write is a change the controller is told of: write only what differs, or it would feed itself.
  const report = async (reason: string, message: string): Promise<void> => {
    if (terminating?.reason === reason && terminating.message === message) return;
    await deps.writeStatus(name, (c) => setCrdCondition(c, { type: 'Terminating', status: 'True', reason, message }, now()));
  };
  if (plural) {
    if (terminating?.reason === 'InstanceDeletionPending' || !terminating) await report('InstanceDeletionInProgress', 'CustomResource deletion is in progress');
    let resource;
    try {
      resource = client.resource(crd.spec.group, plural);
    } catch {
      resource = undefined; // Never served: nothing can be stored.
    }
    if (resource) {
      try {
        for (const obj of await resource.list('')) await resource.delete(obj.metadata.namespace ?? '', obj.metadata.name ?? '');
        const left = await resource.list('');
        if (left.length) throw new Error(`${left.length} instances remain (waiting for their finalizers)`);
      } catch (e) {
        await report('InstanceDeletionFailed', `could not issue all deletes: ${e instanceof Error ? e.message : String(e)}`);
        throw e;
      }
    }
    await report('InstanceDeletionCompleted', 'removed all instances');
  }
  await deps.stopServing();
  const finalizer = crdCleanupFinalizer(names);
  try {
    await client.resource(names.group('apiextensions'), 'customresourcedefinitions').update('', name, (current) => {
      const crdNow = current as CustomResourceDefinition;
      crdNow.metadata.finalizers = (crdNow.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      return crdNow;
    });
  } catch (e) {
    if (!isStatusError(e, 'NotFound')) throw e;
  }
}
