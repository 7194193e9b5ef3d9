/**
 * The OpenAPI 3.0 documents served under /openapi/v3: one per group-version, holding its paths and
 * the schemas they reach (components/schemas), in the shape Kubernetes publishes.
 */
import type { ApiNames } from '../../machinery/api-names.js';
import type { ApiModel, GroupVersionModel, OperationSpec, PathSpec } from './api-model.js';
import { comparePaths, defineKinds, infoObject, operationExtensions, type DocumentInfo } from './common.js';
import type { ParameterSpec } from './parameters.js';
import { SchemaConverter, type JsonObject } from './schema-convert.js';

function parameterV3(p: ParameterSpec): JsonObject {
  return { description: p.description, in: p.in, name: p.name, ...(p.required ? { required: true } : {}), schema: { type: p.type, uniqueItems: true } };
}

function content(types: readonly string[], schema: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const t of [...types].sort()) out[t] = { schema };
  return out;
}

function operationV3(conv: SchemaConverter, op: OperationSpec): JsonObject {
  const responses: JsonObject = {};
  for (const r of op.responses) responses[r.code] = { content: content(op.produces, conv.ref(r.schema)), description: r.description };
  responses['401'] = { description: 'Unauthorized' };
  return {
    description: op.description,
    operationId: op.operationId,
    ...(op.parameters.length ? { parameters: op.parameters.map(parameterV3) } : {}),
    ...(op.body ? { requestBody: { content: content(op.body.contentTypes, conv.ref(op.body.schema)), ...(op.body.required ? { required: true } : {}) } } : {}),
    responses,
    tags: [...op.tags],
    ...operationExtensions(conv, op),
  };
}

function pathItemV3(conv: SchemaConverter, p: PathSpec): JsonObject {
  const item: JsonObject = {};
  for (const op of p.operations) item[op.method] = operationV3(conv, op);
  if (p.parameters.length) item.parameters = p.parameters.map(parameterV3);
  return item;
}

export function buildOpenApiV3(names: ApiNames, model: ApiModel, gv: GroupVersionModel, info: DocumentInfo): JsonObject {
  const conv = new SchemaConverter(names, 3);
  defineKinds(conv, model, [gv]);
  const paths: JsonObject = {};
  for (const p of [...gv.paths].sort(comparePaths)) paths[p.path] = pathItemV3(conv, p);
  return {
    openapi: '3.0.0',
    info: infoObject(names, info),
    paths,
    components: {
      schemas: conv.result(),
      securitySchemes: { BearerToken: { description: 'Bearer token authentication', in: 'header', name: 'authorization', type: 'apiKey' } },
    },
    security: [{ BearerToken: [] }],
  };
}
