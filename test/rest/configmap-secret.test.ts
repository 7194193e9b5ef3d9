import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CM, expectStatus, makeNamespace, SECRETS } from './fixtures.js';

const KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const MERGE = 'application/merge-patch+json';

describe('ConfigMap rules', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('checks data and binaryData keys', async () => {
    const r = await s.post(CM, { metadata: { name: 'keys' }, data: { 'a b': 'x', '..x': 'y', ok: 'z' }, binaryData: { 'c/d': b64('q') } });
    const st = expectStatus(r, 422, 'Invalid');
    expect(st.details.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'data[a b]', message: `Invalid value: "a b": ${KEY_MSG}` },
      { reason: 'FieldValueInvalid', field: 'data[..x]', message: `Invalid value: "..x": must not start with '..'` },
      { reason: 'FieldValueInvalid', field: 'binaryData[c/d]', message: `Invalid value: "c/d": ${KEY_MSG}` },
    ]);
    expect((await s.post(CM, { metadata: { name: 'keys-ok' }, data: { 'a.b-c_D': 'x', '.hidden': 'y' } })).status).toBe(201);
  });

  it('refuses a key present in both data and binaryData', async () => {
    const st = expectStatus(await s.post(CM, { metadata: { name: 'dup' }, data: { k: 'x' }, binaryData: { k: b64('y') } }), 422, 'Invalid');
    expect(st.message).toBe('ConfigMap "dup" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData');
  });

  it('stores binaryData as base64 and refuses what is not base64', async () => {
    const r = await s.post(CM, { metadata: { name: 'bin' }, binaryData: { k: b64('\u0000\u0001binary') } });
    expect(r.status).toBe(201);
    expect(r.body.binaryData.k).toBe(b64('\u0000\u0001binary'));
    const st = expectStatus(await s.post(CM, { metadata: { name: 'bin-bad' }, binaryData: { k: 'not base64!' } }), 400, 'BadRequest');
    expect(st.message).toMatch(/^ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte \d+$/);
  });

  it('holds at most 1 MiB of data', async () => {
    const half = 'x'.repeat(512 * 1024);
    // Exactly 1 MiB of values fits; key lengths do not count.
    expect((await s.post(CM, { metadata: { name: 'full' }, data: { a: half, b: half } })).status).toBe(201);
    const st = expectStatus(await s.post(CM, { metadata: { name: 'over' }, data: { a: half, b: `${half}x` } }), 422, 'Invalid');
    expect(st.details.causes).toEqual([expect.objectContaining({ reason: 'FieldValueTooLong' })]);
    expect(st.message).toContain('1048576');
    // Binary data counts in decoded bytes.
    const bin = Buffer.alloc(600 * 1024).toString('base64');
    expectStatus(await s.post(CM, { metadata: { name: 'over-bin' }, data: { a: half }, binaryData: { b: bin } }), 422, 'Invalid');
    expect((await s.get(`${CM}/over`)).status).toBe(404);
  });

  describe('immutable', () => {
    it('freezes data, binaryData and the flag itself, but not metadata', async () => {
      const cm = (await s.post(CM, { metadata: { name: 'frozen' }, immutable: true, data: { a: '1', b: '2' }, binaryData: { c: b64('3') } })).body;
      expect(cm.immutable).toBe(true);

      const data = expectStatus(await s.patch(`${CM}/frozen`, { data: { a: 'changed' } }, MERGE), 422, 'Invalid');
      expect(data.message).toBe('ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set');
      const bin = expectStatus(await s.patch(`${CM}/frozen`, { binaryData: { c: null } }, MERGE), 422, 'Invalid');
      expect(bin.details.causes[0].field).toBe('binaryData');
      const flag = expectStatus(await s.patch(`${CM}/frozen`, { immutable: false }, MERGE), 422, 'Invalid');
      expect(flag.details.causes[0]).toMatchObject({ field: 'immutable', reason: 'FieldValueForbidden' });

      const labels = await s.patch(`${CM}/frozen`, { metadata: { labels: { still: 'editable' } } }, MERGE);
      expect(labels.status).toBe(200);
      // The same data in another key order is no change.
      const same = await s.put(`${CM}/frozen`, { ...labels.body, data: { b: '2', a: '1' } });
      expect(same.status, same.text).toBe(200);
      expect((await s.del(`${CM}/frozen`)).status).toBe(200);
    });

    it('can be set on a mutable ConfigMap later', async () => {
      await s.post(CM, { metadata: { name: 'freeze-later' }, data: { a: '1' } });
      expect((await s.patch(`${CM}/freeze-later`, { immutable: true }, MERGE)).status).toBe(200);
      expectStatus(await s.patch(`${CM}/freeze-later`, { data: { a: '2' } }, MERGE), 422, 'Invalid');
    });
  });
});

describe('Secret rules', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('default to type Opaque', async () => {
    const r = await s.post(SECRETS, { metadata: { name: 'opaque' }, data: { k: b64('v') } });
    expect(r.status).toBe(201);
    expect(r.body.type).toBe('Opaque');
  });

  it('fold stringData into data, stringData winning, and never store it', async () => {
    const r = await s.post(SECRETS, { metadata: { name: 'folded' }, data: { a: b64('from-data'), b: b64('kept') }, stringData: { a: 'from-stringData', c: 'new' } });
    expect(r.status).toBe(201);
    expect(r.body.data).toEqual({ a: b64('from-stringData'), b: b64('kept'), c: b64('new') });
    expect(r.body.stringData).toBeUndefined();
    expect((await s.get(`${SECRETS}/folded`)).body.stringData).toBeUndefined();
    const up = await s.patch(`${SECRETS}/folded`, { stringData: { b: 'patched' } }, MERGE);
    expect(up.body.data.b).toBe(b64('patched'));
    expect(up.body.stringData).toBeUndefined();
  });

  it('check keys, including those from stringData', async () => {
    const st = expectStatus(await s.post(SECRETS, { metadata: { name: 'bad-keys' }, stringData: { 'no spaces': 'x' } }), 422, 'Invalid');
    expect(st.details.causes).toEqual([expect.objectContaining({ field: 'data[no spaces]', reason: 'FieldValueInvalid' })]);
  });

  it('refuse data that is not base64 with 400', async () => {
    expectStatus(await s.post(SECRETS, { metadata: { name: 'not-b64' }, data: { k: 'plain text' } }), 400, 'BadRequest');
  });

  it('hold at most 1 MiB of decoded data', async () => {
    const half = Buffer.alloc(512 * 1024, 1).toString('base64');
    expect((await s.post(SECRETS, { metadata: { name: 'full' }, data: { a: half, b: half } })).status).toBe(201);
    const st = expectStatus(await s.post(SECRETS, { metadata: { name: 'over' }, data: { a: half, b: half, c: b64('x') } }), 422, 'Invalid');
    expect(st.details.causes).toEqual([expect.objectContaining({ field: 'data', reason: 'FieldValueTooLong' })]);
  });

  it('keep their type for life', async () => {
    await s.post(SECRETS, { metadata: { name: 'typed' }, data: { k: b64('v') } });
    const st = expectStatus(await s.patch(`${SECRETS}/typed`, { type: 'example.com/custom' }, MERGE), 422, 'Invalid');
    expect(st.message).toBe('Secret "typed" is invalid: type: Invalid value: "example.com/custom": field is immutable');
  });

  it('can be immutable', async () => {
    await s.post(SECRETS, { metadata: { name: 'frozen' }, immutable: true, data: { a: b64('1'), b: b64('2') } });
    const st = expectStatus(await s.patch(`${SECRETS}/frozen`, { stringData: { a: 'x' } }, MERGE), 422, 'Invalid');
    expect(st.message).toBe('Secret "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set');
    expectStatus(await s.patch(`${SECRETS}/frozen`, { immutable: null }, MERGE), 422, 'Invalid');
    const cur = (await s.get(`${SECRETS}/frozen`)).body;
    expect((await s.put(`${SECRETS}/frozen`, { ...cur, data: { b: b64('2'), a: b64('1') } })).status).toBe(200);
    expect((await s.patch(`${SECRETS}/frozen`, { metadata: { annotations: { note: 'ok' } } }, MERGE)).status).toBe(200);
  });

  describe('type-specific keys', () => {
    const cases: [string, Record<string, string>, string[]][] = [
      ['orch.io/tls', {}, ['data[tls.key]', 'data[tls.crt]']],
      ['orch.io/tls', { 'tls.crt': 'c' }, ['data[tls.key]']],
      ['orch.io/ssh-auth', {}, ['data[ssh-privatekey]']],
      ['orch.io/basic-auth', {}, ['data[username]', 'data[password]']],
      ['orch.io/dockercfg', {}, ['data[.dockercfg]']],
      ['orch.io/dockerconfigjson', {}, ['data[.dockerconfigjson]']],
      ['orch.io/dockerconfigjson', { '.dockerconfigjson': 'not json' }, ['data[.dockerconfigjson]']],
      ['orch.io/service-account-token', {}, ['metadata.annotations[orch.io/service-account.name]']],
    ];
    for (const [type, data, fields] of cases) {
      it(`${type} with ${JSON.stringify(Object.keys(data))} misses ${fields.join(', ')}`, async () => {
        const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)]));
        const st = expectStatus(await s.post(SECRETS, { metadata: { name: 'typed-keys' }, type, data: encoded }), 422, 'Invalid');
        expect(st.details.causes.map((c: any) => c.field)).toEqual(fields);
      });
    }

    it('accepts complete secrets of each type', async () => {
      const ok: [string, Record<string, string>, Record<string, string>?][] = [
        ['orch.io/tls', { 'tls.crt': 'c', 'tls.key': 'k' }],
        ['orch.io/ssh-auth', { 'ssh-privatekey': 'k' }],
        ['orch.io/basic-auth', { password: '' }],
        ['orch.io/dockerconfigjson', { '.dockerconfigjson': '{"auths":{}}' }],
        ['orch.io/service-account-token', {}, { 'orch.io/service-account.name': 'default' }],
      ];
      for (const [i, [type, data, annotations]] of ok.entries()) {
        const r = await s.post(SECRETS, { metadata: { name: `complete-${i}`, ...(annotations ? { annotations } : {}) }, type, stringData: data });
        expect(r.status, `${type}: ${r.text}`).toBe(201);
      }
    });

    it('never repeats secret contents in errors', async () => {
      const st = expectStatus(await s.post(SECRETS, { metadata: { name: 'leak' }, type: 'orch.io/dockercfg', stringData: { '.dockercfg': 'hunter2-not-json' } }), 422, 'Invalid');
      expect(JSON.stringify(st)).not.toContain('hunter2');
    });
  });

  it('can be selected by type', async () => {
    await makeNamespace(s, 'by-type');
    const path = '/api/v1/namespaces/by-type/secrets';
    await s.post(path, { metadata: { name: 'plain' }, stringData: { a: 'b' } });
    await s.post(path, { metadata: { name: 'cert' }, type: 'orch.io/tls', stringData: { 'tls.crt': 'c', 'tls.key': 'k' } });
    const tls = await s.get(`${path}?fieldSelector=${encodeURIComponent('type=orch.io/tls')}`);
    expect(tls.status).toBe(200);
    expect(tls.body.items.map((i: any) => i.metadata.name)).toEqual(['cert']);
    const notTls = await s.get(`${path}?fieldSelector=${encodeURIComponent('type!=orch.io/tls')}`);
    expect(notTls.body.items.map((i: any) => i.metadata.name)).toEqual(['plain']);
    const st = expectStatus(await s.get(`${path}?fieldSelector=${encodeURIComponent('data.a=b')}`), 400, 'BadRequest');
    expect(st.message).toContain('field label not supported: data.a');
    // ConfigMaps have no type field to select on.
    expectStatus(await s.get(`/api/v1/namespaces/by-type/configmaps?fieldSelector=type%3DOpaque`), 400, 'BadRequest');
  });
});
