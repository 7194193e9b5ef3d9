/** The batch/v1 types: Job and its spec, status and pod failure policy, and the JobTemplateSpec a CronJob holds. */
import { LabelSelector, ObjectMeta, probedConditionFields, t, type Infer } from '../../../schema/index.js';
import { ObjectReference } from '../../core/v1/types/index.js';
import { PodTemplateSpec } from '../../core/v1/pod/pod-spec.js';

export const POD_FAILURE_ACTIONS = ['Count', 'FailJob', 'Ignore'] as const;
export const EXIT_CODE_OPERATORS = ['In', 'NotIn'] as const;
export const COMPLETION_MODES = ['NonIndexed', 'Indexed'] as const;
export const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'] as const;

export const PodFailurePolicyOnExitCodesRequirement = t.struct('batch.v1.PodFailurePolicyOnExitCodesRequirement', {
  // Go declares it without omitempty but as a pointer: absent stays absent.
  containerName: t.field(1, t.string(), { pointer: true, description: 'The container whose exit code is checked; every container when unset.' }),
  operator: t.required(2, t.string({ enum: EXIT_CODE_OPERATORS }), { always: true, description: 'In or NotIn: how the exit code relates to the values.' }),
  values: t.required(3, t.list(t.int32(), { listType: 'set' }), { description: 'Exit codes, ordered and without duplicates; at most 255. 0 is not allowed with In.' }),
}, { description: 'Matches pods that failed with certain container exit codes.' });

export const PodFailurePolicyOnPodConditionsPattern = t.struct('batch.v1.PodFailurePolicyOnPodConditionsPattern', {
  type: t.required(1, t.string(), { always: true, description: 'The pod condition type to match.' }),
  status: t.required(2, t.string(), { always: true, description: 'The condition status to match: True (the default), False or Unknown.' }),
}, { description: 'Matches pods that failed with a certain pod condition.' });

export const PodFailurePolicyRule = t.struct('batch.v1.PodFailurePolicyRule', {
  action: t.required(1, t.string({ enum: POD_FAILURE_ACTIONS }), { always: true, description: 'FailJob, Ignore or Count: what a matching pod failure does.' }),
  onExitCodes: t.field(2, PodFailurePolicyOnExitCodesRequirement, { pointer: true, description: 'Matches on container exit codes.' }),
  onPodConditions: t.field(3, t.list(PodFailurePolicyOnPodConditionsPattern, { listType: 'atomic' }), { description: 'Matches on pod conditions; at most 20.' }),
}, { description: 'One rule of a pod failure policy: a requirement on exit codes or on pod conditions, and the action.' });

export const PodFailurePolicy = t.struct('batch.v1.PodFailurePolicy', {
  rules: t.required(1, t.list(PodFailurePolicyRule, { listType: 'atomic' }), { description: 'Rules evaluated in order; the first match decides. At most 20.' }),
}, { description: 'How pod failures count against the backoff limit.' });

export const JobSpec = t.struct('batch.v1.JobSpec', {
  parallelism: t.field(1, t.int32(), { pointer: true, description: 'How many pods may run at once. Default 1.' }),
  completions: t.field(2, t.int32(), { pointer: true, description: 'How many pods must succeed. Immutable.' }),
  activeDeadlineSeconds: t.field(3, t.int64(), { pointer: true, description: 'How long the job may be active before the system stops it.' }),
  podFailurePolicy: t.field(11, PodFailurePolicy, { pointer: true, description: 'How failed pods count; needs restartPolicy Never.' }),
  backoffLimit: t.field(7, t.int32(), { pointer: true, description: 'Retries before the job is marked failed. Default 6.' }),
  selector: t.field(4, LabelSelector, { pointer: true, description: 'Selects the pods; generated unless manualSelector is true. Immutable.' }),
  manualSelector: t.field(5, t.bool(), { pointer: true, description: 'Whether the selector is given rather than generated.' }),
  template: t.required(6, PodTemplateSpec, { description: 'The pods to run; restartPolicy OnFailure or Never.' }),
  ttlSecondsAfterFinished: t.field(8, t.int32(), { pointer: true, description: 'How long after finishing the job is deleted.' }),
  completionMode: t.field(9, t.string({ enum: COMPLETION_MODES }), { pointer: true, description: 'NonIndexed (the default) or Indexed. Immutable.' }),
  suspend: t.field(10, t.bool(), { pointer: true, description: 'Whether the job is suspended. Default false.' }),
}, { description: 'What a job runs and how.' });
export type JobSpec = Infer<typeof JobSpec>;

export const JobCondition = t.struct('batch.v1.JobCondition', probedConditionFields(), { description: 'One observation of a job: Complete, Failed, Suspended.' });

export const UncountedTerminatedPods = t.struct('batch.v1.UncountedTerminatedPods', {
  succeeded: t.field(1, t.list(t.string(), { listType: 'set' })),
  failed: t.field(2, t.list(t.string(), { listType: 'set' })),
}, { description: 'UIDs of finished pods not yet counted in the status.' });

export const JobStatus = t.struct('batch.v1.JobStatus', {
  conditions: t.field(1, t.list(JobCondition, { listType: 'atomic', patchStrategy: 'merge', patchMergeKey: 'type' })),
  startTime: t.field(2, t.time(), { pointer: true }),
  completionTime: t.field(3, t.time(), { pointer: true }),
  active: t.field(4, t.int32()),
  succeeded: t.field(5, t.int32()),
  failed: t.field(6, t.int32()),
  completedIndexes: t.field(7, t.string()),
  uncountedTerminatedPods: t.field(8, UncountedTerminatedPods, { pointer: true }),
  ready: t.field(9, t.int32(), { pointer: true }),
}, { description: 'What a job is, as last observed by the job controller.' });
export type JobStatus = Infer<typeof JobStatus>;

export const JobTemplateSpec = t.struct('batch.v1.JobTemplateSpec', {
  metadata: t.field(1, ObjectMeta),
  spec: t.field(2, JobSpec),
}, { description: 'The job a CronJob creates.' });
export type JobTemplateSpec = Infer<typeof JobTemplateSpec>;

export const CronJobSpec = t.struct('batch.v1.CronJobSpec', {
  schedule: t.required(1, t.string(), { always: true, description: 'When to run, in cron format (five fields, or a descriptor such as @hourly).' }),
  timeZone: t.field(8, t.string(), { pointer: true, description: 'The IANA time zone the schedule is read in; the controller\'s zone when unset.' }),
  startingDeadlineSeconds: t.field(2, t.int64(), { pointer: true, description: 'How late a missed run may still start.' }),
  concurrencyPolicy: t.field(3, t.string({ enum: CONCURRENCY_POLICIES }), { description: 'Allow (the default), Forbid or Replace concurrent runs.' }),
  suspend: t.field(4, t.bool(), { pointer: true, description: 'Whether later runs are suspended. Default false.' }),
  jobTemplate: t.required(5, JobTemplateSpec, { description: 'The job to create at each run.' }),
  successfulJobsHistoryLimit: t.field(6, t.int32(), { pointer: true, description: 'Finished jobs kept. Default 3.' }),
  failedJobsHistoryLimit: t.field(7, t.int32(), { pointer: true, description: 'Failed jobs kept. Default 1.' }),
}, { description: 'When a cron job runs and what.' });

export const CronJobStatus = t.struct('batch.v1.CronJobStatus', {
  active: t.field(1, t.list(ObjectReference, { listType: 'atomic' })),
  lastScheduleTime: t.field(4, t.time(), { pointer: true }),
  lastSuccessfulTime: t.field(5, t.time(), { pointer: true }),
}, { description: 'What a cron job is, as last observed by its controller.' });
