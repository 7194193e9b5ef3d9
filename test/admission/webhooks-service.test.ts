/**
 * A webhook behind a Service: the server finds the endpoint through the Service's EndpointSlices
 * and verifies the certificate as `<service>.<namespace>.svc`. EndpointSlices refuse loopback
 * addresses (as in Kubernetes), so the webhook runs in a network namespace of its own, reached over
 * a veth pair with private test addresses; without the rights to make one, the suite is skipped.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfiguration, deleteConfiguration, eventually, hook, metric, webhookCalls, webhookPki, type WebhookPki } from '../helpers/admission-webhooks.js';
import { createNetns, waitForLine, type NetNs } from '../helpers/netns.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SERVER_SCRIPT = fileURLToPath(new URL('../helpers/admission-webhook-server.mjs', import.meta.url));
const NS = 'webhooks-svc';
const CM = `/api/v1/namespaces/${NS}/configmaps`;

describe('admission webhooks behind a Service', () => {
  let netns: NetNs | undefined;
  let skipReason = '';
  let child: ChildProcess | undefined;
  let dir = '';
  let pki: WebhookPki;
  let port = 0;
  let s: TestServer;
  let n = 0;

  beforeAll(async () => {
    const made = createNetns();
    if (typeof made === 'string') {
      skipReason = `cannot make a network namespace (${made})`;
      console.log(`admission webhooks behind a Service: skipped, ${skipReason}`);
      return;
    }
    netns = made;
    pki = await webhookPki({ extraIps: [netns.nsIp], dnsNames: [`wh-svc.${NS}.svc`] });
    dir = mkdtempSync(join(tmpdir(), 'orch-webhook-svc-'));
    writeFileSync(join(dir, 'tls.crt'), pki.serving.certPem);
    writeFileSync(join(dir, 'tls.key'), pki.serving.keyPem);
    child = netns.spawn(process.execPath, [SERVER_SCRIPT, netns.nsIp, join(dir, 'tls.crt'), join(dir, 'tls.key')]);
    port = Number((await waitForLine(child, /LISTENING (\d+)/))[1]);
    s = await startTestServer();
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
    const discovery = s.server.names.group('discovery');
    const serviceLabel = s.server.names.labelKey('service-name');
    for (const name of ['wh-svc', 'other-name']) {
      expect((await s.post(`/api/v1/namespaces/${NS}/services`, { metadata: { name }, spec: { ports: [{ name: 'https', port: 443, targetPort: port }] } })).status).toBe(201);
      const slice = await s.post(`/apis/${discovery}/v1/namespaces/${NS}/endpointslices`, {
        metadata: { name: `${name}-1`, labels: { [serviceLabel]: name } },
        addressType: 'IPv4',
        endpoints: [{ addresses: [netns.nsIp], conditions: { ready: true } }],
        ports: [{ name: 'https', port, protocol: 'TCP' }],
      });
      expect(slice.status).toBe(201);
    }
    expect((await s.post(`/api/v1/namespaces/${NS}/services`, { metadata: { name: 'no-endpoints' }, spec: { ports: [{ port: 443 }] } })).status).toBe(201);
  });

  afterAll(async () => {
    await s?.close();
    child?.kill('SIGTERM');
    netns?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const service = (name: string, path: string, p?: number) => ({ service: { namespace: NS, name, path, ...(p ? { port: p } : {}) }, caBundle: pki.caBundle });
  const createUntil = (done: (status: number) => boolean) =>
    eventually(() => s.post(CM, { metadata: { name: `cm-${++n}` } }), (r) => done(r.status));

  it('refuses an EndpointSlice with a loopback address, as Kubernetes does', async (ctx) => {
    if (!netns) return ctx.skip();
    const r = await s.post(`/apis/${s.server.names.group('discovery')}/v1/namespaces/${NS}/endpointslices`, {
      metadata: { name: 'loopback' },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['127.0.0.1'] }],
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('may not be in the loopback range');
  });

  it('calls the webhook at an endpoint of the Service, on the default port 443 and the given path', async (ctx) => {
    if (!netns) return ctx.skip();
    await webhookCalls(netns.nsIp, port, { ca: pki.ca.certPem }, true);
    await createConfiguration(s, 'validating', 'by-service', [hook({ name: 'svc.webhooks.test', ...service('wh-svc', '/deny/409') })]);
    const r = await createUntil((status) => status !== 201);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('admission webhook "svc.webhooks.test" denied the request: the test webhook says no');
    const calls = await webhookCalls(netns.nsIp, port, { ca: pki.ca.certPem });
    expect(calls.at(-1)?.path).toBe('/deny/409');
    expect(calls.at(-1)?.review.request.namespace).toBe(NS);
    expect(await metric(s, 'apiserver_admission_webhook_rejection_count', { name: 'svc.webhooks.test', error_type: 'no_error', rejection_code: '409' })).toBe(1);
    await deleteConfiguration(s, 'validating', 'by-service');
  });

  it('patches through a Service webhook with an explicit port', async (ctx) => {
    if (!netns) return ctx.skip();
    await createConfiguration(s, 'mutating', 'patch-by-service', [hook({ name: 'svcpatch.webhooks.test', ...service('wh-svc', '/patch/via-service', 443) })]);
    const r = await eventually(() => s.post(CM, { metadata: { name: `cm-${++n}` } }), (x) => x.body?.metadata?.labels?.['via-service'] === 'yes');
    expect(r.status).toBe(201);
    expect(r.body.metadata.labels).toEqual({ 'via-service': 'yes' });
    await deleteConfiguration(s, 'mutating', 'patch-by-service');
  });

  it.for<[string, string, number | undefined, string]>([
    ['missing', '/allow', undefined, 'Post "https://missing.webhooks-svc.svc:443/allow?timeout=10s": services "missing" not found'],
    ['no-endpoints', '/allow', undefined, 'Post "https://no-endpoints.webhooks-svc.svc:443/allow?timeout=10s": no endpoints available for service "no-endpoints"'],
    ['wh-svc', '/allow', 8443, 'Post "https://wh-svc.webhooks-svc.svc:8443/allow?timeout=10s": no service port 8443 found for service "wh-svc"'],
    ['other-name', '/allow', undefined, 'x509: certificate is not valid for other-name.webhooks-svc.svc'],
  ])('fails the call to Service %s (path %s, port %s): %s', async ([name, path, p, text], ctx) => {
    if (!netns) return ctx.skip();
    const config = `unreachable-${name}-${p ?? 443}`;
    await createConfiguration(s, 'validating', config, [hook({ name: 'unreachable.webhooks.test', ...service(name, path, p) })]);
    const r = await createUntil((status) => status !== 201);
    expect(r.status).toBe(500);
    expect(r.body.message).toContain('Internal error occurred: failed calling webhook "unreachable.webhooks.test": failed to call webhook: ');
    expect(r.body.message).toContain(text);
    await deleteConfiguration(s, 'validating', config);
    await eventually(() => s.post(CM, { metadata: { name: `cm-${++n}` } }), (x) => x.status === 201);
  });
});
