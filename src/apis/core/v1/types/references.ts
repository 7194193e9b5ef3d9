/** Object references shared by many core/v1 kinds. Protobuf numbers follow Kubernetes' core/v1. */
import { t, type Infer } from '../../../../schema/index.js';

export const ObjectReference = t.struct(
  'core.v1.ObjectReference',
  {
    kind: t.field(1, t.string()),
    namespace: t.field(2, t.string()),
    name: t.field(3, t.string()),
    uid: t.field(4, t.string()),
    apiVersion: t.field(5, t.string()),
    resourceVersion: t.field(6, t.string()),
    fieldPath: t.field(7, t.string()),
  },
  { structType: 'atomic' },
);
export type ObjectReference = Infer<typeof ObjectReference>;

export const LocalObjectReference = t.struct('core.v1.LocalObjectReference', { name: t.field(1, t.string()) }, { structType: 'atomic' });
export type LocalObjectReference = Infer<typeof LocalObjectReference>;

export const TypedLocalObjectReference = t.struct(
  'core.v1.TypedLocalObjectReference',
  {
    apiGroup: t.field(1, t.string(), { pointer: true }),
    kind: t.required(2, t.string(), { always: true }),
    name: t.required(3, t.string(), { always: true }),
  },
  { structType: 'atomic' },
);
export type TypedLocalObjectReference = Infer<typeof TypedLocalObjectReference>;

export const SecretReference = t.struct(
  'core.v1.SecretReference',
  {
    name: t.field(1, t.string()),
    namespace: t.field(2, t.string()),
  },
  { structType: 'atomic' },
);
