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
  name: t.field(1, t.string(), { description: 'The name of the object, unique among objects of its kind in its namespace. Set on create and never changed.' }),
  generateName: t.field(2, t.string(), { description: 'When name is empty on create, the server makes one from this prefix and a random suffix.' }),
  namespace: t.field(3, t.string(), { description: 'The namespace the object lives in; empty for cluster-scoped kinds. Never changed.' }),
  selfLink: t.field(4, t.string(), { description: 'Deprecated and no longer set.' }),
  uid: t.field(5, t.string(), { description: 'A unique identity the server gives the object on create; a deleted and recreated object gets a new one. Read-only.' }),
  resourceVersion: t.field(6, t.string(), { description: 'An opaque value that changes on every write of the object; send it back on update for optimistic concurrency, or use it to watch from. Read-only.' }),
  generation: t.field(7, t.int64(), { description: 'A sequence number of changes to the desired state (spec), for kinds that track it. Read-only.' }),
  creationTimestamp: t.field(8, t.time(), { description: 'When the server created the object. Read-only.' }),
  deletionTimestamp: t.field(9, t.time(), { pointer: true, description: 'When the object was asked to be deleted; it is removed once its finalizers are gone. Read-only.' }),
  deletionGracePeriodSeconds: t.field(10, t.int64(), { pointer: true, description: 'The grace period granted when deletion was asked for. Read-only.' }),
  labels: t.field(11, t.map(t.string()), { description: 'Key-value pairs to select and group objects by (label selectors match on them).' }),
  annotations: t.field(12, t.map(t.string()), { description: 'Key-value pairs for tools and people to store data in; not used to select objects.' }),
  ownerReferences: t.field(13, t.list(OwnerReference, { listType: 'map', listMapKeys: ['uid'], patchStrategy: 'merge', patchMergeKey: 'uid' }), {
    description: 'The objects this one depends on; when every owner is gone, the object is garbage collected. At most one owner may be the controller.',
  }),
  finalizers: t.field(14, t.list(t.string(), { listType: 'set', patchStrategy: 'merge' }), {
    description: 'Work that must be done before the object is removed from storage: a deleted object stays until the list is empty.',
  }),
  managedFields: t.field(17, t.list(ManagedFieldsEntry, { listType: 'atomic' }), { description: 'Which manager owns which fields, for server-side apply. Mostly for the server\'s own use.' }),
}, { description: 'The metadata every persisted object has: identity, labels and annotations, ownership and lifecycle.' });
export type ObjectMeta = Infer<typeof ObjectMeta>;

export const ListMeta = t.struct('meta.v1.ListMeta', {
  selfLink: t.field(1, t.string(), { description: 'Deprecated and no longer set.' }),
  resourceVersion: t.field(2, t.string(), { description: 'The resource version the list was read at; watch from it to see every later change.' }),
  continue: t.field(3, t.string(), { description: 'Set when the list is a page and more objects remain: send it back as the continue parameter to get the next page.' }),
  remainingItemCount: t.field(4, t.int64(), { pointer: true, description: 'How many objects remain after this page, when the server knows. An estimate when the list is filtered.' }),
}, { description: 'The metadata of a list: its resource version and paging state.' });
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
