/** Job (batch/v1) over HTTP: defaults, the generated selector, validation and immutability in Kubernetes' words, /status. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, invalidCauses, MERGE, warningsOf } from '../core/helpers.js';

const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';
const template = (restartPolicy = 'Never') => ({ spec: { restartPolicy, containers: [{ name: 'main', image: 'busybox:1.36' }] } });

describe('Job', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served in batch/v1 in the category all, without short names', async () => {
    const entry = (await s.get('/apis/batch/v1')).body.resources.find((r: any) => r.name === 'jobs');
    expect(entry).toMatchObject({ kind: 'Job', namespaced: true, categories: ['all'] });
    expect(entry.shortNames).toBeUndefined();
    expect((await s.get('/apis/batch/v1')).body.resources.map((r: any) => r.name)).toEqual(['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']);
  });

  it('fills defaults and generates the selector and labels from its UID and name', async () => {
    const made = await s.post(JOBS, { metadata: { name: 'pi' }, spec: { template: template() } });
    expect(made.status, made.text).toBe(201);
    const { uid } = made.body.metadata;
    expect(made.body.metadata.generation).toBe(1);
    expect(made.body.metadata.labels).toEqual({ 'controller-uid': uid, 'job-name': 'pi' });
    expect(made.body.spec).toMatchObject({
      parallelism: 1,
      completions: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      selector: { matchLabels: { 'controller-uid': uid } },
      template: { metadata: { labels: { 'controller-uid': uid, 'job-name': 'pi' } }, spec: { restartPolicy: 'Never', dnsPolicy: 'ClusterFirst' } },
    });
    expect(made.body.status).toEqual({});
    // Only parallelism given: completions stay unset (a work queue).
    const queue = await s.post(JOBS, { metadata: { name: 'queue' }, spec: { parallelism: 3, template: template('OnFailure') } });
    expect(queue.body.spec.completions).toBeUndefined();
    const table = await s.get(`${JOBS}/queue`, { accept: TABLE });
    expect(table.body.rows[0].cells.slice(0, 3)).toEqual(['queue', '0/1 of 3', '']);
  });

  it('keeps a manual selector, and refuses one that does not match the template', async () => {
    const manual = await s.post(JOBS, {
      metadata: { name: 'manual' },
      spec: { manualSelector: true, selector: { matchLabels: { app: 'batch' } }, template: { metadata: { labels: { app: 'batch' } }, ...template() } },
    });
    expect(manual.status, manual.text).toBe(201);
    expect(manual.body.spec.selector).toEqual({ matchLabels: { app: 'batch' } });
    expectCauses(await s.post(JOBS, { metadata: { name: 'mismatch' }, spec: { manualSelector: true, selector: { matchLabels: { app: 'x' } }, template: template() } }), [
      { reason: 'FieldValueInvalid', field: 'spec.template.metadata.labels', message: 'Invalid value: {}: `selector` does not match template `labels`' },
    ]);
    const generated = invalidCauses(await s.post(JOBS, { metadata: { name: 'not-generated' }, spec: { selector: { matchLabels: { app: 'x' } }, template: template() } }));
    expect(generated.map((c) => c.field)).toContain('spec.selector');
    expect(generated.find((c) => c.field === 'spec.selector')?.message).toMatch(/`selector` not auto-generated$/);
  });

  it('validates the spec as Kubernetes 1.25 does', async () => {
    expectCauses(await s.post(JOBS, { metadata: { name: 'always' }, spec: { parallelism: -1, backoffLimit: -2, template: template('Always') } }), [
      { field: 'spec.parallelism', message: 'Invalid value: -1: must be greater than or equal to 0' },
      { field: 'spec.backoffLimit', message: 'Invalid value: -2: must be greater than or equal to 0' },
      { reason: 'FieldValueRequired', field: 'spec.template.spec.restartPolicy', message: 'Required value: valid values: "OnFailure", "Never"' },
    ]);
    expectCauses(await s.post(JOBS, { metadata: { name: 'indexed' }, spec: { completionMode: 'Indexed', parallelism: 1, template: template() } }), [
      { reason: 'FieldValueRequired', field: 'spec.completions', message: 'Required value: when completion mode is Indexed' },
    ]);
    const long = 'x'.repeat(62);
    expectCauses(await s.post(JOBS, { metadata: { name: long }, spec: { completionMode: 'Indexed', completions: 10, template: template() } }), [
      { field: 'metadata.name', message: `Invalid value: "${long}": will not able to create pod with invalid DNS label: ${long}-9` },
    ]);
  });

  it('validates a pod failure policy and defaults its condition status to True', async () => {
    const ok = await s.post(JOBS, {
      metadata: { name: 'policy' },
      spec: { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [1, 42] } }, { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] }, template: template() },
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.spec.podFailurePolicy.rules[1].onPodConditions).toEqual([{ type: 'DisruptionTarget', status: 'True' }]);
    expectCauses(
      await s.post(JOBS, {
        metadata: { name: 'bad-policy' },
        spec: {
          podFailurePolicy: { rules: [{ action: 'Retry', onExitCodes: { containerName: 'other', operator: 'In', values: [3, 0, 3] } }, { action: 'Count' }] },
          template: template('OnFailure'),
        },
      }),
      [
        { reason: 'FieldValueNotSupported', field: 'spec.podFailurePolicy.rules[0].action', message: 'Unsupported value: "Retry": supported values: "Count", "FailJob", "Ignore"' },
        { field: 'spec.podFailurePolicy.rules[0].onExitCodes.containerName', message: 'Invalid value: "other": must be one of the container or initContainer names in the pod template' },
        { field: 'spec.podFailurePolicy.rules[0].onExitCodes.values[1]', message: 'Invalid value: 0: must not be 0 for the In operator' },
        { reason: 'FieldValueDuplicate', field: 'spec.podFailurePolicy.rules[0].onExitCodes.values[2]', message: 'Duplicate value: 3' },
        { field: 'spec.podFailurePolicy.rules[0].onExitCodes.values', message: 'Invalid value: [3,0,3]: must be ordered' },
        { field: 'spec.podFailurePolicy.rules[1]', message: 'Invalid value: specifying one of OnExitCodes and OnPodConditions is required' },
        { field: 'spec.template.spec.restartPolicy', message: 'Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified' },
      ],
    );
  });

  it('keeps completions, selector, template and completion mode immutable; bumps the generation on spec changes', async () => {
    expect((await s.post(JOBS, { metadata: { name: 'fixed' }, spec: { completions: 2, template: template() } })).status).toBe(201);
    const causes = invalidCauses(await s.patch(`${JOBS}/fixed`, { spec: { completions: 3, template: { spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] } } } }, MERGE));
    expect(causes.map((c) => [c.field, c.message.endsWith('field is immutable')])).toEqual([
      ['spec.completions', true],
      ['spec.template', true],
    ]);
    const bumped = await s.patch(`${JOBS}/fixed`, { spec: { activeDeadlineSeconds: 600 } }, MERGE);
    expect(bumped.status, bumped.text).toBe(200);
    expect(bumped.body.metadata.generation).toBe(2);
  });

  it('lets a suspended job that never started change its scheduling directives only', async () => {
    expect((await s.post(JOBS, { metadata: { name: 'held' }, spec: { suspend: true, template: template() } })).status).toBe(201);
    const moved = await s.patch(`${JOBS}/held`, { spec: { template: { spec: { nodeSelector: { zone: 'a' } } } } }, MERGE);
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.spec.template.spec.nodeSelector).toEqual({ zone: 'a' });
    expect((await s.patch(`${JOBS}/held`, { spec: { template: { spec: { hostname: 'h' } } } }, MERGE)).status).toBe(422);
  });

  it('writes status through /status only, validating counts; warns about a name that is no DNS label', async () => {
    const made = await s.post(JOBS, { metadata: { name: 'with.dots' }, spec: { template: template() } });
    expect(made.status, made.text).toBe(201);
    expect(warningsOf(made)).toEqual([
      "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]",
    ]);
    const ignored = await s.patch(`${JOBS}/with.dots`, { status: { active: 1 } }, MERGE);
    expect(ignored.body.status).toEqual({});
    const status = await s.patch(`${JOBS}/with.dots/status`, { status: { active: 1, startTime: '2024-01-01T00:00:00Z', succeeded: 0 } }, MERGE);
    expect(status.status, status.text).toBe(200);
    expect(status.body.status).toEqual({ active: 1, startTime: '2024-01-01T00:00:00Z' });
    expectCauses(await s.patch(`${JOBS}/with.dots/status`, { status: { failed: -1, uncountedTerminatedPods: { succeeded: ['a', ''], failed: ['a'] } } }, MERGE), [
      { field: 'status.failed', message: 'Invalid value: -1: must be greater than or equal to 0' },
      { field: 'status.uncountedTerminatedPods.succeeded[1]', message: 'Invalid value: "": must not be empty' },
      { reason: 'FieldValueDuplicate', field: 'status.uncountedTerminatedPods.failed[0]' },
    ]);
  });
});
