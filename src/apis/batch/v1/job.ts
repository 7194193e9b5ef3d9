/**
 * Job (batch/v1): pods run to completion. Defaults, the generated selector (`controller-uid` and
 * `job-name` labels on the template unless manualSelector), validation and `/status` as
 * Kubernetes 1.25 has them. Completions, completion mode, selector and template are immutable,
 * except the scheduling directives of a suspended job that never started.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { validateLabelSelector } from '../../../machinery/label-selector-validation.js';
import { labelSelectorFromStructured, type StructuredLabelSelector } from '../../../machinery/labels.js';
import { isDns1123Label, nameValidators } from '../../../machinery/name-validation.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectMeta, type ObjectOf } from '../../../schema/index.js';
import { defaultPodTemplateSpec } from '../../core/v1/pod/defaults.js';
import type { PodTemplateSpec } from '../../core/v1/pod/pod-spec.js';
import { validateNonNegative } from '../../core/v1/types/index.js';
import { JobSpec, JobStatus, type JobSpec as JobSpecType } from './job-types.js';
import { validateJobSpec } from './job-validation.js';
import { jobTable } from './tables.js';

export const JobSchema = t.struct('batch.v1.Job', {
  ...objectHeader,
  spec: t.field(2, JobSpec, { description: 'What the job runs.' }),
  status: t.field(3, JobStatus, { description: 'What the job is, as last observed. Read-only.' }),
}, { description: 'A job: pods run until a number of them succeed.' });
export type Job = ObjectOf<typeof JobSchema>;

const CONTROLLER_UID = 'controller-uid';
const JOB_NAME = 'job-name';

/** Kubernetes' SetDefaults_Job, with the template's pod defaults. */
export function defaultJobSpec(spec: JobSpecType): void {
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  for (const rule of spec.podFailurePolicy?.rules ?? []) for (const p of rule.onPodConditions ?? []) p.status ||= 'True';
  defaultPodTemplateSpec(spec.template);
}

/** A job without labels takes its template's (SetDefaults_Job). */
function labelsFromTemplate(job: Job): void {
  const tplLabels = job.spec.template.metadata.labels;
  if (tplLabels && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = structuredClone(tplLabels);
}

/** The selector Kubernetes generates: the job's UID, and its name and UID as template labels (kept when already set). */
function generateSelector(job: Job): void {
  const tpl = job.spec.template.metadata;
  const labels = (tpl.labels ??= {});
  labels[JOB_NAME] ??= job.metadata.name ?? '';
  labels[CONTROLLER_UID] ??= job.metadata.uid ?? '';
  const selector = (job.spec.selector ??= {});
  const matchLabels = (selector.matchLabels ??= {});
  matchLabels[CONTROLLER_UID] ??= job.metadata.uid ?? '';
}

function validateHasLabel(meta: ObjectMeta, path: FieldPath, key: string, expected: string): FieldError[] {
  const actual = meta.labels?.[key];
  if (actual === undefined) return [fieldErr.required(path.child('labels').key(key), expected)];
  return actual === expected ? [] : [fieldErr.invalid(path.child('labels').key(key), meta.labels, expected)];
}

/** A generated selector must still be the generated one (ValidateGeneratedSelector). */
function validateGeneratedSelector(job: Job): FieldError[] {
  if (job.spec.manualSelector || !job.spec.selector) return [];
  const errs: FieldError[] = [];
  const uid = job.metadata.uid ?? '';
  if (!uid) errs.push(fieldErr.required(FieldPath.root('metadata').child('uid')));
  const tplPath = FieldPath.root('spec').child('template').child('metadata');
  errs.push(...validateHasLabel(job.spec.template.metadata, tplPath, CONTROLLER_UID, uid));
  errs.push(...validateHasLabel(job.spec.template.metadata, tplPath, JOB_NAME, job.metadata.name ?? ''));
  const expected = { [CONTROLLER_UID]: uid, [JOB_NAME]: job.metadata.name ?? '' };
  // A selector that does not compile is reported by the spec's own check.
  const compiles = validateLabelSelector(job.spec.selector, FieldPath.root('spec').child('selector')).length === 0;
  if (compiles && !labelSelectorFromStructured(job.spec.selector as StructuredLabelSelector).matches(expected)) {
    errs.push(fieldErr.invalid(FieldPath.root('spec').child('selector'), job.spec.selector, '`selector` not auto-generated'));
  }
  return errs;
}

function validateJob(job: Job, names: ApiNames): FieldError[] {
  const errs = [...validateGeneratedSelector(job), ...validateJobSpec(job.spec, FieldPath.root('spec'), names)];
  const { completionMode, completions } = job.spec;
  if (completionMode === 'Indexed' && completions !== undefined && completions > 0) {
    // The controller names pods `<job>-<index>`: the largest must still be a DNS label.
    const hostname = `${job.metadata.name ?? ''}-${completions - 1}`;
    if (isDns1123Label(hostname).length) {
      errs.push(fieldErr.invalid(FieldPath.root('metadata').child('name'), job.metadata.name, `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  return errs;
}

/** The template without what a suspended job that never started may still change. */
function withoutSchedulingDirectives(tpl: PodTemplateSpec, next: PodTemplateSpec): PodTemplateSpec {
  const out = structuredClone(tpl);
  const affinity = out.spec.affinity;
  if (next.spec.affinity === undefined) {
    if (affinity) {
      delete affinity.nodeAffinity;
      if (Object.keys(affinity).length === 0) delete out.spec.affinity;
    }
  } else if (affinity === undefined) {
    out.spec.affinity = next.spec.affinity.nodeAffinity ? { nodeAffinity: structuredClone(next.spec.affinity.nodeAffinity) } : {};
  } else if (next.spec.affinity.nodeAffinity) {
    affinity.nodeAffinity = structuredClone(next.spec.affinity.nodeAffinity);
  } else delete affinity.nodeAffinity;
  const copy = <K extends 'nodeSelector' | 'tolerations'>(k: K): void => {
    if (next.spec[k] === undefined) delete out.spec[k];
    else out.spec[k] = structuredClone(next.spec[k]);
  };
  copy('nodeSelector');
  copy('tolerations');
  for (const k of ['labels', 'annotations'] as const) {
    if (next.metadata[k] === undefined) delete out.metadata[k];
    else out.metadata[k] = structuredClone(next.metadata[k]);
  }
  return out;
}

function validateJobUpdate(job: Job, old: Job): FieldError[] {
  const spec = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const immutable = (field: 'completions' | 'selector' | 'completionMode'): void => {
    if (!isDeepStrictEqual(job.spec[field], old.spec[field])) errs.push(fieldErr.immutable(spec.child(field), job.spec[field]));
  };
  immutable('completions');
  immutable('selector');
  const mutableScheduling = old.spec.suspend === true && !old.status.startTime;
  const before = mutableScheduling ? withoutSchedulingDirectives(old.spec.template, job.spec.template) : old.spec.template;
  if (!isDeepStrictEqual(job.spec.template, before)) errs.push(fieldErr.immutable(spec.child('template'), job.spec.template));
  immutable('completionMode');
  return errs;
}

function validateStatus(job: Job): FieldError[] {
  const s = job.status;
  const path = FieldPath.root('status');
  const errs = [
    ...validateNonNegative(s.active, path.child('active')),
    ...validateNonNegative(s.succeeded, path.child('succeeded')),
    ...validateNonNegative(s.failed, path.child('failed')),
    ...validateNonNegative(s.ready, path.child('ready')),
  ];
  const uncounted = s.uncountedTerminatedPods;
  if (uncounted) {
    const seen = new Set<string>();
    for (const k of ['succeeded', 'failed'] as const) {
      (uncounted[k] ?? []).forEach((uid, i) => {
        const p = path.child('uncountedTerminatedPods').child(k).index(i);
        if (uid === '') errs.push(fieldErr.invalid(p, uid, 'must not be empty'));
        else if (seen.has(uid)) errs.push(fieldErr.duplicate(p, uid));
        else seen.add(uid);
      });
    }
  }
  return errs;
}

/** The warning Kubernetes gives a Job or CronJob whose name is no DNS label (pod names and hostnames derive from it). */
export function nameWarnings(name: string | undefined): string[] {
  const msgs = isDns1123Label(name ?? '');
  return msgs.length ? [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`] : [];
}

export const jobResource = defineResource<Job>((names) => {
  // Job tracking with finalizers is off by default in 1.25: its annotation is dropped unless the job already had it.
  const trackingAnnotation = names.labelSubKey('batch', 'job-tracking');
  return {
    group: 'batch',
    version: 'v1',
    kind: 'Job',
    resource: 'jobs',
    singular: 'job',
    namespaced: true,
    categories: ['all'],
    schema: JobSchema,
    table: jobTable,
    fixture: () => ({
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34' }] } } },
    }),
    strategy: {
      nameValidator: nameValidators.dnsSubdomain,
      trackGeneration: true,
      defaults(job) {
        defaultJobSpec(job.spec);
        labelsFromTemplate(job);
      },
      prepareForCreate(job) {
        job.status = {};
        if (job.metadata.annotations) delete job.metadata.annotations[trackingAnnotation];
        if (!job.spec.manualSelector) generateSelector(job);
        // Kubernetes defaults again when it reads the job back, so an unlabelled job shows the generated labels.
        labelsFromTemplate(job);
      },
      prepareForUpdate(job, old) {
        if (job.metadata.annotations && !(trackingAnnotation in (old.metadata.annotations ?? {}))) delete job.metadata.annotations[trackingAnnotation];
      },
      validate: (job) => validateJob(job, names),
      validateUpdate: validateJobUpdate,
      warnings: (job, old) => (old ? [] : nameWarnings(job.metadata.name)),
    },
    subresources: {
      status: statusSubresource<Job>({ validateUpdate: validateStatus }),
    },
  };
});
