/**
 * Auditing end to end on an HTTPS server: a policy file on disk, the log file read back. Every level
 * (None, Metadata, Request, RequestResponse) and stage the wire can show (RequestReceived,
 * ResponseStarted, ResponseComplete; Panic is in the filter's unit test), the Audit-ID header,
 * omitted stages and managedFields, impersonation, failed authentication, the deprecated endpoint's
 * annotations, and a Secret's data kept out of the log unless a rule names Secrets.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall, startTestServer, type TestServer } from '../helpers/server.js';
import { auditIdOf, eventsOf, readEvents, type LoggedEvent } from './helpers.js';

const POLICY = `apiVersion: audit.orch.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
- level: Request
  resources: [{group: "", resources: ["secrets"]}]
  namespaces: ["explicit"]
- level: Metadata
  namespaces: ["meta"]
- level: Request
  namespaces: ["req"]
- level: RequestResponse
  namespaces: ["rr"]
  omitManagedFields: true
- level: Metadata
  namespaces: ["quiet"]
  omitStages: ["RequestReceived"]
- level: RequestResponse
`;

let dir: string;
let logPath: string;
let s: TestServer;
const events = (): LoggedEvent[] => readEvents(logPath);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-audit-'));
  logPath = join(dir, 'logs', 'audit.log');
  writeFileSync(join(dir, 'policy.yaml'), POLICY);
  writeFileSync(join(dir, 'tokens.csv'), 'good-token,tina,uid-tina,"dev"\n');
  s = await startTestServer({ tls: true, tokenAuthFile: join(dir, 'tokens.csv'), audit: { policyFile: join(dir, 'policy.yaml'), log: { path: logPath } } });
  for (const ns of ['meta', 'req', 'rr', 'quiet', 'explicit']) expect((await s.post('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
});

afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function audited(method: string, path: string, body?: unknown, lastStage = 'ResponseComplete'): Promise<{ status: number; events: LoggedEvent[]; reply: any }> {
  const reply = await s.request(method, path, body === undefined ? {} : { body });
  return { status: reply.status, reply: reply.body, events: await eventsOf(events, auditIdOf(reply.headers), lastStage) };
}

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { color: 'blue' } });

describe('the audit log', () => {
  it('at Metadata: who, what and the answer, no bodies; RequestReceived then ResponseComplete under the Audit-ID', async () => {
    const { status, events: evs } = await audited('POST', '/api/v1/namespaces/meta/configmaps', configMap('m1'));
    expect(status).toBe(201);
    expect(evs.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    const done = evs[1] as LoggedEvent;
    expect(done).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.orch.io/v1',
      level: 'Metadata',
      requestURI: '/api/v1/namespaces/meta/configmaps',
      verb: 'create',
      user: { username: 'orch-admin' },
      sourceIPs: ['127.0.0.1'],
      objectRef: { resource: 'configmaps', namespace: 'meta', name: 'm1', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 201 },
    });
    expect(done.requestObject).toBeUndefined();
    expect(done.responseObject).toBeUndefined();
    expect(Date.parse(done.stageTimestamp)).toBeGreaterThanOrEqual(Date.parse(done.requestReceivedTimestamp));
  });

  it('at Request: the request object too; at RequestResponse: the response object, without managedFields when the rule says so', async () => {
    const req = await audited('POST', '/api/v1/namespaces/req/configmaps', configMap('r1'));
    expect(req.events[1]).toMatchObject({ level: 'Request', requestObject: { kind: 'ConfigMap', metadata: { name: 'r1' }, data: { color: 'blue' } } });
    expect(req.events[1]?.responseObject).toBeUndefined();
    const rr = await audited('POST', '/api/v1/namespaces/rr/configmaps', configMap('r2'));
    expect(rr.events[1]).toMatchObject({ level: 'RequestResponse', requestObject: { data: { color: 'blue' } }, responseObject: { kind: 'ConfigMap', metadata: { name: 'r2', namespace: 'rr' } } });
    expect(rr.events[1]?.responseObject.metadata.uid).toBe(rr.reply.metadata.uid);
    expect(rr.events[1]?.responseObject.metadata.managedFields).toBeUndefined();
    // The catch-all rule keeps managedFields.
    const other = await audited('POST', '/api/v1/namespaces/default/configmaps', configMap('r3'));
    expect(other.events[1]?.responseObject.metadata.managedFields).toHaveLength(1);
    // A refusal's Status is the response at every level from Metadata.
    const missing = await audited('GET', '/api/v1/namespaces/meta/configmaps/nope');
    expect(missing.events[1]?.responseStatus).toEqual({ metadata: {}, status: 'Failure', message: 'configmaps "nope" not found', reason: 'NotFound', details: { name: 'nope', kind: 'configmaps' }, code: 404 });
  });

  it('leaves out the stages a rule omits, and records nothing at None', async () => {
    const quiet = await audited('GET', '/api/v1/namespaces/quiet/configmaps');
    expect(quiet.events.map((e) => e.stage)).toEqual(['ResponseComplete']);
    const health = await s.get('/healthz');
    expect(health.status).toBe(200);
    const id = auditIdOf(health.headers);
    // Wait for a later request's event, then check that /healthz left none.
    await audited('GET', '/api/v1/namespaces/meta/configmaps');
    expect(events().filter((e) => e.auditID === id)).toEqual([]);
  });

  it('records ResponseStarted when a watch starts answering, and ResponseComplete when it ends', async () => {
    const { events: evs } = await audited('GET', '/api/v1/namespaces/meta/configmaps?watch=1&timeoutSeconds=1');
    expect(evs.map((e) => `${e.verb} ${e.stage} ${e.responseStatus?.code ?? '-'}`)).toEqual(['watch RequestReceived -', 'watch ResponseStarted 200', 'watch ResponseComplete 200']);
  });

  it('annotates a deprecated endpoint as Kubernetes does', async () => {
    const { status, events: evs } = await audited('GET', '/apis/autoscaling/v2beta2/namespaces/meta/horizontalpodautoscalers');
    expect(status).toBe(200);
    expect(evs[1]?.annotations).toMatchObject({ 'orch.io/deprecated': 'true', 'orch.io/removed-release': '1.26' });
    expect(evs[0]?.annotations).toBeUndefined();
  });

  it('names the impersonated user beside the one who asked', async () => {
    const r = await s.request('GET', '/api/v1/namespaces/meta/configmaps', { headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': 'dev' } });
    const evs = await eventsOf(events, auditIdOf(r.headers));
    expect(evs[1]).toMatchObject({ user: { username: 'orch-admin' }, impersonatedUser: { username: 'bob', groups: ['dev', 'system:authenticated'] } });
  });

  it('records a failed authentication as one ResponseStarted event with the 401, without the token', async () => {
    const anonymousTls = { url: s.url, tls: { ca: s.tls?.ca as string } };
    const ok = await httpCall(anonymousTls, 'GET', '/api/v1/namespaces/meta/configmaps', { headers: { authorization: 'Bearer good-token' } });
    const okEvents = await eventsOf(events, auditIdOf(ok.headers));
    expect(okEvents[1]?.user).toMatchObject({ username: 'tina', uid: 'uid-tina', groups: ['dev', 'system:authenticated'] });
    const refused = await httpCall(anonymousTls, 'GET', '/api/v1/namespaces/meta/configmaps', { headers: { authorization: 'Bearer wrong-token-4711' } });
    expect(refused.status).toBe(401);
    const evs = await eventsOf(events, auditIdOf(refused.headers), 'ResponseStarted');
    expect(evs).toHaveLength(1);
    expect(evs[0]).toMatchObject({ level: 'Metadata', stage: 'ResponseStarted', user: {}, responseStatus: { code: 401, message: 'Authentication failed, attempted: bearer' } });
    expect(readFileSync(logPath, 'utf8')).not.toContain('wrong-token-4711');
  });

  it("never logs a Secret's data unless a rule names Secrets: not at Metadata, not under a catch-all RequestResponse rule", async () => {
    const secret = (name: string, value: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: { password: Buffer.from(value).toString('base64') }, stringData: { token: `${value}-plain` } });
    for (const [ns, value] of [
      ['meta', 'hunter2-at-metadata'],
      ['rr', 'hunter2-at-catch-all'],
      ['explicit', 'hunter2-asked-for'],
    ] as const) {
      const created = await audited('POST', `/api/v1/namespaces/${ns}/secrets`, secret('s', value));
      expect(created.status).toBe(201);
      const read = await audited('GET', `/api/v1/namespaces/${ns}/secrets/s`);
      expect(read.status).toBe(200);
      const listed = await audited('GET', `/api/v1/namespaces/${ns}/secrets`);
      expect(listed.events[1]?.level).toBe(ns === 'explicit' ? 'Request' : 'Metadata');
      expect(created.events[1]?.objectRef).toMatchObject({ resource: 'secrets', namespace: ns, name: 's' });
    }
    const log = readFileSync(logPath, 'utf8');
    for (const value of ['hunter2-at-metadata', 'hunter2-at-catch-all']) {
      expect(log).not.toContain(value);
      expect(log).not.toContain(Buffer.from(value).toString('base64'));
    }
    // The operator asked for the Secret's request body in namespace explicit: there it is.
    expect(log).toContain(Buffer.from('hunter2-asked-for').toString('base64'));
  });
});
