/**
 * The gnostic protobuf form of /openapi/v2, checked with an independent decoder (protobufjs and a
 * .proto written from gnostic's field numbers): decoding and reading it back as JSON gives exactly
 * the JSON document the server serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeSwaggerProtobuf } from '../../src/endpoints/openapi/index.js';
import type { JsonObject } from '../../src/endpoints/openapi/schema-convert.js';
import { httpCall, startTestServer, type TestServer } from '../helpers/server.js';
import { decodeGnosticDocument, documentToJson } from './gnostic.js';

const PB = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const PB_NEW = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

async function getBytes(url: string, path: string, accept: string): Promise<{ status: number; type: string | undefined; body: Buffer }> {
  const res = await fetch(new URL(path, url), { headers: { accept } });
  return { status: res.status, type: res.headers.get('content-type') ?? undefined, body: Buffer.from(await res.arrayBuffer()) };
}

describe('encodeSwaggerProtobuf', () => {
  it('encodes every parameter, response and schema form a Swagger document may use', () => {
    const doc: JsonObject = {
      swagger: '2.0',
      info: { title: 'T', version: 'v9', 'x-info': { a: [1, 'two'] } },
      paths: {
        'x-paths-ext': true,
        '/things/{name}': {
          parameters: [
            { in: 'path', name: 'name', required: true, type: 'string', uniqueItems: true, description: 'the name' },
            { $ref: '#/parameters/shared' },
          ],
          get: {
            operationId: 'readThing',
            tags: ['t'],
            consumes: ['*/*'],
            produces: ['application/json'],
            schemes: ['https'],
            deprecated: true,
            parameters: [
              { in: 'query', name: 'limit', type: 'integer', default: 5, enum: [5, 10] },
              { in: 'header', name: 'X-Trace', type: 'string' },
              { in: 'formData', name: 'f', type: 'string', allowEmptyValue: true },
              { in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/Thing' } },
            ],
            responses: {
              '200': { description: 'OK', schema: { $ref: '#/definitions/Thing' } },
              '404': { $ref: '#/responses/missing' },
              'x-responses-ext': 'yes',
            },
            'x-kubernetes-action': 'get',
            'x-kubernetes-group-version-kind': { group: '', kind: 'Thing', version: 'v1' },
          },
        },
      },
      definitions: {
        Thing: {
          description: 'a thing',
          type: 'object',
          required: ['spec'],
          properties: {
            spec: { $ref: '#/definitions/Spec', description: 'the spec' },
            'x-literal-property': { type: 'string' },
            tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
            labels: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'granular' },
            open: { type: 'object', additionalProperties: true },
            mode: { type: 'string', enum: ['A', 'B'], default: 'A', example: 'B' },
            size: { type: 'number', format: 'double', minimum: -1.5, maximum: 2.25, multipleOf: 0.25 },
            name: { type: 'string', maxLength: 63, minLength: 1, pattern: '^[a-z]+$' },
            both: { allOf: [{ $ref: '#/definitions/Spec' }], readOnly: true },
            tuple: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], minItems: 2, maxItems: 2 },
          },
          'x-kubernetes-group-version-kind': [{ group: '', kind: 'Thing', version: 'v1' }],
        },
        Spec: { type: ['object', 'null'], maxProperties: 3, minProperties: 1 },
      },
      securityDefinitions: {
        BearerToken: { type: 'apiKey', name: 'authorization', in: 'header', description: 'bearer' },
        Basic: { type: 'basic' },
      },
      security: [{ BearerToken: [] }, { Basic: ['scope-a', 'scope-b'] }],
      'x-document-ext': { nested: { deep: 'value' } },
    };
    const decoded = documentToJson(decodeGnosticDocument(encodeSwaggerProtobuf(doc)));
    expect(decoded).toEqual(doc);
  });

  it('leaves out proto3 default values, as protobuf marshalers do', () => {
    const buf = encodeSwaggerProtobuf({ swagger: '', host: '', info: { title: '', version: 'v' } });
    // Only info (field 2) with its version (field 2) is written: 12 03 12 01 76.
    expect(buf.toString('hex')).toBe('1203120176');
  });
});

describe.each(['orch.io', 'k8s.io'])('GET /openapi/v2 as protobuf under %s', (apiDomain) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain });
  });
  afterAll(() => s.close());

  it.each([PB, PB_NEW])('answers Accept: %s with the gnostic Document of the JSON document', async (accept) => {
    const json = await httpCall(s.url, 'GET', '/openapi/v2', { headers: { accept: 'application/json' } });
    expect(json.status).toBe(200);
    const pb = await getBytes(s.url, '/openapi/v2', accept);
    expect(pb.status).toBe(200);
    expect(pb.type).toBe(PB_NEW);
    const decoded = documentToJson(decodeGnosticDocument(pb.body));
    expect(decoded).toEqual(json.body);
    // Spot checks of what clients read from it.
    const prefix = apiDomain === 'k8s.io' ? 'x-kubernetes-' : 'x-orch-';
    const op = decoded.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].patch;
    expect(op[`${prefix}group-version-kind`]).toEqual({ group: '', kind: 'ConfigMap', version: 'v1' });
    expect(op.parameters.map((p: any) => p.name)).toContain('fieldValidation');
  });
});
