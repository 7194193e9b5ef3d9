/**
 * CronJob (batch/v1): jobs created on a schedule. The schedule is checked by the cron parser
 * Kubernetes uses (cron-schedule.ts), the time zone against the IANA database, the job template
 * as a JobSpec whose selector is always generated. Names longer than 52 characters are refused
 * on create, since the controller appends an 11-character suffix to name the jobs.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { defaultPodTemplateSpec } from '../../core/v1/pod/defaults.js';
import { validateNonNegative } from '../../core/v1/types/index.js';
import { cronScheduleProblem, timeZoneProblem } from './cron-schedule.js';
import { nameWarnings } from './job.js';
import { CONCURRENCY_POLICIES, CronJobSpec, CronJobStatus } from './job-types.js';
import { validateJobSpecFields } from './job-validation.js';
import { cronJobTable } from './tables.js';

export const CronJobSchema = t.struct('batch.v1.CronJob', {
  ...objectHeader,
  spec: t.field(2, CronJobSpec, { description: 'When the cron job runs and what.' }),
  status: t.field(3, CronJobStatus, { description: 'What the cron job is, as last observed. Read-only.' }),
}, { description: 'A cron job: a job created on a repeating schedule.' });
export type CronJob = ObjectOf<typeof CronJobSchema>;

/** Job names are `<cronjob>-<11 characters>` and at most 63 long. */
const MAX_NAME_LENGTH = 63 - 11;

function validateTimeZone(zone: string | undefined, path: FieldPath): FieldError[] {
  if (zone === undefined) return [];
  if (zone === '') return [fieldErr.invalid(path, zone, 'timeZone must be nil or non-empty string')];
  const errs: FieldError[] = [];
  if (zone.toLowerCase() === 'local') errs.push(fieldErr.invalid(path, zone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  const problem = timeZoneProblem(zone);
  if (problem) errs.push(fieldErr.invalid(path, zone, problem));
  return errs;
}

function validateCronJob(cj: CronJob, names: ApiNames): FieldError[] {
  const spec = cj.spec;
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const schedulePath = path.child('schedule');
  if (!spec.schedule) errs.push(fieldErr.required(schedulePath));
  else {
    const problem = cronScheduleProblem(spec.schedule);
    if (problem) errs.push(fieldErr.invalid(schedulePath, spec.schedule, problem));
    if (spec.schedule.includes('TZ') && spec.timeZone !== undefined) errs.push(fieldErr.invalid(schedulePath, spec.schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  }
  errs.push(...validateNonNegative(spec.startingDeadlineSeconds, path.child('startingDeadlineSeconds')));
  const policy = spec.concurrencyPolicy ?? '';
  if (!policy) errs.push(fieldErr.required(path.child('concurrencyPolicy')));
  else if (!(CONCURRENCY_POLICIES as readonly string[]).includes(policy)) errs.push(fieldErr.notSupported(path.child('concurrencyPolicy'), policy, CONCURRENCY_POLICIES));
  const tplSpec = path.child('jobTemplate').child('spec');
  const jobSpec = spec.jobTemplate.spec;
  errs.push(...validateJobSpecFields(jobSpec, tplSpec, names));
  if (jobSpec.selector !== undefined) errs.push(fieldErr.invalid(tplSpec.child('selector'), jobSpec.selector, '`selector` will be auto-generated'));
  if (jobSpec.manualSelector === true) errs.push(fieldErr.notSupported(tplSpec.child('manualSelector'), true, ['nil', 'false']));
  errs.push(...validateNonNegative(spec.successfulJobsHistoryLimit, path.child('successfulJobsHistoryLimit')));
  errs.push(...validateNonNegative(spec.failedJobsHistoryLimit, path.child('failedJobsHistoryLimit')));
  return errs;
}

export const cronJobResource = defineResource<CronJob>((names) => ({
  group: 'batch',
  version: 'v1',
  kind: 'CronJob',
  resource: 'cronjobs',
  singular: 'cronjob',
  namespaced: true,
  shortNames: ['cj'],
  categories: ['all'],
  schema: CronJobSchema,
  table: cronJobTable,
  fixture: () => ({
    spec: {
      schedule: '*/5 * * * *',
      jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox:1.36' }] } } } },
    },
  }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults(cj) {
      const spec = cj.spec;
      spec.concurrencyPolicy ||= 'Allow';
      spec.suspend ??= false;
      spec.successfulJobsHistoryLimit ??= 3;
      spec.failedJobsHistoryLimit ??= 1;
      defaultPodTemplateSpec(spec.jobTemplate.spec.template);
    },
    prepareForCreate(cj) {
      cj.status = {};
    },
    validate: (cj) => validateCronJob(cj, names),
    validateCreate(cj) {
      const name = cj.metadata.name ?? '';
      const errs = validateTimeZone(cj.spec.timeZone, FieldPath.root('spec').child('timeZone'));
      if (name.length > MAX_NAME_LENGTH) errs.push(fieldErr.invalid(FieldPath.root('metadata').child('name'), name, `must be no more than ${MAX_NAME_LENGTH} characters`));
      return errs;
    },
    // A zone checked once is not checked again (the database may have dropped it), nor is the name's length.
    validateUpdate: (cj, old) => (cj.spec.timeZone === old.spec.timeZone ? [] : validateTimeZone(cj.spec.timeZone, FieldPath.root('spec').child('timeZone'))),
    warnings(cj, old) {
      if (!old) return nameWarnings(cj.metadata.name);
      return cj.spec.schedule.includes('TZ')
        ? ['cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details']
        : [];
    },
  },
  subresources: {
    status: statusSubresource<CronJob>(),
  },
}));
