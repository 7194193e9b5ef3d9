import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CM, expectStatus, NAMESPACES, TEST_RESOURCES, WIDGETS } from './fixtures.js';

const NOT_FOUND = 'the server could not find the requested resource';
const NOT_ALLOWED = 'the server does not allow this method on the requested resource';

describe('errors', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ resources: TEST_RESOURCES });
    expect((await s.post(CM, { metadata: { name: 'exists' } })).status).toBe(201);
  });
  afterAll(() => s.close());

  describe('404 for what is not served', () => {
    const paths = [
      '/api/v1/widgets',
      '/api/v1/namespaces/default/widgets',
      '/api/v2/namespaces/default/configmaps',
      '/apis/nope.example.com/v1/things',
      '/apis/widgets.example.com/v2/namespaces/default/widgets',
      '/apis/widgets.example.com/v1/namespaces/default/gadgets',
      '/apis/v1/namespaces/default/configmaps',
      '/api/v1/namespaces/default/namespaces',
      '/api/v1/configmaps/exists',
      '/api/v1/namespaces/default/configmaps/exists/bogus',
      '/api/v1/namespaces/default/configmaps/exists/status',
      '/api/v1/namespaces/default/configmaps/exists/status/extra',
      '/nothing-here',
    ];
    for (const path of paths) {
      it(`GET ${path}`, async () => {
        const st = expectStatus(await s.get(path), 404, 'NotFound');
        expect(st.message).toBe(NOT_FOUND);
      });
    }

    it('for writes too, and nothing is created', async () => {
      expectStatus(await s.post('/api/v1/namespaces/default/things', { metadata: { name: 'x' } }), 404, 'NotFound');
      expectStatus(await s.post('/apis/nope.example.com/v1/namespaces/default/things', { metadata: { name: 'x' } }), 404, 'NotFound');
      expectStatus(await s.put('/api/v2/namespaces/default/configmaps/exists', { metadata: { name: 'exists' } }), 404, 'NotFound');
      expectStatus(await s.del('/api/v1/namespaces/default/things/x'), 404, 'NotFound');
    });
  });

  describe('405 for verbs a path does not take', () => {
    const cases: [string, string, unknown?][] = [
      ['POST', `${CM}/exists`, { metadata: { name: 'exists' } }],
      ['POST', `${NAMESPACES}/default`, { metadata: { name: 'x' } }],
      ['DELETE', NAMESPACES],
      ['PUT', CM, { metadata: { name: 'x' } }],
      ['PATCH', CM, {}],
      ['POST', '/api/v1/configmaps', { metadata: { name: 'x' } }],
      ['DELETE', '/api/v1/configmaps'],
      ['DELETE', `${NAMESPACES}/default/status`],
      ['POST', `${WIDGETS}/w/status`, {}],
      ['POST', '/version', {}],
    ];
    for (const [method, path, body] of cases) {
      it(`${method} ${path}`, async () => {
        const opts = body === undefined ? {} : { body, contentType: method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' };
        const st = expectStatus(await s.request(method, path, opts), 405, 'MethodNotAllowed');
        expect(st.message).toBe(NOT_ALLOWED);
      });
    }

    it('leaves the data alone', async () => {
      expect((await s.get(`${NAMESPACES}/default`)).status).toBe(200);
      expect((await s.get(`${CM}/exists`)).status).toBe(200);
      expect((await s.get(`${CM}/x`)).status).toBe(404);
    });
  });

  describe('406 when nothing in Accept can be produced', () => {
    it('names the supported types, in a JSON Status', async () => {
      const r = await s.get(`${CM}/exists`, { accept: 'text/html' });
      const st = expectStatus(r, 406, 'NotAcceptable');
      expect(st.message).toBe('only the following media types are accepted: application/json, application/yaml, application/vnd.orch.protobuf');
    });

    it('also for writes, which then change nothing', async () => {
      const r = await s.post(CM, { metadata: { name: 'not-acceptable' } }, { headers: { accept: 'application/xml' } });
      expectStatus(r, 406, 'NotAcceptable');
      expect((await s.get(`${CM}/not-acceptable`)).status).toBe(404);
    });

    it('is not raised when a later range fits', async () => {
      const r = await s.get(`${CM}/exists`, { accept: 'application/cbor, application/json;q=0.9' });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
    });
  });

  describe('415 for bodies in a format not understood', () => {
    it('on create, naming the accepted types', async () => {
      const st = expectStatus(await s.post(CM, 'name=x', { contentType: 'text/plain' }), 415, 'UnsupportedMediaType');
      expect(st.message).toBe('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.orch.protobuf');
      expectStatus(await s.post(CM, '<x/>', { contentType: 'application/xml' }), 415, 'UnsupportedMediaType');
    });

    it('on update', async () => {
      expectStatus(await s.put(`${CM}/exists`, 'x', { contentType: 'text/plain' }), 415, 'UnsupportedMediaType');
    });

    it('on patch without a Content-Type', async () => {
      const r = await s.request('PATCH', `${CM}/exists`, { body: Buffer.from('{}'), headers: { 'content-type': '' } });
      expectStatus(r, 415, 'UnsupportedMediaType');
    });
  });

  describe('every failure is a Status', () => {
    it('in the negotiated format', async () => {
      const r = await s.get(`${CM}/missing`, { accept: 'application/yaml' });
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe('application/yaml');
      expect(parseYaml(r.text)).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'configmaps "missing" not found' });
    });

    it('with metadata and the same code in the body and the status line', async () => {
      const failures = await Promise.all([
        s.get(`${CM}/missing`),
        s.post(CM, { metadata: { name: 'exists' } }),
        s.post(CM, { metadata: { name: 'BAD' } }),
        s.post(CM, '{', { contentType: 'application/json' }),
        s.post('/api/v1/namespaces/default/nothings', {}),
        s.del(`${NAMESPACES}/default`),
        s.request('POST', `${CM}/exists`, { body: {} }),
        s.get(`${CM}/exists`, { accept: 'image/png' }),
        s.post(CM, 'x', { contentType: 'text/plain' }),
        s.get(`${CM}?limit=many`),
      ]);
      const codes = failures.map((r) => r.status);
      expect(codes).toEqual([404, 409, 422, 400, 404, 403, 405, 406, 415, 400]);
      for (const r of failures) {
        expect(r.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: r.status });
        expect(typeof r.body.reason).toBe('string');
        expect(typeof r.body.message).toBe('string');
        expect(r.headers['cache-control']).toBe('no-cache, private');
      }
    });
  });
});
