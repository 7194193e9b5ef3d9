/**
 * NamespaceLifecycle: no new content in a namespace that does not exist or is being terminated,
 * and the system namespaces can never be deleted.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { errors } from '../../../machinery/errors.js';
import type { Lister } from '../../../machinery/lister.js';
import type { AdmissionPlugin } from '../../types.js';

export type NamespacePhase = 'missing' | 'active' | 'terminating';

/** What the plugin reads of a Namespace. */
export interface NamespaceInfo {
  metadata: { deletionTimestamp?: string };
  status?: { phase?: string };
}

export function immortalNamespaces(names: ApiNames): string[] {
  return ['default', names.systemNamespace, names.publicNamespace];
}

/** The namespace's phase as admission sees it. Pure. */
export function phaseOf(ns: NamespaceInfo | undefined): NamespacePhase {
  if (!ns) return 'missing';
  return ns.metadata.deletionTimestamp || ns.status?.phase === 'Terminating' ? 'terminating' : 'active';
}

export function namespaceLifecycle(names: ApiNames, namespaces: Lister<NamespaceInfo>): AdmissionPlugin {
  const immortal = new Set(immortalNamespaces(names));
  /** The lister first; on a miss, once more after catching up with the store, so a namespace created an instant ago counts. */
  const phase = async (name: string, signal: AbortSignal): Promise<NamespacePhase> => {
    const fast = phaseOf(namespaces.get('', name));
    if (fast !== 'missing') return fast;
    await namespaces.synced(signal);
    return phaseOf(namespaces.get('', name));
  };
  return {
    name: 'NamespaceLifecycle',
    async validate(a) {
      if (a.operation === 'DELETE' && a.resource === 'namespaces' && a.group === '' && !a.subresource && immortal.has(a.name)) {
        throw errors.forbidden({ group: '', resource: 'namespaces' }, a.name, 'this namespace may not be deleted');
      }
      if (a.operation !== 'CREATE' || !a.namespace || (a.group === '' && a.resource === 'namespaces')) return;
      const current = await phase(a.namespace, a.signal);
      if (current === 'missing') throw errors.notFound({ group: '', resource: 'namespaces' }, a.namespace);
      if (current === 'terminating') {
        const message = `unable to create new content in namespace ${a.namespace} because it is being terminated`;
        const err = errors.forbidden({ group: a.group, resource: a.resource }, a.name, message);
        err.status.details = { ...err.status.details, causes: [{ reason: 'NamespaceTerminating', message, field: 'metadata.namespace' }] };
        throw err;
      }
    },
  };
}
