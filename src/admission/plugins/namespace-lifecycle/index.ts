/**
 * NamespaceLifecycle: no new content in a namespace that does not exist or is being terminated,
 * and the system namespaces can never be deleted.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { errors } from '../../../machinery/errors.js';
import type { AdmissionPlugin } from '../../types.js';

export type NamespacePhase = 'missing' | 'active' | 'terminating';

export interface NamespaceLookup {
  /** The namespace's state; must see namespaces created just before (a consistent read when unsure). */
  phase(name: string, signal: AbortSignal): Promise<NamespacePhase>;
}

export function immortalNamespaces(names: ApiNames): string[] {
  return ['default', names.systemNamespace, names.publicNamespace];
}

export function namespaceLifecycle(names: ApiNames, lookup: NamespaceLookup): AdmissionPlugin {
  const immortal = new Set(immortalNamespaces(names));
  return {
    name: 'NamespaceLifecycle',
    async validate(a) {
      if (a.operation === 'DELETE' && a.resource === 'namespaces' && a.group === '' && !a.subresource && immortal.has(a.name)) {
        throw errors.forbidden({ group: '', resource: 'namespaces' }, a.name, 'this namespace may not be deleted');
      }
      if (a.operation !== 'CREATE' || !a.namespace || (a.group === '' && a.resource === 'namespaces')) return;
      const phase = await lookup.phase(a.namespace, a.signal);
      if (phase === 'missing') throw errors.notFound({ group: '', resource: 'namespaces' }, a.namespace);
      if (phase === 'terminating') {
        const message = `unable to create new content in namespace ${a.namespace} because it is being terminated`;
        const err = errors.forbidden({ group: a.group, resource: a.resource }, a.name, message);
        err.status.details = { ...err.status.details, causes: [{ reason: 'NamespaceTerminating', message, field: 'metadata.namespace' }] };
        throw err;
      }
    },
  };
}
