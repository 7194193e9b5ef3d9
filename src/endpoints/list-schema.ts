/** The `<Kind>List` schema of a resource (metadata = 1, items = 2), made once per kind schema. */
import type { ResourceDefinition } from '../registry/define-resource.js';
import type { StructSchema } from '../schema/index.js';
import { listSchemaOf } from './openapi/api-model.js';

const lists = new WeakMap<StructSchema, StructSchema>();

export function listSchemaFor(def: Pick<ResourceDefinition, 'kind' | 'schema' | 'resource'>): StructSchema {
  let list = lists.get(def.schema);
  if (!list) lists.set(def.schema, (list = listSchemaOf(def)));
  return list;
}
