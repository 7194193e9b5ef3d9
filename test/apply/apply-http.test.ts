/**
 * The apply endpoint over HTTP (PATCH with application/apply-patch+yaml) and managedFields on
 * every other write: options and their errors, bodies apply refuses, create by apply, dry run,
 * force, /status, the default manager from the User-Agent, and timestamps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';
import { APPLY_GROUP, APPLY_TEST_RESOURCES } from './kinds.js';

const APPLY = 'application/apply-patch+yaml';
const MARKERS = `/apis/${APPLY_GROUP}/v1/namespaces/default/markers`;
const CM = '/api/v1/namespaces/default/configmaps';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ resources: APPLY_TEST_RESOURCES });
});
afterAll(async () => {
  await s.close();
});

function marker(name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: `${APPLY_GROUP}/v1`, kind: 'Marker', metadata: { name }, spec, ...extra };
}

function expectStatus(r: Reply, code: number, reason: string): any {
  expect(r.status, r.text).toBe(code);
  expect(r.body.kind).toBe('Status');
  expect(r.body.reason).toBe(reason);
  return r.body;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('apply options', () => {
  it('requires fieldManager (422 naming PatchOptions)', async () => {
    const st = expectStatus(await s.patch(`${MARKERS}/opt`, marker('opt', { replicas: 2 }), APPLY), 422, 'Invalid');
    expect(st.message).toBe('PatchOptions.meta.orch.io "" is invalid: fieldManager: Required value: is required for apply patch');
    expect(st.details.causes).toEqual([{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }]);
    expect((await s.get(`${MARKERS}/opt`)).status).toBe(404);
  });

  it('refuses a fieldManager longer than 128 characters or with unprintable characters, on every write', async () => {
    const long = 'm'.repeat(129);
    let st = expectStatus(await s.patch(`${MARKERS}/opt?fieldManager=${long}`, marker('opt', {}), APPLY), 422, 'Invalid');
    expect(st.message).toBe('PatchOptions.meta.orch.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
    st = expectStatus(await s.patch(`${MARKERS}/opt?fieldManager=a%07b`, marker('opt', {}), APPLY), 422, 'Invalid');
    expect(st.message).toBe('PatchOptions.meta.orch.io "" is invalid: fieldManager: Invalid value: "a\\u0007b": invalid character U+0007 (at position 1)');
    st = expectStatus(await s.post(`${CM}?fieldManager=${long}`, { metadata: { name: 'long' } }), 422, 'Invalid');
    expect(st.message).toContain('CreateOptions.meta.orch.io "" is invalid: fieldManager: Too long');
    // 128 is fine.
    expect((await s.post(`${CM}?fieldManager=${'m'.repeat(128)}`, { metadata: { name: 'ok128' } })).status).toBe(201);
  });

  it('takes force only as a boolean', async () => {
    const st = expectStatus(await s.patch(`${MARKERS}/opt?fieldManager=m&force=maybe`, marker('opt', {}), APPLY), 400, 'BadRequest');
    expect(st.message).toContain('force');
  });
});

describe('apply bodies', () => {
  it('takes YAML and JSON', async () => {
    const yaml = `apiVersion: ${APPLY_GROUP}/v1\nkind: Marker\nmetadata:\n  name: yaml\nspec:\n  replicas: 4\n  tags: [a, b]\n`;
    const r = await s.patch(`${MARKERS}/yaml?fieldManager=m`, yaml, APPLY);
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec).toEqual({ replicas: 4, tags: ['a', 'b'] });
    const j = await s.patch(`${MARKERS}/yaml?fieldManager=m`, marker('yaml', { replicas: 5, tags: ['a', 'b'] }), APPLY);
    expect(j.status).toBe(200);
    expect(j.body.spec.replicas).toBe(5);
  });

  it('refuses managedFields in the body (null is no value)', async () => {
    const st = expectStatus(await s.patch(`${MARKERS}/mf?fieldManager=m`, marker('mf', {}, { metadata: { name: 'mf', managedFields: [] } }), APPLY), 400, 'BadRequest');
    expect(st.message).toBe('metadata.managedFields must be nil');
    expect((await s.get(`${MARKERS}/mf`)).status).toBe(404);
    expect((await s.patch(`${MARKERS}/mf?fieldManager=m`, marker('mf', {}, { metadata: { name: 'mf', managedFields: null } }), APPLY)).status).toBe(201);
  });

  it('needs the apiVersion and kind of the endpoint', async () => {
    let st = expectStatus(await s.patch(`${MARKERS}/gvk?fieldManager=m`, { ...marker('gvk', {}), apiVersion: `${APPLY_GROUP}/v2` }, APPLY), 400, 'BadRequest');
    expect(st.message).toBe(`invalid object type: ${APPLY_GROUP}/v2, Kind=Marker`);
    st = expectStatus(await s.patch(`${MARKERS}/gvk?fieldManager=m`, { metadata: { name: 'gvk' } }, APPLY), 400, 'BadRequest');
    expect(st.message).toBe('invalid object type: /, Kind=');
    st = expectStatus(await s.patch(`${CM}/gvk?fieldManager=m`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'gvk' } }, APPLY), 400, 'BadRequest');
    expect(st.message).toBe('invalid object type: /v1, Kind=Secret');
  });

  it('refuses fields the schema does not declare and values of the wrong type, naming each path', async () => {
    const st = expectStatus(await s.patch(`${MARKERS}/typed?fieldManager=m`, marker('typed', { replicas: 'three', bogus: true }), APPLY), 400, 'BadRequest');
    expect(st.message).toBe(
      `failed to create typed patch object (/typed; ${APPLY_GROUP}/v1, Kind=Marker): errors:\n  .spec.replicas: expected numeric (int or float), got string\n  .spec.bogus: field not declared in schema`,
    );
    expect((await s.get(`${MARKERS}/typed`)).status).toBe(404);
  });

  it('acts on repeated keys as fieldValidation says: Strict refuses, Warn warns, Ignore takes the last', async () => {
    const yaml = `apiVersion: ${APPLY_GROUP}/v1\nkind: Marker\nmetadata:\n  name: dup\nspec:\n  replicas: 1\n  replicas: 2\n`;
    const st = expectStatus(await s.patch(`${MARKERS}/dup?fieldManager=m&fieldValidation=Strict`, yaml, APPLY), 400, 'BadRequest');
    expect(st.message).toBe('error strict decoding YAML: yaml: unmarshal errors:\n  line 7: key "replicas" already set in map');
    expect((await s.get(`${MARKERS}/dup`)).status).toBe(404);
    const warned = await s.patch(`${MARKERS}/dup?fieldManager=m`, yaml, APPLY);
    expect(warned.status).toBe(201);
    expect(warned.headers.warning).toBe('299 - "line 7: key \\"replicas\\" already set in map"');
    expect(warned.body.spec.replicas).toBe(2);
    const ignored = await s.patch(`${MARKERS}/dup?fieldManager=m&fieldValidation=Ignore`, yaml, APPLY);
    expect(ignored.status).toBe(200);
    expect(ignored.headers.warning).toBeUndefined();
  });

  it('refuses bodies that are not a YAML mapping, and names that differ from the URL', async () => {
    expect(expectStatus(await s.patch(`${MARKERS}/bad?fieldManager=m`, 'a: [1', APPLY), 400, 'BadRequest').message).toMatch(/^error decoding YAML: /);
    expect(expectStatus(await s.patch(`${MARKERS}/bad?fieldManager=m`, '- 1\n- 2\n', APPLY), 400, 'BadRequest').message).toBe(
      'error decoding YAML: cannot unmarshal array into Go value of type map[string]interface {}',
    );
    expect(expectStatus(await s.patch(`${MARKERS}/bad?fieldManager=m`, marker('other', {}), APPLY), 400, 'BadRequest').message).toBe(
      'the name of the object (other) does not match the name on the URL (bad)',
    );
    expect((await s.get(`${MARKERS}/bad`)).status).toBe(404);
  });
});

describe('apply', () => {
  it('creates (201), then answers 200; an apply that changes nothing does not write', async () => {
    const created = await s.patch(`${MARKERS}/create?fieldManager=m`, marker('create', { replicas: 2 }), APPLY);
    expect(created.status).toBe(201);
    expect(created.body.metadata.uid).toBeTruthy();
    const [entry] = created.body.metadata.managedFields;
    expect(entry).toMatchObject({ manager: 'm', operation: 'Apply', apiVersion: `${APPLY_GROUP}/v1`, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    expect(entry.time).toMatch(RFC3339);
    expect(entry.subresource).toBeUndefined();
    const again = await s.patch(`${MARKERS}/create?fieldManager=m`, marker('create', { replicas: 2 }), APPLY);
    expect(again.status).toBe(200);
    expect(again.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
  });

  it('answers conflicts with 409, one cause per field, and force=true takes them over', async () => {
    await s.patch(`${MARKERS}/force?fieldManager=a`, marker('force', { replicas: 2, paused: true }), APPLY);
    const st = expectStatus(await s.patch(`${MARKERS}/force?fieldManager=b`, marker('force', { replicas: 3, paused: false }), APPLY), 409, 'Conflict');
    expect(st.message).toBe('Apply failed with 2 conflicts: conflicts with "a":\n- .spec.paused\n- .spec.replicas');
    expect(st.details).toEqual({
      causes: [
        { reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.paused' },
        { reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.replicas' },
      ],
    });
    const forced = await s.patch(`${MARKERS}/force?fieldManager=b&force=true`, marker('force', { replicas: 3 }), APPLY);
    expect(forced.status).toBe(200);
    expect(forced.body.spec).toEqual({ replicas: 3, paused: true });
    expect(forced.body.metadata.managedFields.map((e: any) => [e.manager, e.fieldsV1])).toEqual([
      ['a', { 'f:spec': { 'f:paused': {} } }],
      ['b', { 'f:spec': { 'f:replicas': {} } }],
    ]);
  });

  it('dry run: answers what would be stored, stores nothing, creates nothing', async () => {
    const dry = await s.patch(`${MARKERS}/dry?fieldManager=m&dryRun=All`, marker('dry', { replicas: 7 }), APPLY);
    expect(dry.status).toBe(201);
    expect(dry.body.spec.replicas).toBe(7);
    expect(dry.body.metadata.managedFields[0].manager).toBe('m');
    expect((await s.get(`${MARKERS}/dry`)).status).toBe(404);
    const live = await s.patch(`${MARKERS}/dry?fieldManager=m`, marker('dry', { replicas: 1 }), APPLY);
    const dry2 = await s.patch(`${MARKERS}/dry?fieldManager=other&dryRun=All`, marker('dry', { paused: true }), APPLY);
    expect(dry2.status).toBe(200);
    expect(dry2.body.spec).toEqual({ replicas: 1, paused: true });
    expect(dry2.body.metadata.managedFields).toHaveLength(2);
    expect((await s.get(`${MARKERS}/dry`)).body).toEqual(live.body);
    // A conflict is found under dry run too.
    expectStatus(await s.patch(`${MARKERS}/dry?fieldManager=other&dryRun=All`, marker('dry', { replicas: 9 }), APPLY), 409, 'Conflict');
  });

  it('applies to /status of an existing object only, recording the subresource', async () => {
    expectStatus(await s.patch(`${MARKERS}/st/status?fieldManager=m`, marker('st', {}, { status: { phase: 'Up' } }), APPLY), 404, 'NotFound');
    await s.patch(`${MARKERS}/st?fieldManager=m`, marker('st', { replicas: 1 }), APPLY);
    const r = await s.patch(`${MARKERS}/st/status?fieldManager=m`, marker('st', {}, { status: { phase: 'Up' } }), APPLY);
    expect(r.status).toBe(200);
    expect(r.body.status).toEqual({ phase: 'Up' });
    expect(r.body.metadata.managedFields.map((e: any) => [e.manager, e.operation, e.subresource])).toEqual([
      ['m', 'Apply', undefined],
      ['m', 'Apply', 'status'],
    ]);
  });

  it('works on a built-in kind (ConfigMap), merging data by key between managers', async () => {
    const cm = (data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-ssa' }, data });
    expect((await s.patch(`${CM}/cm-ssa?fieldManager=one`, cm({ a: '1' }), APPLY)).status).toBe(201);
    const r = await s.patch(`${CM}/cm-ssa?fieldManager=two`, cm({ b: '2' }), APPLY);
    expect(r.body.data).toEqual({ a: '1', b: '2' });
    const dropped = await s.patch(`${CM}/cm-ssa?fieldManager=one`, cm({}), APPLY);
    expect(dropped.body.data).toEqual({ b: '2' });
  });
});

describe('managedFields on other writes', () => {
  it('POST, PUT and PATCH record Update entries; without fieldManager the User-Agent names the manager, else "unknown"', async () => {
    const created = await s.post(`${CM}`, { metadata: { name: 'ua' }, data: { a: '1' } }, { headers: { 'user-agent': 'my-tool/1.0 (linux)' } });
    expect(created.status).toBe(201);
    expect(created.body.metadata.managedFields).toEqual([
      { manager: 'my-tool', operation: 'Update', apiVersion: 'v1', time: expect.stringMatching(RFC3339), fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } } },
    ]);
    const put = await s.put(`${CM}/ua?fieldManager=putter`, { ...created.body, data: { a: '1', b: '2' } });
    expect(put.body.metadata.managedFields.map((e: any) => [e.manager, e.fieldsV1])).toEqual([
      ['my-tool', { 'f:data': { '.': {}, 'f:a': {} } }],
      ['putter', { 'f:data': { 'f:b': {} } }],
    ].sort((x, y) => (x[0] as string).localeCompare(y[0] as string)));
    const patched = await s.patch(`${CM}/ua`, [{ op: 'add', path: '/data/c', value: '3' }], 'application/json-patch+json');
    expect(patched.body.metadata.managedFields.map((e: any) => e.manager).sort()).toEqual(['my-tool', 'putter', 'unknown']);
  });

  it('a write that changes nothing keeps the entries and the resourceVersion', async () => {
    const created = await s.post(`${CM}?fieldManager=w`, { metadata: { name: 'same' }, data: { a: '1' } });
    const put = await s.put(`${CM}/same?fieldManager=other`, created.body);
    expect(put.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    expect(put.body.metadata.managedFields).toEqual(created.body.metadata.managedFields);
  });

  it('dry-run writes answer with managedFields and store nothing', async () => {
    const dry = await s.post(`${CM}?fieldManager=w&dryRun=All`, { metadata: { name: 'drycm' }, data: { a: '1' } });
    expect(dry.body.metadata.managedFields[0].manager).toBe('w');
    expect((await s.get(`${CM}/drycm`)).status).toBe(404);
  });

  it('list answers carry the stored managedFields', async () => {
    await s.post(`${CM}?fieldManager=lister`, { metadata: { name: 'listed' }, data: { a: '1' } });
    const list = await s.get(CM);
    const item = list.body.items.find((i: any) => i.metadata.name === 'listed');
    expect(item.metadata.managedFields[0].manager).toBe('lister');
  });
});

describe('view subresources', () => {
  it('a write to /scale is recorded on the parent as an Update with subresource "scale"', async () => {
    await s.patch(`${MARKERS}/scaled?fieldManager=owner`, marker('scaled', { replicas: 2, paused: true }), APPLY);
    const r = await s.patch(`${MARKERS}/scaled/scale?fieldManager=hpa`, { spec: { replicas: 6 } }, 'application/merge-patch+json');
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.replicas).toBe(6);
    const parent = (await s.get(`${MARKERS}/scaled`)).body;
    expect(parent.metadata.managedFields.map((e: any) => [e.manager, e.operation, e.apiVersion, e.subresource, e.fieldsV1])).toEqual([
      ['owner', 'Apply', `${APPLY_GROUP}/v1`, undefined, { 'f:spec': { 'f:paused': {} } }],
      ['hpa', 'Update', `${APPLY_GROUP}/v1`, 'scale', { 'f:spec': { 'f:replicas': {} } }],
    ]);
    // The owner applying its old value now conflicts with the scaler.
    const st = expectStatus(await s.patch(`${MARKERS}/scaled?fieldManager=owner`, marker('scaled', { replicas: 2, paused: true }), APPLY), 409, 'Conflict');
    expect(st.message).toBe(`Apply failed with 1 conflict: conflict with "hpa" with subresource "scale" using ${APPLY_GROUP}/v1: .spec.replicas`);
  });
});
