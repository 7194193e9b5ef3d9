/**
 * The rules of a JobSpec, in Kubernetes 1.25's words: shared by Job and by the job template of a
 * CronJob. Counts not negative, the completion mode, the pod failure policy, a pod template whose
 * restartPolicy is OnFailure or Never, and (for a Job) a selector that matches the template.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, OMITTED, type FieldError } from '../../../machinery/field-errors.js';
import { validateLabelSelector } from '../../../machinery/label-selector-validation.js';
import { labelSelectorFromStructured, type StructuredLabelSelector } from '../../../machinery/labels.js';
import { validatePodTemplateSpec } from '../../core/v1/pod/validation/pod-spec.js';
import { validateNonNegative, validateQualifiedName } from '../../core/v1/types/index.js';
import { COMPLETION_MODES, EXIT_CODE_OPERATORS, POD_FAILURE_ACTIONS, type JobSpec } from './job-types.js';

const MAX_PARALLELISM_INDEXED = 100000;
const MAX_RULES = 20;
const MAX_EXIT_CODE_VALUES = 255;
const MAX_CONDITION_PATTERNS = 20;
const CONDITION_STATUSES = ['False', 'True', 'Unknown'] as const;

type PodFailureRule = NonNullable<NonNullable<JobSpec['podFailurePolicy']>['rules']>[number];

/** Go's `%q` of a string list: `["a" "b"]`. */
const quotedList = (values: readonly string[]): string => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

function validateExitCodes(req: NonNullable<PodFailureRule['onExitCodes']>, path: FieldPath, containerNames: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const op = path.child('operator');
  if (!req.operator) errs.push(fieldErr.required(op, `valid values: ${quotedList(EXIT_CODE_OPERATORS)}`));
  else if (!(EXIT_CODE_OPERATORS as readonly string[]).includes(req.operator)) errs.push(fieldErr.notSupported(op, req.operator, EXIT_CODE_OPERATORS));
  if (req.containerName !== undefined && !containerNames.has(req.containerName)) {
    errs.push(fieldErr.invalid(path.child('containerName'), req.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const valuesPath = path.child('values');
  const values = req.values ?? [];
  if (values.length === 0) errs.push(fieldErr.invalid(valuesPath, values, 'at least one value is required'));
  else if (values.length > MAX_EXIT_CODE_VALUES) errs.push(fieldErr.tooMany(valuesPath, values.length, MAX_EXIT_CODE_VALUES));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, i) => {
    if (req.operator === 'In' && v === 0) errs.push(fieldErr.invalid(valuesPath.index(i), v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(fieldErr.duplicate(valuesPath.index(i), v));
    else seen.add(v);
    if (i > 0 && (values[i - 1] as number) > v) ordered = false;
  });
  if (!ordered) errs.push(fieldErr.invalid(valuesPath, values, 'must be ordered'));
  return errs;
}

function validateRule(rule: PodFailureRule, path: FieldPath, containerNames: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const action = path.child('action');
  if (!rule.action) errs.push(fieldErr.required(action, `valid values: ${quotedList(POD_FAILURE_ACTIONS)}`));
  else if (!(POD_FAILURE_ACTIONS as readonly string[]).includes(rule.action)) errs.push(fieldErr.notSupported(action, rule.action, POD_FAILURE_ACTIONS));
  if (rule.onExitCodes) errs.push(...validateExitCodes(rule.onExitCodes, path.child('onExitCodes'), containerNames));
  const patterns = rule.onPodConditions ?? [];
  if (patterns.length) {
    const pp = path.child('onPodConditions');
    if (patterns.length > MAX_CONDITION_PATTERNS) errs.push(fieldErr.tooMany(pp, patterns.length, MAX_CONDITION_PATTERNS));
    patterns.forEach((p, i) => {
      errs.push(...validateQualifiedName(p.type, pp.index(i).child('type')));
      const status = pp.index(i).child('status');
      if (!p.status) errs.push(fieldErr.required(status, `valid values: ${quotedList(CONDITION_STATUSES)}`));
      else if (!(CONDITION_STATUSES as readonly string[]).includes(p.status)) errs.push(fieldErr.notSupported(status, p.status, CONDITION_STATUSES));
    });
  }
  if (rule.onExitCodes && patterns.length) errs.push(fieldErr.invalid(path, OMITTED, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  if (!rule.onExitCodes && !patterns.length) errs.push(fieldErr.invalid(path, OMITTED, 'specifying one of OnExitCodes and OnPodConditions is required'));
  return errs;
}

function validatePodFailurePolicy(spec: JobSpec, path: FieldPath): FieldError[] {
  const policy = spec.podFailurePolicy;
  if (!policy) return [];
  const errs: FieldError[] = [];
  const rules = policy.rules ?? [];
  const rulesPath = path.child('rules');
  if (rules.length > MAX_RULES) errs.push(fieldErr.tooMany(rulesPath, rules.length, MAX_RULES));
  const podSpec = spec.template.spec;
  const containerNames = new Set([...(podSpec.containers ?? []), ...(podSpec.initContainers ?? [])].map((c) => c.name));
  rules.forEach((rule, i) => errs.push(...validateRule(rule, rulesPath.index(i), containerNames)));
  return errs;
}

/** The rules every JobSpec obeys, a Job's or a CronJob's template (Kubernetes' validateJobSpec). */
export function validateJobSpecFields(spec: JobSpec, path: FieldPath, names: ApiNames): FieldError[] {
  const errs = [
    ...validateNonNegative(spec.parallelism, path.child('parallelism')),
    ...validateNonNegative(spec.completions, path.child('completions')),
    ...validateNonNegative(spec.activeDeadlineSeconds, path.child('activeDeadlineSeconds')),
    ...validateNonNegative(spec.backoffLimit, path.child('backoffLimit')),
    ...validateNonNegative(spec.ttlSecondsAfterFinished, path.child('ttlSecondsAfterFinished')),
  ];
  const mode = spec.completionMode;
  if (mode !== undefined) {
    if (!(COMPLETION_MODES as readonly string[]).includes(mode)) errs.push(fieldErr.notSupported(path.child('completionMode'), mode, COMPLETION_MODES));
    if (mode === 'Indexed') {
      if (spec.completions === undefined) errs.push(fieldErr.required(path.child('completions'), 'when completion mode is Indexed'));
      if (spec.parallelism !== undefined && spec.parallelism > MAX_PARALLELISM_INDEXED) {
        errs.push(fieldErr.invalid(path.child('parallelism'), spec.parallelism, `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`));
      }
    }
  }
  errs.push(...validatePodFailurePolicy(spec, path.child('podFailurePolicy')));
  errs.push(...validatePodTemplateSpec(spec.template, path.child('template'), names));
  const restartPath = path.child('template').child('spec').child('restartPolicy');
  const restartPolicy = spec.template.spec.restartPolicy ?? '';
  if (restartPolicy === 'Always' || restartPolicy === '') errs.push(fieldErr.required(restartPath, 'valid values: "OnFailure", "Never"'));
  else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errs.push(fieldErr.notSupported(restartPath, restartPolicy, ['OnFailure', 'Never']));
  if (spec.podFailurePolicy && restartPolicy !== 'Never') errs.push(fieldErr.invalid(restartPath, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

/** A Job's spec: the shared rules, a selector, and a template its selector matches (ValidateJobSpec). */
export function validateJobSpec(spec: JobSpec, path: FieldPath, names: ApiNames): FieldError[] {
  const errs = validateJobSpecFields(spec, path, names);
  const selPath = path.child('selector');
  if (!spec.selector) return [...errs, fieldErr.required(selPath)];
  const selectorErrs = validateLabelSelector(spec.selector, selPath);
  errs.push(...selectorErrs);
  if (!selectorErrs.length && !labelSelectorFromStructured(spec.selector as StructuredLabelSelector).matches(spec.template.metadata.labels ?? {})) {
    errs.push(fieldErr.invalid(path.child('template').child('metadata').child('labels'), spec.template.metadata.labels ?? {}, '`selector` does not match template `labels`'));
  }
  return errs;
}
