/** CronJob (batch/v1) over HTTP: defaults, the schedule and time zone checks, the job template's rules, names, warnings, /status. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE, warningsOf } from '../core/helpers.js';

const CJ = '/apis/batch/v1/namespaces/default/cronjobs';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';
const jobTemplate = { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox:1.36' }] } } } };
const cronJob = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { schedule: '0 * * * *', jobTemplate, ...spec } });

describe('CronJob', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served in batch/v1 as cronjobs (short name cj, category all)', async () => {
    const entry = (await s.get('/apis/batch/v1')).body.resources.find((r: any) => r.name === 'cronjobs');
    expect(entry).toMatchObject({ kind: 'CronJob', namespaced: true, shortNames: ['cj'], categories: ['all'] });
  });

  it('fills defaults, keeps the job template free of a selector, and prints its row', async () => {
    const made = await s.post(CJ, cronJob('hourly', { timeZone: 'Europe/Berlin' }));
    expect(made.status, made.text).toBe(201);
    expect(made.body.metadata.generation).toBe(1);
    expect(made.body.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, timeZone: 'Europe/Berlin' });
    expect(made.body.spec.jobTemplate.spec.selector).toBeUndefined();
    expect(made.body.spec.jobTemplate.spec.backoffLimit).toBeUndefined();
    expect(made.body.spec.jobTemplate.spec.template.spec.dnsPolicy).toBe('ClusterFirst');
    const table = await s.get(`${CJ}/hourly`, { accept: TABLE });
    expect(table.body.rows[0].cells.slice(0, 5)).toEqual(['hourly', '0 * * * *', 'False', 0, '<none>']);
  });

  it('checks the schedule with the cron parser and the time zone against the IANA database', async () => {
    expectCauses(await s.post(CJ, cronJob('bad-schedule', { schedule: '61 * * * *' })), [
      { reason: 'FieldValueInvalid', field: 'spec.schedule', message: 'Invalid value: "61 * * * *": end of range (61) above maximum (59): 61' },
    ]);
    expectCauses(await s.post(CJ, cronJob('no-schedule', { schedule: '' })), [{ reason: 'FieldValueRequired', field: 'spec.schedule', message: 'Required value' }]);
    expectCauses(await s.post(CJ, cronJob('both-zones', { schedule: 'CRON_TZ=UTC 0 * * * *', timeZone: 'UTC' })), [
      { field: 'spec.schedule', message: 'Invalid value: "CRON_TZ=UTC 0 * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule' },
    ]);
    expectCauses(await s.post(CJ, cronJob('bad-zone', { timeZone: 'Mars/Olympus' })), [
      { field: 'spec.timeZone', message: 'Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus' },
    ]);
    expectCauses(await s.post(CJ, cronJob('local-zone', { timeZone: 'Local' })), [
      { field: 'spec.timeZone', message: 'Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones' },
    ]);
    expectCauses(await s.post(CJ, cronJob('empty-zone', { timeZone: '' })), [{ field: 'spec.timeZone', message: 'Invalid value: "": timeZone must be nil or non-empty string' }]);
  });

  it('validates the policy, limits and job template', async () => {
    expectCauses(
      await s.post(CJ, cronJob('bad-spec', {
        concurrencyPolicy: 'Sometimes',
        startingDeadlineSeconds: -1,
        successfulJobsHistoryLimit: -1,
        jobTemplate: { spec: { manualSelector: true, selector: { matchLabels: { a: 'b' } }, template: { spec: { containers: [{ name: 'c', image: 'i' }] } } } },
      })),
      [
        { field: 'spec.startingDeadlineSeconds', message: 'Invalid value: -1: must be greater than or equal to 0' },
        { reason: 'FieldValueNotSupported', field: 'spec.concurrencyPolicy', message: 'Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"' },
        { reason: 'FieldValueRequired', field: 'spec.jobTemplate.spec.template.spec.restartPolicy', message: 'Required value: valid values: "OnFailure", "Never"' },
        { field: 'spec.jobTemplate.spec.selector', message: 'Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated' },
        { reason: 'FieldValueNotSupported', field: 'spec.jobTemplate.spec.manualSelector', message: 'Unsupported value: true: supported values: "nil", "false"' },
        { field: 'spec.successfulJobsHistoryLimit', message: 'Invalid value: -1: must be greater than or equal to 0' },
      ],
    );
  });

  it('limits names to 52 characters on create, and warns about names that are no DNS label', async () => {
    const long = 'c'.repeat(53);
    expectCauses(await s.post(CJ, cronJob(long)), [{ field: 'metadata.name', message: `Invalid value: "${long}": must be no more than 52 characters` }]);
    const dotted = await s.post(CJ, cronJob('nightly.backup'));
    expect(dotted.status, dotted.text).toBe(201);
    expect(warningsOf(dotted)[0]).toMatch(/^metadata\.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: \[/);
  });

  it('warns on an update with TZ in the schedule; bumps the generation on spec changes; /status writes status only', async () => {
    expect((await s.post(CJ, cronJob('zoned', { schedule: 'TZ=UTC 0 * * * *' }))).status).toBe(201);
    const updated = await s.patch(`${CJ}/zoned`, { spec: { suspend: true } }, MERGE);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.metadata.generation).toBe(2);
    expect(warningsOf(updated)).toEqual([
      'cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details',
    ]);
    const status = await s.patch(`${CJ}/zoned/status`, { status: { lastScheduleTime: '2024-01-01T00:00:00Z', active: [{ kind: 'Job', name: 'zoned-1', namespace: 'default' }] } }, MERGE);
    expect(status.status, status.text).toBe(200);
    expect(status.body.status.active).toHaveLength(1);
    expect(status.body.metadata.generation).toBe(2);
    const row = (await s.get(`${CJ}/zoned`, { accept: TABLE })).body.rows[0].cells;
    expect(row[2]).toBe('True');
    expect(row[3]).toBe(1);
    expect(row[4]).toMatch(/^\d+(d|y)/);
  });
});
