import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall, startTestServer, type TestServer } from '../helpers/server.js';
import { request as httpRequest } from 'node:http';
import { CM, expectStatus, GADGETS, gadgetNames, makeNamespace, NAMESPACES, TEST_RESOURCES, warningsOf } from './fixtures.js';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe('create (POST)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ resources: TEST_RESOURCES, maxRequestBodyBytes: 4096 });
  });
  afterAll(() => s.close());

  it('answers 201 with the stored object and its system fields', async () => {
    const r = await s.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain' }, data: { a: 'b' } });
    expect(r.status).toBe(201);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain', namespace: 'default' }, data: { a: 'b' } });
    expect(r.body.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(r.body.metadata.creationTimestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(r.body.metadata.resourceVersion).toMatch(/^\d+$/);
    const g = await s.get(`${CM}/plain`);
    expect(g.body).toEqual(r.body);
  });

  it('fills apiVersion and kind when the body leaves them out', async () => {
    const r = await s.post(CM, { metadata: { name: 'no-type-meta' } });
    expect(r.status).toBe(201);
    expect(r.body.apiVersion).toBe('v1');
    expect(r.body.kind).toBe('ConfigMap');
  });

  it('ignores system fields the client sends', async () => {
    const sent = {
      metadata: {
        name: 'sysfields',
        uid: 'client-chosen-uid',
        resourceVersion: '999999',
        creationTimestamp: '2001-01-01T00:00:00Z',
        deletionTimestamp: '2001-01-02T00:00:00Z',
        deletionGracePeriodSeconds: 30,
        selfLink: '/api/v1/bogus',
      },
    };
    const r = await s.post(CM, sent);
    expect(r.status, r.text).toBe(201);
    const m = r.body.metadata;
    expect(m.uid).not.toBe('client-chosen-uid');
    expect(m.resourceVersion).not.toBe('999999');
    expect(m.creationTimestamp).not.toBe('2001-01-01T00:00:00Z');
    expect(m.deletionTimestamp).toBeUndefined();
    expect(m.deletionGracePeriodSeconds).toBeUndefined();
    expect(m.selfLink).toBeUndefined();
    const g = await s.get(`${CM}/sysfields`);
    expect(g.body.metadata.uid).toBe(m.uid);
    expect(g.body.metadata.deletionTimestamp).toBeUndefined();
    // Not marked for deletion: a plain delete removes it at once.
    expect((await s.del(`${CM}/sysfields`)).body.status).toBe('Success');
  });

  describe('generateName', () => {
    it('produces a valid name from the prefix', async () => {
      const names = new Set<string>();
      for (let i = 0; i < 5; i++) {
        const r = await s.post(CM, { metadata: { generateName: 'gen-' } });
        expect(r.status, r.text).toBe(201);
        expect(r.body.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
        expect(r.body.metadata.generateName).toBe('gen-');
        names.add(r.body.metadata.name);
        expect((await s.get(`${CM}/${r.body.metadata.name}`)).status).toBe(200);
      }
      expect(names.size).toBe(5);
    });

    it('prefers an explicit name over generateName', async () => {
      const r = await s.post(CM, { metadata: { name: 'explicit', generateName: 'gen-' } });
      expect(r.body.metadata.name).toBe('explicit');
    });

    it('cuts a long prefix so the name stays within 63 characters', async () => {
      const r = await s.post(CM, { metadata: { generateName: `${'p'.repeat(80)}-` } });
      expect(r.status, r.text).toBe(201);
      expect(r.body.metadata.name).toHaveLength(63);
      expect(r.body.metadata.name.startsWith('p'.repeat(58))).toBe(true);
    });

    it('rejects an invalid prefix with causes for generateName and name', async () => {
      const r = await s.post(CM, { metadata: { generateName: 'Bad_' } });
      const st = expectStatus(r, 422, 'Invalid');
      const fields = st.details.causes.map((c: any) => c.field);
      expect(fields).toContain('metadata.generateName');
    });

    it('tries another name when the generated one is taken', async () => {
      gadgetNames.push('aaaaa');
      const first = await s.post(GADGETS, { metadata: { generateName: 'g-' } });
      expect(first.status, first.text).toBe(201);
      expect(first.body.metadata.name).toBe('g-aaaaa');
      gadgetNames.push('aaaaa', 'aaaaa', 'bbbbb');
      const second = await s.post(GADGETS, { metadata: { generateName: 'g-' } });
      expect(second.status, second.text).toBe(201);
      expect(second.body.metadata.name).toBe('g-bbbbb');
    });

    it('gives up with AlreadyExists and Retry-After when every candidate is taken', async () => {
      gadgetNames.push('ccccc');
      expect((await s.post(GADGETS, { metadata: { generateName: 'g-' } })).status).toBe(201);
      // The generator keeps answering ccccc.
      const r = await s.post(GADGETS, { metadata: { generateName: 'g-' } });
      const st = expectStatus(r, 409, 'AlreadyExists');
      expect(st.message).toBe(`gadgets.widgets.example.com "g-ccccc" already exists, the server was not able to generate a unique name for the object`);
      expect(st.details).toMatchObject({ name: 'g-ccccc', group: 'widgets.example.com', kind: 'gadgets', retryAfterSeconds: 1 });
      expect(r.headers['retry-after']).toBe('1');
    });
  });

  describe('names', () => {
    it('rejects an invalid ConfigMap name with one cause, in Kubernetes words', async () => {
      const r = await s.post(CM, { metadata: { name: 'Foo' } });
      const st = expectStatus(r, 422, 'Invalid');
      expect(st.message).toBe(`ConfigMap "Foo" is invalid: metadata.name: Invalid value: "Foo": ${SUBDOMAIN_MSG}`);
      expect(st.details).toEqual({
        name: 'Foo',
        kind: 'ConfigMap',
        causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "Foo": ${SUBDOMAIN_MSG}`, field: 'metadata.name' }],
      });
    });

    it('allows dots in ConfigMap names (subdomain) but not in Namespace names (label)', async () => {
      expect((await s.post(CM, { metadata: { name: 'a.b.c' } })).status).toBe(201);
      const r = await s.post(NAMESPACES, { metadata: { name: 'a.b' } });
      const st = expectStatus(r, 422, 'Invalid');
      expect(st.message).toBe(`Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": ${LABEL_MSG}`);
    });

    it('rejects a name over 253 characters', async () => {
      const name = 'a'.repeat(254);
      const st = expectStatus(await s.post(CM, { metadata: { name } }), 422, 'Invalid');
      expect(st.details.causes[0]).toMatchObject({ field: 'metadata.name', reason: 'FieldValueInvalid' });
      expect(st.details.causes[0].message).toContain('must be no more than 253 characters');
    });

    it('gives one cause per field error, all in one message', async () => {
      const r = await s.post(CM, { metadata: { name: 'Two', labels: { 'bad key!': 'v' } }, data: { 'bad key': 'x' } });
      const st = expectStatus(r, 422, 'Invalid');
      const fields = st.details.causes.map((c: any) => c.field);
      expect(fields).toEqual(['metadata.name', 'metadata.labels', 'data[bad key]']);
      expect(st.message).toMatch(/^ConfigMap "Two" is invalid: \[metadata\.name: Invalid value: "Two": .*, metadata\.labels: Invalid value: "bad key!": .*, data\[bad key\]: Invalid value: "bad key": .*\]$/);
    });

    it('reports bad finalizers on the list path, as Kubernetes does', async () => {
      const st = expectStatus(await s.post(CM, { metadata: { name: 'bad-fins', finalizers: ['ok.example.com/x', 'bad/name/here', 'orphan', 'foregroundDeletion'] } }), 422, 'Invalid');
      expect(st.details.causes.map((c: any) => c.field)).toEqual(['metadata.finalizers', 'metadata.finalizers']);
      expect(st.details.causes[1].message).toMatch(/^Invalid value: .*: finalizer orphan and foregroundDeletion cannot be both set$/);
    });

    it('requires a name or generateName', async () => {
      const st = expectStatus(await s.post(CM, { metadata: {} }), 422, 'Invalid');
      expect(st.message).toBe('ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
      expect(st.details.causes).toEqual([{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }]);
    });
  });

  describe('namespaces', () => {
    it('fills the namespace from the URL', async () => {
      await makeNamespace(s, 'fill-ns');
      const r = await s.post('/api/v1/namespaces/fill-ns/configmaps', { metadata: { name: 'x' } });
      expect(r.body.metadata.namespace).toBe('fill-ns');
    });

    it('refuses a body namespace that differs from the URL', async () => {
      const r = await s.post(CM, { metadata: { name: 'other-ns', namespace: 'orch-system' } });
      const st = expectStatus(r, 400, 'BadRequest');
      expect(st.message).toBe('the namespace of the provided object does not match the namespace sent on the request');
      expect((await s.get('/api/v1/namespaces/orch-system/configmaps/other-ns')).status).toBe(404);
    });

    it('accepts a body namespace equal to the URL', async () => {
      expect((await s.post(CM, { metadata: { name: 'same-ns', namespace: 'default' } })).status).toBe(201);
    });

    it('answers 404 for a namespace that does not exist', async () => {
      const r = await s.post('/api/v1/namespaces/no-such-ns/configmaps', { metadata: { name: 'x' } });
      const st = expectStatus(r, 404, 'NotFound');
      expect(st.message).toBe('namespaces "no-such-ns" not found');
      expect(st.details).toEqual({ name: 'no-such-ns', kind: 'namespaces' });
    });

    it('answers 403 NamespaceTerminating in a namespace being deleted', async () => {
      await makeNamespace(s, 'going-away');
      // A finalizer on content keeps the namespace Terminating for the whole test.
      const held = await s.post('/api/v1/namespaces/going-away/configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } });
      expect(held.status).toBe(201);
      expect((await s.del(`${NAMESPACES}/going-away`)).status).toBe(200);
      const r = await s.post('/api/v1/namespaces/going-away/configmaps', { metadata: { name: 'late' } });
      const st = expectStatus(r, 403, 'Forbidden');
      const why = 'unable to create new content in namespace going-away because it is being terminated';
      expect(st.message).toBe(`configmaps "late" is forbidden: ${why}`);
      expect(st.details).toEqual({ name: 'late', kind: 'configmaps', causes: [{ reason: 'NamespaceTerminating', message: why, field: 'metadata.namespace' }] });
      // Release the namespace.
      const cur = (await s.get('/api/v1/namespaces/going-away/configmaps/held')).body;
      cur.metadata.finalizers = [];
      expect((await s.put('/api/v1/namespaces/going-away/configmaps/held', cur)).status).toBe(200);
    });
  });

  it('answers 409 AlreadyExists naming the object', async () => {
    expect((await s.post(CM, { metadata: { name: 'twice' }, data: { v: '1' } })).status).toBe(201);
    const r = await s.post(CM, { metadata: { name: 'twice' }, data: { v: '2' } });
    const st = expectStatus(r, 409, 'AlreadyExists');
    expect(st.message).toBe('configmaps "twice" already exists');
    expect(st.details).toEqual({ name: 'twice', kind: 'configmaps' });
    expect((await s.get(`${CM}/twice`)).body.data).toEqual({ v: '1' });
  });

  describe('unknown fields', () => {
    const body = { metadata: { name: '', labels: { a: 'b' }, bogusMeta: 1 }, data: { k: 'v' }, x: 1, spec: { y: 2 } };

    it('warns by default', async () => {
      const r = await s.post(CM, { ...body, metadata: { ...body.metadata, name: 'uf-warn' } });
      expect(r.status).toBe(201);
      expect(warningsOf(r).sort()).toEqual(['unknown field "metadata.bogusMeta"', 'unknown field "spec"', 'unknown field "x"']);
      expect(r.headers.warning).toContain('299 - "unknown field \\"x\\""');
      expect(r.body.x).toBeUndefined();
      expect(r.body.spec).toBeUndefined();
    });

    it('warns with fieldValidation=Warn', async () => {
      const r = await s.post(`${CM}?fieldValidation=Warn`, { metadata: { name: 'uf-warn2' }, x: 1 });
      expect(r.status).toBe(201);
      expect(warningsOf(r)).toEqual(['unknown field "x"']);
    });

    it('rejects with fieldValidation=Strict and creates nothing', async () => {
      const r = await s.post(`${CM}?fieldValidation=Strict`, { metadata: { name: 'uf-strict' }, x: 1 });
      const st = expectStatus(r, 400, 'BadRequest');
      expect(st.message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "x"');
      expect((await s.get(`${CM}/uf-strict`)).status).toBe(404);
    });

    it('names every unknown field in Strict mode', async () => {
      const r = await s.post(`${CM}?fieldValidation=Strict`, { metadata: { name: 'uf-strict2', foo: 1 }, x: 1 });
      const st = expectStatus(r, 400, 'BadRequest');
      // In the order the body has them, as Kubernetes' decoder meets them.
      expect(st.message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.foo", unknown field "x"');
    });

    it('stays silent with fieldValidation=Ignore', async () => {
      const r = await s.post(`${CM}?fieldValidation=Ignore`, { metadata: { name: 'uf-ignore' }, x: 1 });
      expect(r.status).toBe(201);
      expect(r.headers.warning).toBeUndefined();
    });

    it('refuses an unknown fieldValidation value', async () => {
      const st = expectStatus(await s.post(`${CM}?fieldValidation=Loud`, { metadata: { name: 'uf-bad' } }), 422, 'Invalid');
      expect(st.message).toBe('CreateOptions.meta.orch.io "" is invalid: fieldValidation: Unsupported value: "Loud": supported values: "Ignore", "Strict", "Warn"');
    });
  });

  describe('bad bodies', () => {
    it('rejects a field of the wrong JSON type with 400', async () => {
      const r = await s.post(CM, { metadata: { name: 'wrong-type' }, data: { a: 1 } });
      const st = expectStatus(r, 400, 'BadRequest');
      expect(st.message).toMatch(/^ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap\.data of type string$/);
      expect((await s.get(`${CM}/wrong-type`)).status).toBe(404);
    });

    it('rejects metadata of the wrong type with 400', async () => {
      const r = await s.post(CM, { metadata: { name: 42 } });
      const st = expectStatus(r, 400, 'BadRequest');
      expect(st.message).toContain('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string');
    });

    it('rejects a body that is not an object', async () => {
      expectStatus(await s.post(CM, [1, 2]), 400, 'BadRequest');
      expectStatus(await s.post(CM, '"text"'), 400, 'BadRequest');
    });

    it('rejects an apiVersion that does not match the endpoint', async () => {
      const r = await s.post(CM, { apiVersion: 'v2', kind: 'ConfigMap', metadata: { name: 'wrong-version' } });
      const st = expectStatus(r, 400, 'BadRequest');
      expect(st.message).toBe('the API version in the data (v2) does not match the expected API version (v1)');
    });

    it('rejects a kind that does not match the endpoint', async () => {
      const r = await s.post(CM, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'wrong-kind' } });
      expectStatus(r, 400, 'BadRequest');
      expect((await s.get(`${CM}/wrong-kind`)).status).toBe(404);
    });

    it('rejects invalid JSON', async () => {
      const r = await s.post(CM, '{"metadata": {"name": "x"', { contentType: 'application/json' });
      expectStatus(r, 400, 'BadRequest');
    });

    it('rejects an empty body', async () => {
      expectStatus(await s.request('POST', CM, { body: '', contentType: 'application/json' }), 400, 'BadRequest');
    });

    it('accepts YAML', async () => {
      const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\n  labels:\n    app: demo\ndata:\n  key: "value"\n';
      const r = await s.post(CM, yaml, { contentType: 'application/yaml' });
      expect(r.status, r.text).toBe(201);
      expect(r.body).toMatchObject({ metadata: { name: 'from-yaml', labels: { app: 'demo' } }, data: { key: 'value' } });
    });

    it('reads JSON with a charset parameter, or with no Content-Type at all', async () => {
      expect((await s.post(CM, { metadata: { name: 'charset' } }, { contentType: 'application/json; charset=utf-8' })).status).toBe(201);
      const r = await s.request('POST', CM, { body: Buffer.from(JSON.stringify({ metadata: { name: 'no-ct' } })), headers: { 'content-type': '' } });
      expect(r.status, r.text).toBe(201);
    });

    it('refuses a patch media type on create (415)', async () => {
      expectStatus(await s.post(CM, { metadata: { name: 'patchy' } }, { contentType: 'application/merge-patch+json' }), 415, 'UnsupportedMediaType');
    });

    it('rejects invalid YAML with 400', async () => {
      expectStatus(await s.post(CM, 'metadata: [unclosed', { contentType: 'application/yaml' }), 400, 'BadRequest');
    });

    it('answers YAML when asked', async () => {
      const r = await s.post(CM, { metadata: { name: 'yaml-out' } }, { headers: { accept: 'application/yaml' } });
      expect(r.status).toBe(201);
      expect(r.headers['content-type']).toBe('application/yaml');
      expect(r.text).toContain('name: yaml-out');
    });
  });

  describe('body size limit', () => {
    const big = (name: string): string => JSON.stringify({ metadata: { name }, data: { blob: 'x'.repeat(8000) } });

    it('answers 413 from Content-Length and creates nothing', async () => {
      const r = await s.post(CM, big('too-big'), { contentType: 'application/json' });
      const st = expectStatus(r, 413, 'RequestEntityTooLarge');
      expect(st.message).toBe('Request entity too large: limit is 4096');
      expect((await s.get(`${CM}/too-big`)).status).toBe(404);
    });

    it('answers 413 for a chunked body without Content-Length and creates nothing', async () => {
      const url = new URL(CM, s.url);
      const reply = await new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        });
        req.on('error', reject);
        const text = big('too-big-chunked');
        for (let i = 0; i < text.length; i += 1000) req.write(text.slice(i, i + 1000));
        req.end();
      });
      expect(reply.status).toBe(413);
      expect(reply.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'RequestEntityTooLarge', code: 413 });
      expect((await s.get(`${CM}/too-big-chunked`)).status).toBe(404);
    });

    it('answers 413 to oversized PUT, PATCH and DELETE bodies too, changing nothing', async () => {
      const cm = (await s.post(CM, { metadata: { name: 'size-target' }, data: { a: '1' } })).body;
      const blob = 'x'.repeat(8000);
      expectStatus(await s.put(`${CM}/size-target`, { ...cm, data: { a: blob } }), 413, 'RequestEntityTooLarge');
      expectStatus(await s.patch(`${CM}/size-target`, { data: { a: blob } }, 'application/merge-patch+json'), 413, 'RequestEntityTooLarge');
      expectStatus(await s.del(`${CM}/size-target`, { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: blob } }), 413, 'RequestEntityTooLarge');
      expect((await s.get(`${CM}/size-target`)).body).toEqual(cm);
    });

    it('accepts a body just under the limit', async () => {
      const text = JSON.stringify({ metadata: { name: 'fits' }, data: { blob: 'x'.repeat(3900) } });
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
      expect((await s.post(CM, text, { contentType: 'application/json' })).status).toBe(201);
    });
  });

  describe('dryRun', () => {
    it('answers 201 with the object but persists nothing and sends no event', async () => {
      await makeNamespace(s, 'dry');
      const w = await s.watch('/api/v1/namespaces/dry/configmaps?watch=1');
      const r = await s.post('/api/v1/namespaces/dry/configmaps?dryRun=All', { metadata: { name: 'dry' }, data: { a: 'b' } });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'dry', namespace: 'dry' }, data: { a: 'b' } });
      expect(r.body.metadata.uid).toBeTruthy();
      expect(r.body.metadata.creationTimestamp).toBeTruthy();
      expect((await s.get('/api/v1/namespaces/dry/configmaps/dry')).status).toBe(404);
      // A real create afterwards is the first event the watch sees.
      expect((await s.post('/api/v1/namespaces/dry/configmaps', { metadata: { name: 'real' } })).status).toBe(201);
      const [ev] = await w.next(1);
      expect(ev).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'real' } } });
      w.close();
    });

    it('still validates under dry run', async () => {
      expectStatus(await s.post(`${CM}?dryRun=All`, { metadata: { name: 'Bad' } }), 422, 'Invalid');
      expectStatus(await s.post('/api/v1/namespaces/nowhere/configmaps?dryRun=All', { metadata: { name: 'x' } }), 404, 'NotFound');
      expect((await s.post(CM, { metadata: { name: 'dry-exists' } })).status).toBe(201);
      // Kubernetes' dry run stops before the store, so a taken name is not noticed.
      expect((await s.post(`${CM}?dryRun=All`, { metadata: { name: 'dry-exists' } })).status).toBe(201);
    });

    it('refuses an invalid dryRun value', async () => {
      const st = expectStatus(await s.post(`${CM}?dryRun=Yes`, { metadata: { name: 'dry-bad' } }), 422, 'Invalid');
      expect(st.message).toBe('CreateOptions.meta.orch.io "" is invalid: dryRun: Unsupported value: "Yes": supported values: "All"');
      expect(st.details).toMatchObject({ group: 'meta.orch.io', kind: 'CreateOptions' });
      expect((await s.get(`${CM}/dry-bad`)).status).toBe(404);
    });

    it('treats ?dryRun with no value as unset', async () => {
      const r = await s.post(`${CM}?dryRun`, { metadata: { name: 'dry-empty' } });
      expect(r.status).toBe(201);
      expect((await s.get(`${CM}/dry-empty`)).status).toBe(200);
      const r2 = await s.post(`${CM}?dryRun&pretty=true`, { metadata: { name: 'dry-empty2' } });
      expect(r2.status).toBe(201);
      expect(r2.text).toContain('\n  ');
      expect((await s.get(`${CM}/dry-empty2`)).status).toBe(200);
    });
  });

  it('keeps working for many requests over one connection after errors', async () => {
    // A failed request must not poison later ones (bodies drained, connection reusable).
    for (let i = 0; i < 3; i++) {
      expect((await httpCall(s.url, 'POST', CM, { body: { metadata: { name: 'Bad' } } })).status).toBe(422);
    }
    expect((await httpCall(s.url, 'POST', CM, { body: { metadata: { name: 'after-errors' } } })).status).toBe(201);
  });
});
