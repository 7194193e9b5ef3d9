/**
 * Rules Deployment and ReplicaSet share: a selector that is present, valid, not empty and matches
 * the template's labels, and a pod template fit for replicated pods (restartPolicy Always, no
 * activeDeadlineSeconds, read-only GCE disks when there is more than one replica), an immutable
 * selector, and status writes that keep the labels.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { validateLabelSelector } from '../../../machinery/label-selector-validation.js';
import { labelSelectorFromStructured, type StructuredLabelSelector } from '../../../machinery/labels.js';
import type { LabelSelector } from '../../../schema/index.js';
import type { PodTemplateSpec } from '../../core/v1/pod/pod-spec.js';
import { isEmptySelector } from '../../core/v1/pod/validation/common.js';
import { validatePodTemplateSpec } from '../../core/v1/pod/validation/pod-spec.js';
import { validateReadOnlyPersistentDisks } from '../../core/v1/pod/validation/volumes.js';

/**
 * The selector and template of a replicated workload. Kubernetes' message says "deployment" for
 * ReplicaSets too; kept, as clients may match on it.
 */
export function validateSelectorAndTemplate(
  selector: LabelSelector | undefined,
  template: PodTemplateSpec,
  replicas: number,
  specPath: FieldPath,
  names: ApiNames,
): FieldError[] {
  const errs: FieldError[] = [];
  const selPath = specPath.child('selector');
  let selectorErrs: FieldError[] = [];
  if (!selector) {
    errs.push(fieldErr.required(selPath));
  } else {
    selectorErrs = validateLabelSelector(selector, selPath);
    errs.push(...selectorErrs);
    if (isEmptySelector(selector)) errs.push(fieldErr.invalid(selPath, selector, 'empty selector is invalid for deployment'));
  }
  // A selector that cannot be compiled leaves the template unchecked, as in Kubernetes.
  if (selectorErrs.length) return [...errs, fieldErr.invalid(selPath, selector, 'invalid label selector')];
  return [...errs, ...validateReplicatedTemplate(selector, template, replicas, specPath.child('template'), names)];
}

function validateReplicatedTemplate(selector: LabelSelector | undefined, template: PodTemplateSpec, replicas: number, path: FieldPath, names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  // No selector selects nothing (so never matches); an empty one selects everything.
  const matches = selector ? labelSelectorFromStructured(selector as StructuredLabelSelector).matches(template.metadata.labels ?? {}) : false;
  if (!matches && (!selector || !isEmptySelector(selector))) {
    errs.push(fieldErr.invalid(path.child('metadata').child('labels'), template.metadata.labels ?? {}, '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(template, path, names));
  if (replicas > 1) errs.push(...validateReadOnlyPersistentDisks(template.spec.volumes, path.child('spec').child('volumes')));
  const restartPolicy = template.spec.restartPolicy ?? '';
  if (restartPolicy !== 'Always') errs.push(fieldErr.notSupported(path.child('spec').child('restartPolicy'), restartPolicy, ['Always']));
  if (template.spec.activeDeadlineSeconds !== undefined) {
    errs.push(fieldErr.invalid(path.child('spec').child('activeDeadlineSeconds'), template.spec.activeDeadlineSeconds, 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  }
  return errs;
}

const GREATER_THAN_REPLICAS = 'cannot be greater than status.replicas';

/** Counts in a workload's status: none negative, none above the replicas observed. */
export function validateReplicaCounts(
  status: { replicas?: number; readyReplicas?: number; availableReplicas?: number } & Record<string, unknown>,
  bounded: readonly string[],
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const replicas = status.replicas ?? 0;
  for (const f of bounded) {
    const v = (status[f] as number | undefined) ?? 0;
    if (v > replicas) errs.push(fieldErr.invalid(path.child(f), v, GREATER_THAN_REPLICAS));
  }
  const available = status.availableReplicas ?? 0;
  if (available > (status.readyReplicas ?? 0)) errs.push(fieldErr.invalid(path.child('availableReplicas'), available, 'cannot be greater than readyReplicas'));
  return errs;
}

/** A workload's selector is fixed at creation (apps/v1): changing it would orphan its pods. */
export function validateSelectorUnchanged(selector: LabelSelector | undefined, old: LabelSelector | undefined): FieldError[] {
  if (isDeepStrictEqual(selector, old)) return [];
  return [fieldErr.immutable(FieldPath.root('spec').child('selector'), selector)];
}

/** A write to /status (the controller's) may not relabel the workload: the old labels stay. */
export function keepLabelsOnStatusWrite(next: { metadata: { labels?: Record<string, string> } }, old: { metadata: { labels?: Record<string, string> } }): void {
  if (old.metadata.labels) next.metadata.labels = structuredClone(old.metadata.labels);
  else delete next.metadata.labels;
}

/** A workload's status.collisionCount only grows (IsDecremented). */
export function validateCollisionCountNotDecremented(next: number | undefined, prev: number | undefined, statusPath: FieldPath): FieldError[] {
  if (prev === undefined || (next !== undefined && next >= prev)) return [];
  return [fieldErr.invalid(statusPath.child('collisionCount'), next ?? 0, 'cannot be decremented')];
}
