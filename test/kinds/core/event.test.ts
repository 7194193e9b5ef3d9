import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, expectStatus, invalidCauses, MERGE } from './helpers.js';

const CORE = '/api/v1/namespaces/default/events';
const V1 = '/apis/events.orch.io/v1/namespaces/default/events';
const TIME = '2024-05-06T07:08:09.123456Z';

/** A core/v1 event in the old style (no eventTime). */
const legacy = (name: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u-1', apiVersion: 'v1' },
  reason: 'Started',
  message: 'Started container',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2024-05-06T07:08:09Z',
  lastTimestamp: '2024-05-06T07:08:09Z',
  count: 1,
  type: 'Normal',
  ...extra,
});

/** An events/v1 event with every required field. */
const modern = (name: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  eventTime: TIME,
  regarding: { kind: 'Pod', namespace: 'default', name: 'web-2' },
  reportingController: 'orch.io/scheduler',
  reportingInstance: 'scheduler-a',
  action: 'Binding',
  reason: 'Scheduled',
  note: 'Assigned web-2 to node-2',
  type: 'Normal',
  ...extra,
});

describe('Event', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served in core/v1 and events.orch.io/v1, both with short name ev', async () => {
    const core = await s.get('/api/v1');
    expect(core.body.resources.find((x: any) => x.name === 'events')).toMatchObject({ namespaced: true, kind: 'Event', shortNames: ['ev'] });
    const v1 = await s.get('/apis/events.orch.io/v1');
    expect(v1.status, v1.text).toBe(200);
    expect(v1.body.resources.find((x: any) => x.name === 'events')).toMatchObject({ namespaced: true, kind: 'Event', shortNames: ['ev'] });
  });

  describe('one stored object, two shapes', () => {
    it('shows an events/v1 event through core/v1 with the old names', async () => {
      const r = await s.post(V1, modern('shape-v1', { related: { kind: 'Node', name: 'node-2' }, series: { count: 2, lastObservedTime: TIME } }));
      expect(r.status, r.text).toBe(201);
      expect(r.body).toMatchObject({ apiVersion: 'events.orch.io/v1', kind: 'Event', note: 'Assigned web-2 to node-2', regarding: { name: 'web-2' } });
      const core = await s.get(`${CORE}/shape-v1`);
      expect(core.body).toMatchObject({
        apiVersion: 'v1',
        kind: 'Event',
        involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-2' },
        message: 'Assigned web-2 to node-2',
        reportingComponent: 'orch.io/scheduler',
        reportingInstance: 'scheduler-a',
        eventTime: TIME,
        related: { kind: 'Node', name: 'node-2' },
        series: { count: 2, lastObservedTime: TIME },
        source: {},
        firstTimestamp: null,
      });
      expect(core.body.metadata.uid).toBe(r.body.metadata.uid);
      expect(core.body.metadata.resourceVersion).toBe(r.body.metadata.resourceVersion);
    });

    it('shows a core/v1 event through events/v1 with the new names', async () => {
      expect((await s.post(CORE, legacy('shape-core'))).status).toBe(201);
      const v1 = await s.get(`${V1}/shape-core`);
      expect(v1.status, v1.text).toBe(200);
      expect(v1.body).toMatchObject({
        apiVersion: 'events.orch.io/v1',
        regarding: { kind: 'Pod', name: 'web-1', uid: 'u-1' },
        note: 'Started container',
        deprecatedSource: { component: 'kubelet', host: 'node-1' },
        deprecatedFirstTimestamp: '2024-05-06T07:08:09Z',
        deprecatedLastTimestamp: '2024-05-06T07:08:09Z',
        deprecatedCount: 1,
        eventTime: null,
      });
      expect(v1.body.involvedObject).toBeUndefined();
      expect(v1.body.message).toBeUndefined();
    });

    it('lists and watches each version in its own shape', async () => {
      const list = await s.get(V1);
      expect(list.body.kind).toBe('EventList');
      expect(list.body.apiVersion).toBe('events.orch.io/v1');
      expect(list.body.items.every((i: any) => i.apiVersion === 'events.orch.io/v1' && 'regarding' in i)).toBe(true);
      const w = await s.watch(`${V1}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`);
      expect((await s.post(CORE, legacy('watched'))).status).toBe(201);
      const [ev] = await w.next(1);
      w.close();
      expect(ev?.type).toBe('ADDED');
      expect(ev?.object).toMatchObject({ apiVersion: 'events.orch.io/v1', metadata: { name: 'watched' }, note: 'Started container' });
    });
  });

  describe('core/v1 rules', () => {
    it('keep an old-style event in the namespace of its object', async () => {
      expectCauses(await s.post(CORE, legacy('ns-mismatch', { involvedObject: { kind: 'Pod', namespace: 'other', name: 'p' } })), [
        { field: 'involvedObject.namespace', message: 'Invalid value: "other": does not match event.namespace' },
      ]);
      // A cluster-scoped object's events live in default.
      expect((await s.post(CORE, legacy('node-event', { involvedObject: { kind: 'Node', name: 'node-1' } }))).status).toBe(201);
      expect((await s.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
      expectCauses(await s.post('/api/v1/namespaces/team/events', legacy('node-event', { involvedObject: { kind: 'Node', name: 'node-1' } })), [
        { field: 'involvedObject.namespace', reason: 'FieldValueInvalid' },
      ]);
    });

    it('need the reporting fields once eventTime is set, naming reportingComponent', async () => {
      const r = await s.post(CORE, { metadata: { name: 'new-style' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' }, eventTime: TIME });
      expect(invalidCauses(r).map((c) => [c.field, c.reason])).toEqual([
        ['reportingComponent', 'FieldValueRequired'],
        // Empty is also not a qualified name, as Kubernetes reports.
        ['reportingComponent', 'FieldValueInvalid'],
        ['reportingInstance', 'FieldValueRequired'],
        ['action', 'FieldValueRequired'],
        ['reason', 'FieldValueRequired'],
      ]);
      const long = await s.post(CORE, {
        metadata: { name: 'too-long' },
        involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
        eventTime: TIME,
        reportingComponent: 'bad component',
        reportingInstance: 'i'.repeat(129),
        action: 'a'.repeat(129),
        reason: 'r'.repeat(129),
        message: 'm'.repeat(1025),
      });
      expect(invalidCauses(long).map((c) => `${c.field}: ${c.message}`)).toEqual([
        expect.stringMatching(/^reportingComponent: Invalid value: "bad component": name part must consist of/),
        'reportingInstance: Invalid value: "": can have at most 128 characters',
        'action: Invalid value: "": can have at most 128 characters',
        'reason: Invalid value: "": can have at most 128 characters',
        'message: Invalid value: "": can have at most 1024 characters',
      ]);
    });

    it('accept any type and name a path segment allows, and let every field change on update', async () => {
      const r = await s.post(CORE, legacy('Odd.Name', { type: 'Custom' }));
      expect(r.status, r.text).toBe(201);
      const u = await s.patch(`${CORE}/Odd.Name`, { message: 'changed', count: 2, reason: 'Again' }, MERGE);
      expect(u.status, u.text).toBe(200);
      expect(u.body).toMatchObject({ message: 'changed', count: 2 });
    });

    it('create an event on PUT when it does not exist', async () => {
      const r = await s.put(`${CORE}/put-created`, legacy('put-created'));
      expect(r.status, r.text).toBe(201);
    });
  });

  describe('events/v1 rules', () => {
    it('need eventTime, the reporting fields and a type of Normal or Warning on create', async () => {
      const r = await s.post(V1, { metadata: { name: 'bare' }, regarding: { kind: 'Pod', namespace: 'default', name: 'p' } });
      expect(invalidCauses(r).map((c) => `${c.field}: ${c.message}`)).toEqual([
        'eventTime: Required value',
        'type: Invalid value: "": has invalid value: ',
      ]);
      const typed = await s.post(V1, modern('typed', { type: 'Info' }));
      expectCauses(typed, [{ field: 'type', message: 'Invalid value: "": has invalid value: Info' }]);
      const fields = await s.post(V1, modern('missing', { reportingController: '', reportingInstance: '', action: '', reason: '' }));
      expect(invalidCauses(fields).map((c) => c.field)).toEqual(['reportingController', 'reportingController', 'reportingInstance', 'action', 'reason']);
    });

    it('limit the note to 1 kB, reported as message', async () => {
      expectCauses(await s.post(V1, modern('long-note', { note: 'n'.repeat(1025) })), [{ field: 'message', message: 'Invalid value: "": can have at most 1024 characters' }]);
      expect((await s.post(V1, modern('full-note', { note: 'n'.repeat(1024) }))).status).toBe(201);
    });

    it('refuse the deprecated fields and a short series on create', async () => {
      const r = await s.post(
        V1,
        modern('deprecated', {
          deprecatedSource: { component: 'x' },
          deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
          deprecatedLastTimestamp: '2024-01-01T00:00:00Z',
          deprecatedCount: 3,
          series: { count: 1, lastObservedTime: TIME },
        }),
      );
      expect(invalidCauses(r).map((c) => `${c.field}: ${c.message}`)).toEqual([
        'series.count: Invalid value: "": should be at least 2',
        'firstTimestamp: Invalid value: "": needs to be unset',
        'lastTimestamp: Invalid value: "": needs to be unset',
        'count: Invalid value: "": needs to be unset',
        'source: Invalid value: "": needs to be unset',
      ]);
    });

    it('need a DNS subdomain name', async () => {
      expectCauses(await s.post(V1, modern('Not.DNS')), [{ field: 'metadata.name', reason: 'FieldValueInvalid' }]);
    });

    it('keep most fields fixed on update, but let the series and metadata change', async () => {
      expect((await s.post(V1, modern('fixed'))).status).toBe(201);
      const note = await s.patch(`${V1}/fixed`, { note: 'rewritten', reportingInstance: 'other' }, MERGE);
      expect(invalidCauses(note).map((c) => `${c.field}: ${c.message}`)).toEqual([
        'message: Invalid value: "rewritten": field is immutable',
        'reportingInstance: Invalid value: "other": field is immutable',
      ]);
      const series = await s.patch(`${V1}/fixed`, { series: { count: 5, lastObservedTime: TIME }, metadata: { labels: { seen: 'yes' } } }, MERGE);
      expect(series.status, series.text).toBe(200);
      expect(series.body.series).toEqual({ count: 5, lastObservedTime: TIME });
      // The same change through core/v1 obeys only the legacy rules.
      const core = await s.patch(`${CORE}/fixed`, { message: 'rewritten' }, MERGE);
      expect(core.status, core.text).toBe(200);
    });
  });

  describe('field selectors', () => {
    beforeAll(async () => {
      expect((await s.post(CORE, legacy('sel-a', { reason: 'Pulled', type: 'Warning', involvedObject: { kind: 'Pod', namespace: 'default', name: 'sel-pod', fieldPath: 'spec.containers{app}' } }))).status).toBe(201);
      expect((await s.post(V1, modern('sel-b', { regarding: { kind: 'Deployment', namespace: 'default', name: 'sel-deploy' }, reportingController: 'orch.io/sel' }))).status).toBe(201);
    });
    const names = async (url: string): Promise<string[]> => {
      const r = await s.get(url);
      expect(r.status, r.text).toBe(200);
      return r.body.items.map((i: any) => i.metadata.name);
    };

    it('core/v1 selects by involvedObject.*, reason, type, source and reportingComponent', async () => {
      expect(await names(`${CORE}?fieldSelector=involvedObject.name%3Dsel-pod`)).toEqual(['sel-a']);
      expect(await names(`${CORE}?fieldSelector=involvedObject.kind%3DDeployment`)).toEqual(['sel-b']);
      expect(await names(`${CORE}?fieldSelector=involvedObject.fieldPath%3Dspec.containers%7Bapp%7D`)).toEqual(['sel-a']);
      expect(await names(`${CORE}?fieldSelector=reason%3DPulled,type%3DWarning`)).toEqual(['sel-a']);
      expect(await names(`${CORE}?fieldSelector=reportingComponent%3Dorch.io/sel`)).toEqual(['sel-b']);
      // source is the old source.component, or else the reporting controller.
      expect(await names(`${CORE}?fieldSelector=source%3Dorch.io/sel`)).toEqual(['sel-b']);
      expectStatus(await s.get(`${CORE}?fieldSelector=regarding.name%3Dsel-pod`), 400, 'BadRequest');
    });

    it('events/v1 selects by regarding.*, reason, type and reportingController', async () => {
      expect(await names(`${V1}?fieldSelector=regarding.name%3Dsel-deploy`)).toEqual(['sel-b']);
      expect(await names(`${V1}?fieldSelector=reportingController%3Dorch.io/sel`)).toEqual(['sel-b']);
      expect(await names(`${V1}?fieldSelector=regarding.kind%3DPod,reason%3DPulled`)).toEqual(['sel-a']);
      const bad = expectStatus(await s.get(`${V1}?fieldSelector=involvedObject.name%3Dsel-pod`), 400, 'BadRequest');
      expect(bad.message).toMatch(/field label not supported: involvedObject.name/);
    });
  });
});
