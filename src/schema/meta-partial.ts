/**
 * PartialObjectMetadata and its list (meta/v1): any object reduced to its metadata, which clients
 * ask for with `Accept: ...;as=PartialObjectMetadata;g=meta.<domain>;v=v1` (metadata informers,
 * garbage collectors). Protobuf numbers follow Kubernetes' published definitions.
 */
import { t } from './dsl.js';
import { ListMeta, ObjectMeta } from './meta.js';

export const PartialObjectMetadata = t.struct('meta.v1.PartialObjectMetadata', {
  kind: t.field(undefined, t.string()),
  apiVersion: t.field(undefined, t.string()),
  metadata: t.field(1, ObjectMeta),
}, { description: 'The metadata of an object of any kind.' });

export const PartialObjectMetadataList = t.struct('meta.v1.PartialObjectMetadataList', {
  kind: t.field(undefined, t.string()),
  apiVersion: t.field(undefined, t.string()),
  metadata: t.field(1, ListMeta),
  items: t.required(2, t.list(PartialObjectMetadata), { always: true }),
}, { description: 'A list of objects of one kind reduced to their metadata.' });
