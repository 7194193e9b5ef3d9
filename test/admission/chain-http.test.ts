/**
 * The admission chain over HTTP: which operations reach admission, with what, in which order
 * around schema validation, and that a dry run runs everything but stores nothing. A recording
 * plugin (the library's extraPlugins) sees every call; built-in plugins show the order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionAttributes, AdmissionPlugin } from '../../src/admission/types.js';
import { errors } from '../../src/machinery/errors.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Call {
  phase: 'admit' | 'validate';
  operation: string;
  resource: string;
  subresource: string;
  name: string;
  dryRun: boolean;
  object: boolean;
  oldObject: boolean;
  label?: string;
}

const calls: Call[] = [];
const record = (phase: Call['phase'], a: AdmissionAttributes): void => {
  if (a.namespace !== NS) return;
  calls.push({
    phase,
    operation: a.operation,
    resource: a.resource,
    subresource: a.subresource,
    name: a.name,
    dryRun: a.dryRun,
    object: !!a.object,
    oldObject: !!a.oldObject,
    ...(a.object?.metadata.labels?.mark ? { label: a.object.metadata.labels.mark } : {}),
  });
};
const recorder: AdmissionPlugin = {
  name: 'Recorder',
  admit(a) {
    record('admit', a);
    // A mutating plugin's change is what validation and storage see.
    if (a.object && a.resource === 'configmaps' && a.operation !== 'DELETE') a.object.metadata.labels = { ...(a.object.metadata.labels ?? {}), admitted: 'yes' };
    if (a.object?.metadata.labels?.refuse === 'admit') throw errors.forbidden({ group: '', resource: a.resource }, a.name, 'refused while mutating');
  },
  validate(a) {
    record('validate', a);
    if (a.object?.metadata.labels?.refuse === 'validate' || a.oldObject?.metadata.labels?.refuse === 'delete') {
      throw errors.forbidden({ group: '', resource: a.resource }, a.name, 'refused while validating');
    }
  },
};

const NS = 'chain';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const MERGE = 'application/merge-patch+json';

describe('the admission chain', () => {
  let s: TestServer;
  const taken = (): Call[] => calls.splice(0);
  const rv = async (): Promise<string> => (await s.get(CM)).body.metadata.resourceVersion;

  beforeAll(async () => {
    s = await startTestServer({ tls: true, admission: { enablePlugins: ['SecurityContextDeny'], extraPlugins: [recorder] } });
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it('runs mutating then validating admission on create, and stores what mutating admission made', async () => {
    taken();
    const r = await s.post(CM, { metadata: { name: 'a', labels: { mark: 'create' } }, data: { k: 'v' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.metadata.labels).toEqual({ mark: 'create', admitted: 'yes' });
    expect(taken()).toEqual([
      { phase: 'admit', operation: 'CREATE', resource: 'configmaps', subresource: '', name: 'a', dryRun: false, object: true, oldObject: false, label: 'create' },
      { phase: 'validate', operation: 'CREATE', resource: 'configmaps', subresource: '', name: 'a', dryRun: false, object: true, oldObject: false, label: 'create' },
    ]);
  });

  it('runs both phases on update with the old object, for the main resource and subresources', async () => {
    taken();
    expect((await s.patch(`${CM}/a`, { metadata: { labels: { mark: 'update' } } }, MERGE)).status).toBe(200);
    expect(taken().map((c) => [c.phase, c.operation, c.object, c.oldObject, c.label])).toEqual([
      ['admit', 'UPDATE', true, true, 'update'],
      ['validate', 'UPDATE', true, true, 'update'],
    ]);
    const pod = await s.post(`/api/v1/namespaces/${NS}/pods`, { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    expect(pod.status, pod.text).toBe(201);
    taken();
    expect((await s.patch(`/api/v1/namespaces/${NS}/pods/p/status`, { status: { phase: 'Running' } }, MERGE)).status).toBe(200);
    expect(taken().map((c) => [c.phase, c.operation, c.resource, c.subresource])).toEqual([
      ['admit', 'UPDATE', 'pods', 'status'],
      ['validate', 'UPDATE', 'pods', 'status'],
    ]);
  });

  it('runs both phases on delete with the old object and no object, and a refusal keeps the object', async () => {
    expect((await s.post(CM, { metadata: { name: 'keep', labels: { refuse: 'delete' } } })).status).toBe(201);
    taken();
    const refused = await s.del(`${CM}/keep`);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.message).toBe('configmaps "keep" is forbidden: refused while validating');
    expect((await s.get(`${CM}/keep`)).status).toBe(200);
    expect(taken()).toEqual([
      { phase: 'admit', operation: 'DELETE', resource: 'configmaps', subresource: '', name: 'keep', dryRun: false, object: false, oldObject: true },
      { phase: 'validate', operation: 'DELETE', resource: 'configmaps', subresource: '', name: 'keep', dryRun: false, object: false, oldObject: true },
    ]);
  });

  it('admits every item of a deletecollection, and stops at the first refused', async () => {
    for (const name of ['dc-1', 'dc-2']) expect((await s.post(CM, { metadata: { name, labels: { group: 'dc' } } })).status).toBe(201);
    taken();
    const r = await s.request('DELETE', `${CM}?labelSelector=group%3Ddc`);
    expect(r.status, r.text).toBe(200);
    const deletes = taken().filter((c) => c.operation === 'DELETE');
    expect(deletes.map((c) => `${c.phase} ${c.name} ${c.oldObject}`)).toEqual(['admit dc-1 true', 'validate dc-1 true', 'admit dc-2 true', 'validate dc-2 true']);
    expect((await s.get(`${CM}?labelSelector=group%3Ddc`)).body.items).toEqual([]);
  });

  it('runs every phase on a dry run, with dryRun set, and stores nothing', async () => {
    const before = await rv();
    taken();
    const created = await s.post(`${CM}?dryRun=All`, { metadata: { name: 'dry', labels: { mark: 'dry' } } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.metadata.labels.admitted).toBe('yes');
    expect((await s.patch(`${CM}/a?dryRun=All`, { data: { k: 'w' } }, MERGE)).status).toBe(200);
    expect((await s.request('DELETE', `${CM}/a?dryRun=All`)).status).toBe(200);
    expect(taken().map((c) => `${c.phase} ${c.operation} ${c.dryRun}`)).toEqual([
      'admit CREATE true',
      'validate CREATE true',
      'admit UPDATE true',
      'validate UPDATE true',
      'admit DELETE true',
      'validate DELETE true',
    ]);
    expect((await s.get(`${CM}/dry`)).status).toBe(404);
    expect((await s.get(`${CM}/a`)).body.data).toEqual({ k: 'v' });
    expect(await rv()).toBe(before);
  });

  it('refuses in either phase with the plugin\'s Status, storing nothing', async () => {
    const before = await rv();
    const inAdmit = await s.post(CM, { metadata: { name: 'r1', labels: { refuse: 'admit' } } });
    expect([inAdmit.status, inAdmit.body.reason, inAdmit.body.message]).toEqual([403, 'Forbidden', 'configmaps "r1" is forbidden: refused while mutating']);
    const inValidate = await s.post(CM, { metadata: { name: 'r2', labels: { refuse: 'validate' } } });
    expect([inValidate.status, inValidate.body.message]).toEqual([403, 'configmaps "r2" is forbidden: refused while validating']);
    expect(await rv()).toBe(before);
  });

  it('admits a create on a subresource (TokenRequest) with the request object', async () => {
    expect((await s.post(`/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'robot' } })).status).toBe(201);
    taken();
    const r = await s.post(`/api/v1/namespaces/${NS}/serviceaccounts/robot/token`, { spec: { audiences: ['x'] } });
    expect(r.status, r.text).toBe(201);
    expect(taken().map((c) => `${c.phase} ${c.operation} ${c.resource}/${c.subresource} ${c.name} ${c.object}`)).toEqual([
      'admit CREATE serviceaccounts/token robot true',
      'validate CREATE serviceaccounts/token robot true',
    ]);
    const refused = await s.post(`/api/v1/namespaces/${NS}/serviceaccounts/robot/token`, { metadata: { labels: { refuse: 'validate' } }, spec: { audiences: ['x'] } });
    expect([refused.status, refused.body.message]).toEqual([403, 'serviceaccounts "robot" is forbidden: refused while validating']);
  });

  it('admits a binding as a create of pods/binding with the Binding, not as an update of the pod', async () => {
    expect((await s.post(`/api/v1/namespaces/${NS}/pods`, { metadata: { name: 'to-bind' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })).status).toBe(201);
    taken();
    const r = await s.post(`/api/v1/namespaces/${NS}/pods/to-bind/binding`, { metadata: { name: 'to-bind', labels: { mark: 'bind' } }, target: { kind: 'Node', name: 'n1' } });
    expect(r.status, r.text).toBe(201);
    expect(taken()).toEqual([
      { phase: 'admit', operation: 'CREATE', resource: 'pods', subresource: 'binding', name: 'to-bind', dryRun: false, object: true, oldObject: false, label: 'bind' },
      { phase: 'validate', operation: 'CREATE', resource: 'pods', subresource: 'binding', name: 'to-bind', dryRun: false, object: true, oldObject: false, label: 'bind' },
    ]);
  });

  it('mutates before schema validation and validates after it', async () => {
    // Mutating first: Priority refuses an unknown class even in a pod that schema validation would refuse.
    const badAndUnknown = await s.post(`/api/v1/namespaces/${NS}/pods`, { metadata: { name: 'x' }, spec: { priorityClassName: 'nope', containers: [{ name: 'BAD', image: 'i' }] } });
    expect([badAndUnknown.status, badAndUnknown.body.message]).toEqual([403, 'pods "x" is forbidden: no PriorityClass with name nope was found']);
    // Validating after: SecurityContextDeny never sees a pod that schema validation refused.
    const badAndDenied = await s.post(`/api/v1/namespaces/${NS}/pods`, { metadata: { name: 'y' }, spec: { securityContext: { runAsUser: 0 }, containers: [{ name: 'BAD', image: 'i' }] } });
    expect([badAndDenied.status, badAndDenied.body.reason]).toEqual([422, 'Invalid']);
    const denied = await s.post(`/api/v1/namespaces/${NS}/pods`, { metadata: { name: 'y' }, spec: { securityContext: { runAsUser: 0 }, containers: [{ name: 'c', image: 'i' }] } });
    expect([denied.status, denied.body.message]).toEqual([403, 'pods "y" is forbidden: pod.Spec.SecurityContext.RunAsUser is forbidden']);
  });
});
