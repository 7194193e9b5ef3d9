/** Table columns of the batch/v1 kinds (Job, CronJob), as kubectl 1.25 prints them. */
import { humanAge, humanDuration } from '../../../machinery/duration.js';
import { age, ageColumn, column, containerCells, defineTable, formatLabelSelector, nameColumn } from '../../../registry/define-resource.js';
import type { KubeObject, LabelSelector } from '../../../schema/index.js';

interface JobLike {
  completions?: number;
  parallelism?: number;
  selector?: LabelSelector;
  template?: { spec?: { containers?: { name?: string; image?: string }[] } };
}

type JobRow = KubeObject & { spec?: JobLike; status?: { succeeded?: number; startTime?: string; completionTime?: string } };
type CronJobRow = KubeObject & {
  spec?: { schedule?: string; suspend?: boolean; jobTemplate?: { spec?: JobLike } };
  status?: { active?: unknown[]; lastScheduleTime?: string };
};

const wideColumns = [
  column('Containers', 'Names of each container in the template.', { priority: 1 }),
  column('Images', 'Images referenced by each container in the template.', { priority: 1 }),
  column('Selector', 'A label query over pods that should match the pod count.', { priority: 1 }),
];

/** `succeeded/completions`, or `succeeded/1` (`of N` with parallelism above one) for a work-queue job. */
function completionsCell(job: JobRow): string {
  const succeeded = job.status?.succeeded ?? 0;
  const completions = job.spec?.completions;
  if (completions !== undefined) return `${succeeded}/${completions}`;
  const parallelism = job.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function durationCell(job: JobRow, now: Date): string {
  const start = job.status?.startTime;
  if (!start) return '';
  const end = job.status?.completionTime;
  return end ? humanDuration(Date.parse(end) - Date.parse(start)) : humanAge(start, now);
}

export const jobTable = defineTable<JobRow>({
  columns: [
    nameColumn,
    column('Completions', 'The number of pods which reached phase Succeeded.'),
    column('Duration', 'Time required to complete the job.'),
    ageColumn,
    ...wideColumns,
  ],
  cells: (job, ctx) => [
    job.metadata.name ?? '',
    completionsCell(job),
    durationCell(job, ctx.now),
    age(job, ctx),
    ...containerCells(job.spec?.template?.spec?.containers),
    formatLabelSelector(job.spec?.selector),
  ],
});

/** Go's printBoolPtr: True, False, or <unset>. */
function boolCell(v: boolean | undefined): string {
  return v === undefined ? '<unset>' : v ? 'True' : 'False';
}

export const cronJobTable = defineTable<CronJobRow>({
  columns: [
    nameColumn,
    column('Schedule', 'The schedule in Cron format.'),
    column('Suspend', 'Whether subsequent executions are suspended.', { type: 'boolean' }),
    column('Active', 'The number of currently running jobs.', { type: 'integer' }),
    column('Last Schedule', 'When the job was last successfully scheduled.'),
    ageColumn,
    ...wideColumns,
  ],
  cells: (cj, ctx) => {
    const last = cj.status?.lastScheduleTime;
    const jobSpec = cj.spec?.jobTemplate?.spec;
    return [
      cj.metadata.name ?? '',
      cj.spec?.schedule ?? '',
      boolCell(cj.spec?.suspend),
      cj.status?.active?.length ?? 0,
      last ? humanAge(last, ctx.now) : '<none>',
      age(cj, ctx),
      ...containerCells(jobSpec?.template?.spec?.containers),
      formatLabelSelector(jobSpec?.selector),
    ];
  },
});
