/** The common partial-write subresources, built once for every kind that has them. */
import type { FieldError } from '../machinery/field-errors.js';
import type { KubeObject } from '../schema/index.js';
import type { PartialSubresource, StrategyContext } from './define-resource.js';

/**
 * `/status`: writes metadata and status; every other top-level field (spec, ...) stays as stored,
 * as Kubernetes' status strategies keep the spec.
 */
export function statusSubresource<T extends KubeObject>(opts: {
  validateUpdate?: (obj: T, old: T, ctx: StrategyContext) => FieldError[];
  prepareForUpdate?: (obj: T, old: T, ctx: StrategyContext) => void;
} = {}): PartialSubresource<T> {
  return {
    kind: 'partial',
    verbs: ['get', 'patch', 'update'],
    merge: (sent, current) => {
      const merged: KubeObject = { ...structuredClone(current), metadata: structuredClone(sent.metadata) };
      if (sent.status === undefined) delete merged.status;
      else merged.status = structuredClone(sent.status);
      return merged as T;
    },
    ...(opts.prepareForUpdate ? { prepareForUpdate: opts.prepareForUpdate } : {}),
    ...(opts.validateUpdate ? { validateUpdate: opts.validateUpdate } : {}),
  };
}
