/**
 * The Swagger 2.0 document served at /openapi/v2: every served path and kind in one document, in
 * the shape Kubernetes publishes (definitions by package name, parameters inline, vendor
 * extensions for actions, kinds and merge markers).
 */
import type { ApiNames } from '../../machinery/api-names.js';
import type { ApiModel, OperationSpec, PathSpec } from './api-model.js';
import { comparePaths, defineKinds, infoObject, operationExtensions, type DocumentInfo } from './common.js';
import type { ParameterSpec } from './parameters.js';
import { SchemaConverter, type JsonObject } from './schema-convert.js';

function parameterV2(p: ParameterSpec): JsonObject {
  return { description: p.description, in: p.in, name: p.name, ...(p.required ? { required: true } : {}), type: p.type, uniqueItems: true };
}

function operationV2(conv: SchemaConverter, op: OperationSpec): JsonObject {
  const parameters: JsonObject[] = [];
  if (op.body) parameters.push({ in: 'body', name: 'body', ...(op.body.required ? { required: true } : {}), schema: conv.ref(op.body.schema) });
  parameters.push(...op.parameters.map(parameterV2));
  const responses: JsonObject = {};
  for (const r of op.responses) responses[r.code] = { description: r.description, schema: conv.ref(r.schema) };
  responses['401'] = { description: 'Unauthorized' };
  return {
    consumes: [...(op.body?.contentTypes ?? ['*/*'])],
    description: op.description,
    operationId: op.operationId,
    ...(parameters.length ? { parameters } : {}),
    produces: [...op.produces],
    responses,
    schemes: ['https'],
    tags: [...op.tags],
    ...operationExtensions(conv, op),
  };
}

function pathItemV2(conv: SchemaConverter, p: PathSpec): JsonObject {
  const item: JsonObject = {};
  for (const op of p.operations) item[op.method] = operationV2(conv, op);
  if (p.parameters.length) item.parameters = p.parameters.map(parameterV2);
  return item;
}

export function buildSwagger(names: ApiNames, model: ApiModel, info: DocumentInfo): JsonObject {
  const conv = new SchemaConverter(names, 2);
  defineKinds(conv, model, model.groupVersions);
  const paths: JsonObject = {};
  for (const p of model.groupVersions.flatMap((gv) => gv.paths).sort(comparePaths)) paths[p.path] = pathItemV2(conv, p);
  return {
    swagger: '2.0',
    info: infoObject(names, info),
    paths,
    definitions: conv.result(),
    securityDefinitions: { BearerToken: { description: 'Bearer token authentication', in: 'header', name: 'authorization', type: 'apiKey' } },
    security: [{ BearerToken: [] }],
  };
}
