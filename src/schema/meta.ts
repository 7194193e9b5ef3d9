/**
 * The shared metadata types of `meta/v1`: ObjectMeta, ListMeta, OwnerReference, ManagedFieldsEntry,
 * LabelSelector, DeleteOptions. Protobuf numbers follow Kubernetes' published definitions.
 */
import { t, type Infer } from './dsl.js';

export const OwnerReference = t.struct('meta.v1.OwnerReference', {
  apiVersion: t.required(5, t.string(), { always: true }),
  kind: t.required(1, t.string(), { always: true }),
  name: t.required(3, t.string(), { always: true }),
  uid: t.required(4, t.string(), { always: true }),
  controller: t.field(6, t.bool(), { pointer: true }),
  blockOwnerDeletion: t.field(7, t.bool(), { pointer: true }),
}, { structType: 'atomic' });

export const ManagedFieldsEntry = t.struct('meta.v1.ManagedFieldsEntry', {
  manager: t.field(1, t.string()),
  operation: t.field(2, t.string()),
  apiVersion: t.field(3, t.string()),
  time: t.field(4, t.time(), { pointer: true }),
  fieldsType: t.field(6, t.string()),
  fieldsV1: t.field(7, t.raw({ name: 'meta.v1.FieldsV1' }), { pointer: true }),
  subresource: t.field(8, t.string()),
});

export const ObjectMeta = t.struct('meta.v1.ObjectMeta', {
  name: t.field(1, t.string()),
  generateName: t.field(2, t.string()),
  namespace: t.field(3, t.string()),
  selfLink: t.field(4, t.string()),
  uid: t.field(5, t.string()),
  resourceVersion: t.field(6, t.string()),
  generation: t.field(7, t.int64()),
  creationTimestamp: t.field(8, t.time()),
  deletionTimestamp: t.field(9, t.time(), { pointer: true }),
  deletionGracePeriodSeconds: t.field(10, t.int64(), { pointer: true }),
  labels: t.field(11, t.map(t.string())),
  annotations: t.field(12, t.map(t.string())),
  ownerReferences: t.field(13, t.list(OwnerReference, { listType: 'map', listMapKeys: ['uid'], patchStrategy: 'merge', patchMergeKey: 'uid' })),
  finalizers: t.field(14, t.list(t.string(), { listType: 'set', patchStrategy: 'merge' })),
  managedFields: t.field(17, t.list(ManagedFieldsEntry, { listType: 'atomic' })),
});
export type ObjectMeta = Infer<typeof ObjectMeta>;

export const ListMeta = t.struct('meta.v1.ListMeta', {
  selfLink: t.field(1, t.string()),
  resourceVersion: t.field(2, t.string()),
  continue: t.field(3, t.string()),
  remainingItemCount: t.field(4, t.int64(), { pointer: true }),
});
export type ListMeta = Infer<typeof ListMeta>;

export const LabelSelectorRequirement = t.struct('meta.v1.LabelSelectorRequirement', {
  key: t.required(1, t.string(), { always: true }),
  operator: t.required(2, t.string(), { always: true }),
  values: t.field(3, t.list(t.string(), { listType: 'atomic' })),
});

export const LabelSelector = t.struct('meta.v1.LabelSelector', {
  matchLabels: t.field(1, t.map(t.string())),
  matchExpressions: t.field(2, t.list(LabelSelectorRequirement, { listType: 'atomic' })),
}, { structType: 'atomic' });
export type LabelSelector = Infer<typeof LabelSelector>;

export const Preconditions = t.struct('meta.v1.Preconditions', {
  uid: t.field(1, t.string(), { pointer: true }),
  resourceVersion: t.field(2, t.string(), { pointer: true }),
});

export const DeleteOptions = t.struct('meta.v1.DeleteOptions', {
  kind: t.field(undefined, t.string()),
  apiVersion: t.field(undefined, t.string()),
  gracePeriodSeconds: t.field(1, t.int64(), { pointer: true }),
  preconditions: t.field(2, Preconditions, { pointer: true }),
  orphanDependents: t.field(3, t.bool(), { pointer: true }),
  propagationPolicy: t.field(4, t.string(), { pointer: true }),
  dryRun: t.field(5, t.list(t.string(), { listType: 'atomic' })),
});
export type DeleteOptions = Infer<typeof DeleteOptions>;

/** The fields every object kind has before its own: `apiVersion`, `kind`, `metadata`. */
export const objectHeader = {
  kind: t.field(undefined, t.string(), {
    description: 'The kind of object this is, in CamelCase (ConfigMap, Namespace). Clients may leave it out: the endpoint written to implies it.',
  }),
  apiVersion: t.field(undefined, t.string(), {
    description: 'The versioned schema this object is written in, as group/version (v1 for the core group). Servers read it to know how to decode the object.',
  }),
  metadata: t.field(1, ObjectMeta, { description: "The object's standard metadata: name, namespace, labels, annotations, resourceVersion and the rest." }),
} as const;

/** The TypeScript type of a kind's schema, with the metadata decoding always fills in. */
export type ObjectOf<S> = Infer<S> & { metadata: ObjectMeta };

/** Any stored object: the header plus whatever the kind adds. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}
