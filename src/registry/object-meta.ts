/**
 * ObjectMeta rules shared by every kind: system fields set on create and carried over on update,
 * and the validation of names, labels, annotations, finalizers and owner references.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { fieldErr, FieldPath, type FieldError } from '../machinery/field-errors.js';
import { validateAnnotations, validateLabels } from '../machinery/meta-validation.js';
import { isDns1123Label, isQualifiedName, type NameValidator } from '../machinery/name-validation.js';
import type { ObjectMeta } from '../schema/index.js';

/** The 27 characters Kubernetes uses for generated name suffixes (no vowels, no look-alikes). */
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const GENERATED_SUFFIX_LENGTH = 5;
const MAX_GENERATED_NAME_LENGTH = 63 - GENERATED_SUFFIX_LENGTH;

export function generateName(prefix: string): string {
  const base = prefix.length > MAX_GENERATED_NAME_LENGTH ? prefix.slice(0, MAX_GENERATED_NAME_LENGTH) : prefix;
  const bytes = randomBytes(GENERATED_SUFFIX_LENGTH);
  let suffix = '';
  for (const b of bytes) suffix += SUFFIX_ALPHABET[b % SUFFIX_ALPHABET.length];
  return base + suffix;
}

/** RFC 3339 at seconds precision in UTC, as metav1.Time prints. */
export function formatTime(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

export function newUid(): string {
  return randomUUID();
}

/** Sets the fields only the server writes on create. Mutates. */
export function fillCreateSystemFields(meta: ObjectMeta, now: Date, trackGeneration: boolean): void {
  meta.uid = newUid();
  meta.creationTimestamp = formatTime(now);
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.resourceVersion;
  delete meta.selfLink;
  if (trackGeneration) meta.generation = 1;
  else delete meta.generation;
}

/** Carries the fields an update may not change over from the stored object. Mutates `meta`. */
export function carryUpdateSystemFields(meta: ObjectMeta, old: ObjectMeta): void {
  if (!meta.uid) meta.uid = old.uid;
  if (old.creationTimestamp) meta.creationTimestamp = old.creationTimestamp;
  if (old.deletionTimestamp) meta.deletionTimestamp = old.deletionTimestamp;
  else delete meta.deletionTimestamp;
  if (old.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  else delete meta.deletionGracePeriodSeconds;
  if (old.generation !== undefined) meta.generation = old.generation;
  else delete meta.generation;
  delete meta.selfLink;
}

function validateFinalizers(finalizers: string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const list = finalizers ?? [];
  // Kubernetes reports finalizer errors on the list's path, without an index.
  for (const f of list) {
    for (const m of isQualifiedName(f)) errs.push(fieldErr.invalid(path, f, m));
  }
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(fieldErr.invalid(path, list, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

function validateOwnerReferences(refs: ObjectMeta['ownerReferences'], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let controllers = 0;
  (refs ?? []).forEach((r, i) => {
    const p = path.index(i);
    if (!r.apiVersion) errs.push(fieldErr.invalid(p.child('apiVersion'), r.apiVersion, 'version must not be empty'));
    if (!r.kind) errs.push(fieldErr.invalid(p.child('kind'), r.kind, 'kind must not be empty'));
    if (!r.name) errs.push(fieldErr.invalid(p.child('name'), r.name, 'name must not be empty'));
    if (!r.uid) errs.push(fieldErr.invalid(p.child('uid'), r.uid, 'uid must not be empty'));
    if (r.controller) controllers++;
  });
  if (controllers > 1) {
    errs.push(fieldErr.invalid(path, OMITTED_VALUE, 'Only one reference can have Controller set to true'));
  }
  return errs;
}

const OMITTED_VALUE = undefined;

/** Validation of metadata common to every kind, on create. */
export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean, nameValidator: NameValidator): FieldError[] {
  const path = FieldPath.root('metadata');
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const m of nameValidator(meta.generateName, true)) errs.push(fieldErr.invalid(path.child('generateName'), meta.generateName, m));
  }
  if (!meta.name) {
    errs.push(fieldErr.required(path.child('name'), 'name or generateName is required'));
  } else {
    for (const m of nameValidator(meta.name, false)) errs.push(fieldErr.invalid(path.child('name'), meta.name, m));
  }
  if (namespaced) {
    if (!meta.namespace) errs.push(fieldErr.required(path.child('namespace')));
    else for (const m of isDns1123Label(meta.namespace)) errs.push(fieldErr.invalid(path.child('namespace'), meta.namespace, m));
  } else if (meta.namespace) {
    errs.push(fieldErr.forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  if (meta.generation !== undefined && meta.generation < 0) errs.push(fieldErr.invalid(path.child('generation'), meta.generation, 'must be greater than or equal to 0'));
  errs.push(...validateLabels(meta.labels, path.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, path.child('finalizers')));
  return errs;
}

/** Validation of metadata on update: the create rules plus the fields that never change. */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta, namespaced: boolean, nameValidator: NameValidator): FieldError[] {
  const path = FieldPath.root('metadata');
  const errs = validateObjectMeta(meta, namespaced, nameValidator).filter((e) => e.field !== 'metadata.generateName');
  if (meta.name !== old.name) errs.push(fieldErr.immutable(path.child('name'), meta.name));
  if ((meta.namespace ?? '') !== (old.namespace ?? '')) errs.push(fieldErr.immutable(path.child('namespace'), meta.namespace));
  if (meta.uid !== old.uid) errs.push(fieldErr.immutable(path.child('uid'), meta.uid));
  if (meta.creationTimestamp !== old.creationTimestamp) errs.push(fieldErr.immutable(path.child('creationTimestamp'), meta.creationTimestamp));
  if (old.deletionTimestamp && meta.finalizers) {
    const added = [...new Set(meta.finalizers.filter((f) => !(old.finalizers ?? []).includes(f)))].sort();
    if (added.length) {
      // The list prints as Go's %#v of a sorted []string, as Kubernetes' message does.
      const goList = `[]string{${added.map((f) => JSON.stringify(f)).join(', ')}}`;
      errs.push(fieldErr.forbidden(path.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers ${goList}`));
    }
  }
  return errs;
}
