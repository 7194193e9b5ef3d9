/**
 * Namespace (core/v1, cluster-scoped). `spec.finalizers` holds the namespace controller's finalizer
 * from creation; deletion turns the phase to Terminating and the namespace stays until the
 * controller has removed its content and taken its finalizer out through `/finalize`.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { isQualifiedName, nameValidators } from '../../../machinery/name-validation.js';
import { defineResource, type PartialSubresource, statusSubresource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { namespaceTable } from './tables.js';

export const NamespaceCondition = t.struct('core.v1.NamespaceCondition', {
  type: t.required(1, t.string(), { always: true }),
  status: t.required(2, t.string(), { always: true }),
  lastTransitionTime: t.field(4, t.time()),
  reason: t.field(5, t.string()),
  message: t.field(6, t.string()),
});

export const NamespaceSpec = t.struct('core.v1.NamespaceSpec', {
  finalizers: t.field(1, t.list(t.string(), { listType: 'atomic' }), {
    description: 'What must be done before the namespace is removed for good; each entry is taken out when its work is done. Changed only through the finalize subresource.',
  }),
}, { description: 'What the namespace should be.' });

export const NamespaceStatus = t.struct('core.v1.NamespaceStatus', {
  phase: t.field(1, t.string({ enum: ['Active', 'Terminating'] }), {
    description: 'Active while the namespace is in use; Terminating once it is deleted and its content is being removed.',
  }),
  conditions: t.field(2, t.list(NamespaceCondition, { listType: 'map', listMapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }), {
    description: "The latest observations of the namespace's state.",
  }),
}, { description: 'What the namespace is, as last observed.' });

export const NamespaceSchema = t.struct('core.v1.Namespace', {
  ...objectHeader,
  spec: t.field(2, NamespaceSpec, { description: 'What the namespace should be.' }),
  status: t.field(3, NamespaceStatus, { description: 'What the namespace is, as last observed. Read-only.' }),
}, { description: 'A scope for names: namespaced objects live in exactly one namespace, and names are unique within it.' });
export type Namespace = ObjectOf<typeof NamespaceSchema>;

export const NAMESPACE_PHASES = ['Active', 'Terminating'] as const;

/** Finalizer names a namespace may carry without a domain prefix. */
function standardFinalizers(names: ApiNames): string[] {
  return [names.namespaceFinalizer, 'orphan', 'foregroundDeletion'];
}

function validateSpecFinalizers(ns: Namespace, names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  const path = FieldPath.root('spec').child('finalizers');
  // Reported on spec.finalizers without an index, as Kubernetes does.
  for (const f of ns.spec.finalizers ?? []) {
    for (const m of isQualifiedName(f)) errs.push(fieldErr.invalid(path, f, m));
    if (!f.includes('/') && !standardFinalizers(names).includes(f)) {
      errs.push(fieldErr.invalid(path, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return errs;
}

function validatePhase(ns: Namespace): FieldError[] {
  const phase = ns.status.phase;
  if (phase && !(NAMESPACE_PHASES as readonly string[]).includes(phase)) {
    return [fieldErr.notSupported(FieldPath.root('status').child('phase'), phase, NAMESPACE_PHASES)];
  }
  return [];
}

/** `/finalize`: writes metadata and spec.finalizers; status stays as stored. */
function finalizeSubresource(names: ApiNames): PartialSubresource<Namespace> {
  return {
    kind: 'partial',
    verbs: ['update'],
    merge: (sent, current) => ({ ...structuredClone(current), metadata: structuredClone(sent.metadata), spec: structuredClone(sent.spec) }),
    validateUpdate: (ns) => validateSpecFinalizers(ns, names),
  };
}

export const namespaceResource = defineResource<Namespace>((names) => ({
  group: '',
  version: 'v1',
  kind: 'Namespace',
  resource: 'namespaces',
  singular: 'namespace',
  namespaced: false,
  shortNames: ['ns'],
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  schema: NamespaceSchema,
  table: namespaceTable,
  fixture: () => ({ spec: {} }),
  strategy: {
    nameValidator: nameValidators.dnsLabel,
    selectableFieldNames: ['status.phase'],
    selectableFields: (ns) => ({ 'status.phase': ns.status.phase ?? '' }),
    defaults(ns) {
      // Every namespace carries its own name as a label, so selectors can pick namespaces by name.
      if (ns.metadata.name) ns.metadata.labels = { ...(ns.metadata.labels ?? {}), [names.labelKey('metadata.name')]: ns.metadata.name };
    },
    prepareForCreate(ns) {
      ns.status = { phase: 'Active' };
      const finalizers = new Set(ns.spec.finalizers ?? []);
      finalizers.add(names.namespaceFinalizer);
      ns.spec.finalizers = [...finalizers];
      if (ns.metadata.name) ns.metadata.labels = { ...(ns.metadata.labels ?? {}), [names.labelKey('metadata.name')]: ns.metadata.name };
    },
    prepareForUpdate(ns, old) {
      ns.spec = structuredClone(old.spec);
      ns.status = structuredClone(old.status);
      if (ns.metadata.name) ns.metadata.labels = { ...(ns.metadata.labels ?? {}), [names.labelKey('metadata.name')]: ns.metadata.name };
    },
    validate: (ns) => validateSpecFinalizers(ns, names),
    prepareForDelete(ns) {
      ns.status = { ...ns.status, phase: 'Terminating' };
    },
    holdsDeletion: (ns) => (ns.spec.finalizers ?? []).length > 0,
    deletePendingConflict:
      'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
  },
  subresources: {
    status: statusSubresource<Namespace>({
      validateUpdate: (ns, old) => {
        const errs = validatePhase(ns);
        if (old.metadata.deletionTimestamp && ns.status.phase !== 'Terminating') {
          errs.push(fieldErr.invalid(FieldPath.root('status').child('phase'), ns.status.phase, 'A namespace may not be set to Active while it is being deleted'));
        }
        return errs;
      },
    }),
    finalize: finalizeSubresource(names),
  },
}));
