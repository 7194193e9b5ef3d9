/** The CRD itself has a protobuf form, as every built-in kind; its custom objects do not. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiNames } from '../../src/machinery/api-names.js';
import { decodeProtobufObject, encodeProtobufObject } from '../../src/schema/protobuf/index.js';
import { crdSchema } from '../../src/apis/apiextensions/v1/types.js';
import { decodeObject } from '../../src/schema/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call } from '../protobuf/binary-client.js';
import { CRDS, cronTabCrd } from './fixtures.js';

const names = createApiNames();
const PROTOBUF = names.protobufMediaType;

describe('CustomResourceDefinition in protobuf', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('creates from protobuf and reads back in protobuf, the same object as JSON', async () => {
    const crd = cronTabCrd();
    const schema = crdSchema(names);
    const body = encodeProtobufObject(schema, crd);
    const created = await call(s.url, 'POST', CRDS, { body, contentType: PROTOBUF, accept: 'application/json' });
    expect(created.status, created.raw.toString()).toBe(201);
    const asJson = await s.get(`${CRDS}/crontabs.stable.example.com`);
    expect(asJson.body.spec).toEqual(created.json.spec);
    expect(asJson.body.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.replicas).toEqual({ type: 'integer', minimum: 1, maximum: 10, default: 1 });
    const pb = await call(s.url, 'GET', `${CRDS}/crontabs.stable.example.com`, { accept: PROTOBUF });
    expect(pb.status).toBe(200);
    expect(String(pb.headers['content-type'])).toContain(PROTOBUF);
    // Protobuf cannot tell an empty value from an absent one; decoding as the server does settles it.
    const canonical = (v: unknown): unknown => decodeObject<{ spec: unknown }>(schema, v).value.spec;
    expect(canonical(decodeProtobufObject(schema, pb.raw))).toEqual(canonical(asJson.body));
  });
});
