/**
 * Dynamic admission webhooks reached by URL: a real HTTPS webhook (self-signed CA in caBundle) that
 * allows, denies with a code, patches, warns, hangs, answers garbage or the wrong version, against a
 * real server; each row of document 3's Errors table about webhooks, and the rejection metric after
 * each kind of rejection.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookServer, type WebhookServer } from '../helpers/admission-webhook-server.mjs';
import {
  createConfiguration,
  deleteConfiguration,
  eventually,
  hook,
  metric,
  webhookCalls,
  webhookPki,
  warningsOf,
  type WebhookCall,
  type WebhookKind,
  type WebhookPki,
} from '../helpers/admission-webhooks.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';

const CM = '/api/v1/namespaces/default/configmaps';
const REJECTIONS = 'apiserver_admission_webhook_rejection_count';

describe('admission webhooks by URL', () => {
  let s: TestServer;
  let pki: WebhookPki;
  let wh: WebhookServer;
  let base: string;
  let configs: { kind: WebhookKind; name: string }[] = [];
  let n = 0;

  beforeAll(async () => {
    pki = await webhookPki();
    wh = await startWebhookServer({ cert: pki.serving.certPem, key: pki.serving.keyPem });
    base = `https://127.0.0.1:${wh.port}`;
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
    await wh?.close();
  });
  beforeEach(async () => {
    for (const c of configs) await deleteConfiguration(s, c.kind, c.name);
    configs = [];
    await webhookCalls('127.0.0.1', wh.port, { ca: pki.ca.certPem }, true);
  });

  const calls = (): Promise<WebhookCall[]> => webhookCalls('127.0.0.1', wh.port, { ca: pki.ca.certPem });
  const configure = async (kind: WebhookKind, ...hooks: Record<string, unknown>[]): Promise<void> => {
    const name = `cfg-${++n}`;
    await createConfiguration(s, kind, name, hooks);
    configs.push({ kind, name });
  };
  const url = (path: string): { url: string; caBundle: string } => ({ url: `${base}${path}`, caBundle: pki.caBundle });
  const newName = (): string => `cm-${++n}`;
  /**
   * Creates config maps (a fresh name each time) until `done` says the new configuration is in
   * force: configurations apply through the watch cache, a moment after they are stored.
   */
  const createUntil = (body: { metadata: Record<string, unknown> }, done: (r: Reply) => boolean, path = CM): Promise<Reply> =>
    eventually(() => s.post(path, { ...body, metadata: { ...body.metadata, name: newName() } }), done);

  it('sends every request field of AdmissionReview v1 and lets an allowed create, update and delete through', async () => {
    await configure('validating', hook({ name: 'allow.webhooks.test', ...url('/allow'), rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] }));
    const name = newName();
    const created = await eventually(
      async () => {
        await webhookCalls('127.0.0.1', wh.port, { ca: pki.ca.certPem }, true);
        const r = await s.post(CM, { metadata: { name: `${name}-${++n}`, labels: { app: 'demo' } }, data: { a: 'b' } });
        return { r, calls: await calls() };
      },
      (x) => x.calls.length > 0,
    );
    expect(created.r.status).toBe(201);
    const createdName = created.r.body.metadata.name as string;
    const call = created.calls[0] as WebhookCall;
    expect(call.path).toBe('/allow');
    expect(call.query).toBe('timeout=10s');
    expect(call.userAgent).toBe('orch-apiserver-admission');
    expect(call.review.apiVersion).toBe('admission.orch.io/v1');
    expect(call.review.kind).toBe('AdmissionReview');
    const req = call.review.request;
    expect(req.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(req.kind).toEqual({ group: '', version: 'v1', kind: 'ConfigMap' });
    expect(req.resource).toEqual({ group: '', version: 'v1', resource: 'configmaps' });
    expect(req.requestKind).toEqual({ group: '', version: 'v1', kind: 'ConfigMap' });
    expect(req.requestResource).toEqual({ group: '', version: 'v1', resource: 'configmaps' });
    expect(req.subResource).toBeUndefined();
    expect(req.name).toBe(createdName);
    expect(req.namespace).toBe('default');
    expect(req.operation).toBe('CREATE');
    expect(req.userInfo.username).toBe('system:unsecured');
    expect(req.userInfo.groups).toContain('system:masters');
    expect(req.object.metadata.labels).toEqual({ app: 'demo' });
    expect(req.object.data).toEqual({ a: 'b' });
    expect(req.oldObject).toBeNull();
    expect(req.options).toEqual({ apiVersion: 'meta.orch.io/v1', kind: 'CreateOptions' });
    expect(req.dryRun).toBe(false);

    await webhookCalls('127.0.0.1', wh.port, { ca: pki.ca.certPem }, true);
    const updated = await s.put(`${CM}/${createdName}?fieldManager=tester`, { ...created.r.body, data: { a: 'c' } });
    expect(updated.status).toBe(200);
    const upd = ((await calls())[0] as WebhookCall).review.request;
    expect(upd.operation).toBe('UPDATE');
    expect(upd.object.data).toEqual({ a: 'c' });
    expect(upd.oldObject.data).toEqual({ a: 'b' });
    expect(upd.options).toEqual({ apiVersion: 'meta.orch.io/v1', kind: 'UpdateOptions', fieldManager: 'tester' });

    await webhookCalls('127.0.0.1', wh.port, { ca: pki.ca.certPem }, true);
    const deleted = await s.del(`${CM}/${createdName}`, { propagationPolicy: 'Background' });
    expect(deleted.status).toBe(200);
    const del = ((await calls())[0] as WebhookCall).review.request;
    expect(del.operation).toBe('DELETE');
    expect(del.object).toBeNull();
    expect(del.oldObject.data).toEqual({ a: 'c' });
    expect(del.options).toMatchObject({ apiVersion: 'meta.orch.io/v1', kind: 'DeleteOptions', propagationPolicy: 'Background' });

    // The latency histograms and request counter, with Kubernetes' names and labels.
    const allowed = { name: 'allow.webhooks.test', type: 'validating', operation: 'DELETE', rejected: 'false' };
    expect(await metric(s, 'apiserver_admission_webhook_admission_duration_seconds_count', allowed)).toBe(1);
    expect(await metric(s, 'apiserver_admission_webhook_request_total', { ...allowed, code: '200' })).toBe(1);
    expect(
      await metric(s, 'apiserver_admission_controller_admission_duration_seconds_count', { name: 'ValidatingAdmissionWebhook', type: 'validate', operation: 'CREATE', rejected: 'false' }),
    ).toBeGreaterThan(0);
    expect(
      await metric(s, 'apiserver_admission_controller_admission_duration_seconds_count', { name: 'MutatingAdmissionWebhook', type: 'admit', operation: 'UPDATE', rejected: 'false' }),
    ).toBeGreaterThan(0);
  });

  it.each([
    ['/deny/403', 403, '403', 'admission webhook "deny.webhooks.test" denied the request: the test webhook says no'],
    ['/deny', 400, '400', 'admission webhook "deny.webhooks.test" denied the request: the test webhook says no'],
    ['/deny/200', 400, '400', 'admission webhook "deny.webhooks.test" denied the request: the test webhook says no'],
    ['/deny/700', 700, '600', 'admission webhook "deny.webhooks.test" denied the request: the test webhook says no'],
    ['/deny-bare', 400, '400', 'admission webhook "deny.webhooks.test" denied the request without explanation'],
  ])('a validating webhook answering %s rejects with code %i; the metric counts rejection_code %s', async (path, code, label, message) => {
    const want = { name: 'deny.webhooks.test', type: 'validating', operation: 'CREATE', error_type: 'no_error', rejection_code: label };
    const before = await metric(s, REJECTIONS, want);
    await configure('validating', hook({ name: 'deny.webhooks.test', ...url(path) }));
    const r = await createUntil({ metadata: {} }, (x) => x.status !== 201);
    expect(r.status).toBe(code);
    expect(r.body.message).toBe(message);
    expect((await s.get(`${CM}/cm-${n}`)).status).toBe(404);
    expect(await metric(s, REJECTIONS, want)).toBe(before + 1);
  });

  it('a mutating webhook denies as type admit', async () => {
    const want = { name: 'mdeny.webhooks.test', type: 'admit', operation: 'CREATE', error_type: 'no_error', rejection_code: '403' };
    await configure('mutating', hook({ name: 'mdeny.webhooks.test', ...url('/deny/403') }));
    const r = await createUntil({ metadata: {} }, (x) => x.status !== 201);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('admission webhook "mdeny.webhooks.test" denied the request: the test webhook says no');
    expect(await metric(s, REJECTIONS, want)).toBe(1);
  });

  it('applies a mutating webhook patch, which later webhooks and validation see and the store keeps', async () => {
    await configure('mutating', hook({ name: 'patch.webhooks.test', ...url('/patch/team') }));
    await configure('validating', hook({ name: 'see.webhooks.test', ...url('/allow') }));
    const r = await createUntil({ metadata: {} }, (x) => x.status === 201 && x.body.metadata.labels?.team === 'yes');
    expect(r.status).toBe(201);
    expect((await s.get(`${CM}/${r.body.metadata.name}`)).body.metadata.labels).toEqual({ team: 'yes' });
    const seen = (await calls()).filter((c) => c.path === '/allow').at(-1) as WebhookCall;
    expect(seen.review.request.object.metadata.labels).toEqual({ team: 'yes' });
  });

  it('validates a patched object again: a patch making it invalid is refused with 422', async () => {
    await configure('mutating', hook({ name: 'badpatch.webhooks.test', ...url('/patch/-bad') }));
    const r = await createUntil({ metadata: {} }, (x) => x.status !== 201);
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('metadata.labels: Invalid value: "-bad"');
    expect((await s.get(`${CM}/cm-${n}`)).status).toBe(404);
  });

  it('returns webhook warnings as Warning: 299 headers, on allow and on deny', async () => {
    await configure('validating', hook({ name: 'warn.webhooks.test', ...url('/warn') }));
    const ok = await createUntil({ metadata: {} }, (x) => warningsOf(x.headers).length > 0);
    expect(ok.status).toBe(201);
    expect(warningsOf(ok.headers)).toEqual(['a first warning', 'a second warning']);
    expect(String(ok.headers.warning)).toContain('299 - "a first warning"');
    await configure('validating', hook({ name: 'denywarn.webhooks.test', ...url('/deny-warn') }));
    const denied = await createUntil({ metadata: {} }, (x) => x.status === 403);
    expect(denied.body.message).toBe('admission webhook "denywarn.webhooks.test" denied the request: denied with warnings');
    expect(warningsOf(denied.headers)).toEqual(expect.arrayContaining(['a first warning', 'a second warning']));
  });

  it('fails the request when a webhook hangs past timeoutSeconds (failurePolicy Fail, the default), and counts a calling error', async () => {
    const want = { name: 'hang.webhooks.test', type: 'validating', operation: 'CREATE', error_type: 'calling_webhook_error', rejection_code: '400' };
    await configure('validating', hook({ name: 'hang.webhooks.test', ...url('/hang'), timeoutSeconds: 1 }));
    const r = await createUntil({ metadata: {} }, (x) => x.status !== 201);
    expect(r.status).toBe(500);
    expect(r.body.reason).toBe('InternalError');
    expect(r.body.message).toBe(`Internal error occurred: failed calling webhook "hang.webhooks.test": failed to call webhook: Post "${base}/hang?timeout=1s": context deadline exceeded`);
    expect(await metric(s, REJECTIONS, want)).toBe(1);
  });

  it('lets the request through when a hanging webhook has failurePolicy Ignore, counting it as failing open', async () => {
    await configure('mutating', hook({ name: 'hangopen.webhooks.test', ...url('/hang'), timeoutSeconds: 1, failurePolicy: 'Ignore' }));
    const r = await eventually(
      async () => {
        const x = await s.post(CM, { metadata: { name: newName() } });
        return { x, opened: await metric(s, 'apiserver_admission_webhook_fail_open_count', { name: 'hangopen.webhooks.test', type: 'admit' }) };
      },
      (v) => v.opened > 0,
      8000,
    );
    expect(r.x.status).toBe(201);
    expect(r.opened).toBe(1);
    expect(await metric(s, REJECTIONS, { name: 'hangopen.webhooks.test' })).toBe(0);
  });

  it.each([
    ['/garbage', '400', 'failed to call webhook: couldn\'t get version/kind; json parse error: '],
    ['/status500', '500', 'failed to call webhook: an error on the server ("boom") has prevented the request from succeeding'],
    ['/wrong-version', '503', 'received invalid webhook response: expected webhook response of admission.orch.io/v1, Kind=AdmissionReview, got admission.orch.io/v1beta1, Kind=AdmissionReview'],
    ['/wrong-uid', '503', 'received invalid webhook response: expected response.uid="'],
  ])('an answer from %s fails the call: a 500 naming the webhook, and a calling error with code %s', async (path, code, text) => {
    const name = `bad${path.replace(/[^a-z0-9]/g, '')}.webhooks.test`;
    const want = { name, type: 'validating', operation: 'CREATE', error_type: 'calling_webhook_error', rejection_code: code };
    await configure('validating', hook({ name, ...url(path) }));
    const r = await createUntil({ metadata: {} }, (x) => x.status !== 201);
    expect(r.status).toBe(500);
    expect(r.body.message).toContain(`Internal error occurred: failed calling webhook "${name}": ${text}`);
    expect(await metric(s, REJECTIONS, want)).toBe(1);
  });

  it('fails the request when the webhook cannot be reached, unless failurePolicy is Ignore', async () => {
    const closed = await startWebhookServer({ cert: pki.serving.certPem, key: pki.serving.keyPem });
    const port = closed.port;
    await closed.close();
    await configure('validating', hook({ name: 'gone.webhooks.test', url: `https://127.0.0.1:${port}/allow`, caBundle: pki.caBundle }));
    const r = await createUntil({ metadata: {} }, (x) => x.status !== 201);
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      `Internal error occurred: failed calling webhook "gone.webhooks.test": failed to call webhook: Post "https://127.0.0.1:${port}/allow?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
    for (const c of configs) await deleteConfiguration(s, c.kind, c.name);
    configs = [];
    await configure('validating', hook({ name: 'goneopen.webhooks.test', url: `https://127.0.0.1:${port}/allow`, caBundle: pki.caBundle, failurePolicy: 'Ignore' }));
    const ok = await createUntil({ metadata: {} }, (x) => x.status === 201);
    expect(ok.status).toBe(201);
  });

  it('fails the call when the webhook certificate does not chain to caBundle', async () => {
    const other = await webhookPki();
    await configure('validating', hook({ name: 'untrusted.webhooks.test', url: `${base}/allow`, caBundle: other.caBundle }));
    const r = await createUntil({ metadata: {} }, (x) => x.status !== 201);
    expect(r.status).toBe(500);
    expect(r.body.message).toContain('x509: certificate signed by unknown authority');
  });

  it('sends AdmissionReview v1beta1 to a webhook that prefers it', async () => {
    await configure('validating', hook({ name: 'beta.webhooks.test', ...url('/allow'), admissionReviewVersions: ['v1beta1', 'v1'] }));
    const c = await eventually(
      async () => {
        await s.post(CM, { metadata: { name: newName() } });
        return calls();
      },
      (x) => x.length > 0,
    );
    expect((c[0] as WebhookCall).review.apiVersion).toBe('admission.orch.io/v1beta1');
    expect((c[0] as WebhookCall).review.request.kind).toEqual({ group: '', version: 'v1', kind: 'ConfigMap' });
  });

  it('refuses to create a configuration whose admissionReviewVersions are all unknown', async () => {
    const group = s.server.names.group('admissionregistration');
    const r = await s.post(`/apis/${group}/v1/validatingwebhookconfigurations`, {
      metadata: { name: 'unknown-versions' },
      webhooks: [hook({ name: 'v9.webhooks.test', ...url('/allow'), admissionReviewVersions: ['v9'] })],
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'ValidatingWebhookConfiguration.admissionregistration.orch.io "unknown-versions" is invalid: webhooks[0].admissionReviewVersions: Invalid value: ["v9"]: must include at least one of v1, v1beta1',
    );
    expect((await s.get(`/apis/${group}/v1/validatingwebhookconfigurations/unknown-versions`)).status).toBe(404);
  });

  it('calls a NoneOnDryRun webhook for a dry run, saying so, and stores nothing', async () => {
    await configure('validating', hook({ name: 'dry.webhooks.test', ...url('/allow'), sideEffects: 'NoneOnDryRun' }));
    const name = newName();
    const c = await eventually(
      async () => {
        const r = await s.post(`${CM}?dryRun=All`, { metadata: { name } });
        expect(r.status).toBe(201);
        return calls();
      },
      (x) => x.length > 0,
    );
    const req = (c[0] as WebhookCall).review.request;
    expect(req.dryRun).toBe(true);
    expect(req.options).toEqual({ apiVersion: 'meta.orch.io/v1', kind: 'CreateOptions', dryRun: ['All'] });
    expect((await s.get(`${CM}/${name}`)).status).toBe(404);
  });

  it('matches objectSelector against the object and the old object', async () => {
    const stored = newName();
    expect((await s.post(CM, { metadata: { name: stored, labels: { watched: 'yes' } } })).status).toBe(201);
    await configure('validating', hook({ name: 'objsel.webhooks.test', ...url('/deny/403'), objectSelector: { matchLabels: { watched: 'yes' } } }));
    await createUntil({ metadata: { labels: { watched: 'yes' } } }, (x) => x.status === 403);
    expect((await s.post(CM, { metadata: { name: newName(), labels: { watched: 'no' } } })).status).toBe(201);
    // Removing the label: the new object does not match, the old one does.
    const r = await s.put(`${CM}/${stored}`, { metadata: { name: stored, labels: {} } });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('admission webhook "objsel.webhooks.test" denied the request: the test webhook says no');
  });

  it('matches namespaceSelector against the namespace labels, and a namespace object by its own', async () => {
    const ns = `labelled-${++n}`;
    expect((await s.post('/api/v1/namespaces', { metadata: { name: ns, labels: { env: 'webhook-test' } } })).status).toBe(201);
    await configure(
      'validating',
      hook({
        name: 'nssel.webhooks.test',
        ...url('/deny/403'),
        namespaceSelector: { matchLabels: { env: 'webhook-test' } },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps', 'namespaces'] }],
      }),
    );
    await createUntil({ metadata: {} }, (x) => x.status === 403, `/api/v1/namespaces/${ns}/configmaps`);
    expect((await s.post(CM, { metadata: { name: newName() } })).status).toBe(201);
    const labelledNs = await s.post('/api/v1/namespaces', { metadata: { name: `ns-${++n}`, labels: { env: 'webhook-test' } } });
    expect(labelledNs.status).toBe(403);
    expect((await s.post('/api/v1/namespaces', { metadata: { name: `ns-${++n}` } })).status).toBe(201);
  });

  it('matchPolicy Equivalent sends a request through another group as the registered version; Exact does not match it', async () => {
    const events = s.server.names.group('events');
    const rules = [{ operations: ['CREATE'], apiGroups: [events], apiVersions: ['v1'], resources: ['events'] }];
    await configure('validating', hook({ name: 'exact.webhooks.test', ...url('/deny/403'), rules, matchPolicy: 'Exact' }));
    await configure('validating', hook({ name: 'equivalent.webhooks.test', ...url('/allow'), rules }));
    const event = {
      metadata: { name: `ev-${++n}` },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
      reason: 'Tested',
      message: 'through core/v1',
      type: 'Normal',
      reportingComponent: 'tester',
      reportingInstance: 'tester-1',
      eventTime: '2024-01-02T03:04:05.123456Z',
      action: 'Testing',
    };
    const c = await eventually(
      async () => {
        const r = await s.post('/api/v1/namespaces/default/events', { ...event, metadata: { name: `ev-${++n}` } });
        expect(r.status).toBe(201);
        return calls();
      },
      (x) => x.length > 0,
    );
    expect(c.map((x) => x.path)).toEqual(['/allow']);
    const req = (c[0] as WebhookCall).review.request;
    expect(req.kind).toEqual({ group: events, version: 'v1', kind: 'Event' });
    expect(req.resource).toEqual({ group: events, version: 'v1', resource: 'events' });
    expect(req.requestKind).toEqual({ group: '', version: 'v1', kind: 'Event' });
    expect(req.requestResource).toEqual({ group: '', version: 'v1', resource: 'events' });
    expect(req.object.apiVersion).toBe(`${events}/v1`);
    expect(req.object.note).toBe('through core/v1');
    expect(req.object.message).toBeUndefined();
  });

  it('applies the patch of a webhook registered for another version to the object as stored', async () => {
    const events = s.server.names.group('events');
    await configure('mutating', hook({ name: 'eventpatch.webhooks.test', ...url('/patch/converted'), rules: [{ operations: ['CREATE'], apiGroups: [events], apiVersions: ['v1'], resources: ['events'] }] }));
    const r = await eventually(
      () =>
        s.post('/api/v1/namespaces/default/events', {
          metadata: { name: `ev-${++n}` },
          involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
          reason: 'Tested',
          message: 'patched through events/v1',
          type: 'Normal',
        }),
      (x) => x.status !== 201 || x.body.metadata.labels?.converted === 'yes',
    );
    expect(r.status).toBe(201);
    expect(r.body.apiVersion).toBe('v1');
    expect(r.body.metadata.labels).toEqual({ converted: 'yes' });
    expect(r.body.message).toBe('patched through events/v1');
  });

  it('never calls webhooks for webhook configurations, so a deny-all webhook can be removed', async () => {
    const all = [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }];
    await configure('validating', hook({ name: 'denyall.webhooks.test', ...url('/deny/403'), rules: all }));
    await configure('mutating', hook({ name: 'mdenyall.webhooks.test', ...url('/deny/403'), rules: all }));
    await createUntil({ metadata: {} }, (x) => x.status === 403);
    await configure('validating', hook({ name: 'another.webhooks.test', ...url('/allow') }));
    for (const c of configs) await deleteConfiguration(s, c.kind, c.name);
    configs = [];
    const ok = await createUntil({ metadata: {} }, (x) => x.status === 201);
    expect(ok.status).toBe(201);
  });

  it('calls a reinvocationPolicy IfNeeded webhook again when a later webhook changed the object', async () => {
    await configure(
      'mutating',
      hook({ name: 'first.webhooks.test', ...url('/patch/first'), reinvocationPolicy: 'IfNeeded' }),
      hook({ name: 'second.webhooks.test', ...url('/patch/second') }),
    );
    const r = await createUntil({ metadata: {} }, (x) => x.status === 201 && x.body.metadata.labels?.second === 'yes');
    const name = r.body.metadata.name as string;
    expect(r.body.metadata.labels).toEqual({ first: 'yes', second: 'yes' });
    const paths = (await calls()).filter((c) => c.review.request.name === name).map((c) => c.path);
    expect(paths).toEqual(['/patch/first', '/patch/second', '/patch/first']);
  });

  it('calls a validating webhook once for a Service create, whose allocations the store rehearses first', async () => {
    await configure('validating', hook({ name: 'svc.webhooks.test', ...url('/allow'), rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['services'] }] }));
    const c = await eventually(
      async () => {
        const r = await s.post('/api/v1/namespaces/default/services', { metadata: { name: `svc-${++n}` }, spec: { ports: [{ port: 80 }] } });
        expect(r.status).toBe(201);
        return { r, calls: await calls() };
      },
      (x) => x.calls.length > 0,
    );
    expect(c.calls.map((x) => [x.review.request.name, x.review.request.dryRun])).toEqual([[c.r.body.metadata.name, false]]);
    expect(c.calls[0]?.review.request.object.spec.clusterIP).toBe(c.r.body.spec.clusterIP);
  });

  it('calls a Never webhook once', async () => {
    await configure('mutating', hook({ name: 'first.webhooks.test', ...url('/patch/first') }), hook({ name: 'second.webhooks.test', ...url('/patch/second') }));
    const r = await createUntil({ metadata: {} }, (x) => x.status === 201 && x.body.metadata.labels?.second === 'yes');
    const name = r.body.metadata.name as string;
    const paths = (await calls()).filter((c) => c.review.request.name === name).map((c) => c.path);
    expect(paths).toEqual(['/patch/first', '/patch/second']);
  });
});
