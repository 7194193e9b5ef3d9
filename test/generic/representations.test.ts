/**
 * Every built-in kind in every representation, over HTTP: each fixture is created from a JSON, a
 * YAML and a protobuf body, and each stored object is read back as JSON, YAML, protobuf and Table.
 * All bodies must describe the same object: the same object from any input, the same bytes' meaning
 * from any output. Runs under both domains, whose protobuf media types and Table groups differ.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { builtinResources } from '../../src/apis/index.js';
import { createApiNames, type ApiNames } from '../../src/machinery/api-names.js';
import { decodeProtobufObject, encodeProtobufObject } from '../../src/schema/protobuf/index.js';
import { ALL_VERBS, type ResourceDefinition } from '../../src/registry/define-resource.js';
import { decodeObject, type StructSchema } from '../../src/schema/index.js';
import { startTestServer, TEST_SERVER_CONTROLLERS, type TestServer } from '../helpers/server.js';
import { call } from '../protobuf/binary-client.js';

type Obj = Record<string, any>;

const canonical = (schema: StructSchema, v: unknown): Obj => decodeObject<Obj>(schema, v).value;

function collection(def: ResourceDefinition, ns: string): string {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  return def.namespaced ? `${base}/namespaces/${ns}/${def.resource}` : `${base}/${def.resource}`;
}

/** What two creates of one fixture share: everything but identity, timestamps and the bookkeeping of the write. */
function content(o: Obj): Obj {
  const { name: _n, uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, ...meta } = o.metadata;
  // A namespace carries its own name as a label.
  if (meta.labels) meta.labels = Object.fromEntries(Object.entries(meta.labels).filter(([, v]) => v !== o.metadata.name));
  const copy: Obj = { ...o, metadata: meta };
  // Event timestamps and allocated cluster IPs/ports differ between two creates by design.
  for (const k of ['eventTime', 'firstTimestamp', 'lastTimestamp']) delete copy[k];
  if (copy.spec?.clusterIP) copy.spec = { ...copy.spec, clusterIP: undefined, clusterIPs: undefined };
  if (copy.spec?.ports) copy.spec = { ...copy.spec, ports: copy.spec.ports.map((p: Obj) => ({ ...p, nodePort: undefined })) };
  // A Job's generated selector and template labels carry its own UID and name; a pod's token volume
  // (ServiceAccount admission) has a random name.
  const text = JSON.stringify(copy).split(o.metadata.uid).join('<uid>').split(o.metadata.name).join('<name>');
  return JSON.parse(text.replace(/"((kube-)?api-access-)[a-z0-9]{5}"/g, '"$1<random>"'));
}

describe.each(['orch.io', 'k8s.io'])('every kind in every representation (%s)', (domain) => {
  const names: ApiNames = createApiNames(domain);
  const PROTOBUF = names.protobufMediaType;
  const TABLE = `application/json;as=Table;g=${names.metaGroup};v=v1`;
  const definitions = builtinResources
    .map((f) => f(names, { names }))
    .filter((d) => d.fixture && ['create', 'get'].every((v) => (d.verbs ?? ALL_VERBS).includes(v as never)))
    // A controller writes a CRD's status right after its create, so two reads of it differ by design;
    // test/crd/crd-protobuf.test.ts covers its representations.
    .filter((d) => d.kind !== 'CustomResourceDefinition');
  const NS = 'representations';
  let s: TestServer;

  beforeAll(async () => {
    // APF off (it writes each FlowSchema's Dangling condition after its create) and no disruption
    // controller (it writes PDB status) nor quota controller (it fills a quota's status): each kind as stored and read back.
    s = await startTestServer({ apiDomain: domain, enablePriorityAndFairness: false, controllerManager: { controllers: [...TEST_SERVER_CONTROLLERS, '-disruption', '-resourcequota'] } });
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it.each(definitions.map((d) => [`${d.group || 'core'}/${d.version} ${d.kind}`, d] as const))('%s', async (_label, def) => {
    const apiVersion = def.group ? `${def.group}/${def.version}` : def.version;
    // A kind whose name follows its content (a CRD) names the objects the suite makes.
    const object = (raw: string): Obj => {
      const name = def.fixtureName?.(raw) ?? raw;
      const fixture = (def.fixture as (n?: string) => Obj)(name);
      return { ...fixture, apiVersion, kind: def.kind, metadata: { ...(fixture.metadata ?? {}), name } };
    };
    const base = `rt-${def.group.split('.')[0] || 'core'}-${def.singular}-${def.version}`.replace(/[^a-z0-9-]/g, '-');
    const coll = collection(def, NS);

    const bodies: Record<string, { body: string | Uint8Array; contentType: string }> = {
      json: { body: JSON.stringify(object(`${base}-json`)), contentType: 'application/json' },
      yaml: { body: stringifyYaml(object(`${base}-yaml`)), contentType: 'application/yaml' },
      protobuf: { body: encodeProtobufObject(def.schema, object(`${base}-protobuf`)), contentType: PROTOBUF },
    };
    const created: Record<string, Obj> = {};
    for (const [input, { body, contentType }] of Object.entries(bodies)) {
      const r = await call(s.url, 'POST', coll, { body, contentType, accept: 'application/json' });
      expect(r.status, `${input} create: ${r.raw.toString()}`).toBe(201);
      created[input] = r.json;
    }
    // The same fixture arrives as the same object whatever it was written in.
    expect(content(created.yaml!)).toEqual(content(created.json!));
    expect(content(created.protobuf!)).toEqual(content(created.json!));

    for (const input of Object.keys(bodies)) {
      const path = `${coll}/${created[input]!.metadata.name}`;
      const json = await call(s.url, 'GET', path, { accept: 'application/json' });
      expect(json.status).toBe(200);
      expect(json.json).toEqual(created[input]);

      const yaml = await call(s.url, 'GET', path, { accept: 'application/yaml' });
      expect(yaml.headers['content-type']).toContain('application/yaml');
      expect(parseYaml(yaml.raw.toString('utf8'))).toEqual(json.json);

      const pb = await call(s.url, 'GET', path, { accept: PROTOBUF });
      expect(pb.headers['content-type']).toContain(PROTOBUF);
      // Protobuf cannot tell an empty value from an absent one; decoding as the server does settles it.
      expect(canonical(def.schema, decodeProtobufObject(def.schema, pb.raw))).toEqual(canonical(def.schema, json.json));

      const table = await call(s.url, 'GET', path, { accept: TABLE });
      expect(table.status, table.raw.toString()).toBe(200);
      expect(table.json.kind).toBe('Table');
      expect(table.json.apiVersion).toBe(`${names.metaGroup}/v1`);
      expect(table.json.rows).toHaveLength(1);
      expect(table.json.rows[0].cells).toHaveLength(table.json.columnDefinitions.length);
      expect(table.json.rows[0].object.metadata.name).toBe(json.json.metadata.name);
    }
  });
});
