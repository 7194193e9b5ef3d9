/**
 * Rules for Pod objects beyond their spec: what a create may hold, which spec fields an update may
 * change (images, activeDeadlineSeconds, added tolerations), and what a status write may do.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../../../machinery/field-errors.js';
import { parseIP } from '../../../../../machinery/ip.js';
import type { ObjectMeta } from '../../../../../schema/index.js';
import type { Container } from '../container.js';
import type { PodSpec } from '../pod-spec.js';
import type { ContainerStatus, PodStatus } from '../pod-status.js';
import { inclusiveRange, INVALID_IP, validateDns1123Subdomain, validateQualifiedName } from '../../types/index.js';
import { INT32_MAX } from './common.js';
import { validatePodSpec } from './pod-spec.js';

export interface PodLike {
  metadata: ObjectMeta;
  spec: PodSpec;
  status: PodStatus;
}

const SPEC = FieldPath.root('spec');
const STATUS = FieldPath.root('status');

function validateImageWhitespace(containers: readonly Container[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (containers ?? []).forEach((c, i) => {
    const image = c.image ?? '';
    if (image !== image.trim()) errs.push(fieldErr.invalid(path.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return errs;
}

function validatePodIPs(status: PodStatus): FieldError[] {
  const errs: FieldError[] = [];
  const path = STATUS.child('podIPs');
  const ips = status.podIPs ?? [];
  ips.forEach((p, i) => {
    if (!parseIP(p.ip ?? '')) errs.push(fieldErr.invalid(path.index(i), p.ip ?? '', INVALID_IP));
  });
  if (ips.length > 1) {
    const families = new Set(ips.map((p) => ((p.ip ?? '').includes(':') ? 6 : 4)));
    if (families.size !== ips.length || ips.length > 2) errs.push(fieldErr.invalid(path, ips, 'may specify no more than one IP for each IP family'));
    const seen = new Set<string>();
    ips.forEach((p, i) => {
      if (seen.has(p.ip ?? '')) errs.push(fieldErr.duplicate(path.index(i), p));
      seen.add(p.ip ?? '');
    });
  }
  return errs;
}

/** Pod-only checks shared by create and update (templates are spared them, as in Kubernetes). */
function validatePodMetadataAndSpec(pod: PodLike, apiNames: ApiNames): FieldError[] {
  const errs = validatePodSpec(pod.spec, pod.metadata, SPEC, apiNames);
  if (!pod.spec.serviceAccountName) {
    (pod.spec.volumes ?? []).forEach((v, vi) => {
      (v.projected?.sources ?? []).forEach((s, si) => {
        if (s.serviceAccountToken) {
          const p = SPEC.child('volumes').index(vi).child('projected').child('sources').index(si).child('serviceAccountToken');
          errs.push(fieldErr.forbidden(p, 'must not be specified when serviceAccountName is not set'));
        }
      });
    });
  }
  errs.push(...validateImageWhitespace(pod.spec.containers, SPEC.child('containers')), ...validateImageWhitespace(pod.spec.initContainers, SPEC.child('initContainers')));
  return errs;
}

/** The pod's spec rules, on create and update alike. */
export function validatePodSpecRules(pod: PodLike, apiNames: ApiNames): FieldError[] {
  return validatePodMetadataAndSpec(pod, apiNames);
}

/** What only a create checks, beside the spec rules. */
export function validatePodCreate(pod: PodLike): FieldError[] {
  const errs: FieldError[] = [];
  // Ephemeral containers are added to running pods only (through their own subresource).
  if ((pod.spec.ephemeralContainers ?? []).length > 0) errs.push(fieldErr.forbidden(SPEC.child('ephemeralContainers'), 'cannot be set on create'));
  errs.push(...validatePodIPs(pod.status));
  return errs;
}

function validateContainerUpdates(next: readonly Container[] | undefined, prev: readonly Container[] | undefined, path: FieldPath): { errs: FieldError[]; stop: boolean } {
  const a = next ?? [];
  const b = prev ?? [];
  if (a.length !== b.length) return { errs: [fieldErr.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  a.forEach((c, i) => {
    if (!c.image) errs.push(fieldErr.required(path.index(i).child('image')));
  });
  return { errs, stop: false };
}

function tolerationsOnlyAdded(next: PodSpec['tolerations'], prev: PodSpec['tolerations']): boolean {
  return (prev ?? []).every((old) => (next ?? []).some((t) => isDeepStrictEqual({ ...old, tolerationSeconds: t.tolerationSeconds }, t)));
}

/** A short account of what differs, in the spirit of the diff Kubernetes appends. */
function specDiff(prev: PodSpec, next: PodSpec): string {
  const lines: string[] = [];
  const keys = [...new Set([...Object.keys(prev), ...Object.keys(next)])].sort();
  for (const k of keys) {
    const a = (prev as Record<string, unknown>)[k];
    const b = (next as Record<string, unknown>)[k];
    if (isDeepStrictEqual(a, b)) continue;
    if (a !== undefined) lines.push(`- \t${k}: ${JSON.stringify(a)},`);
    if (b !== undefined) lines.push(`+ \t${k}: ${JSON.stringify(b)},`);
  }
  return `  core.PodSpec{\n${lines.join('\n')}\n  }\n`;
}

/** What only an update checks; the spec itself is checked by validatePodSpecRules as on create. */
export function validatePodUpdate(pod: PodLike, old: PodLike): FieldError[] {
  const errs: FieldError[] = [];
  for (const [list, path] of [
    ['containers', SPEC.child('containers')],
    ['initContainers', SPEC.child('initContainers')],
  ] as const) {
    const r = validateContainerUpdates(pod.spec[list], old.spec[list], path);
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const deadlinePath = SPEC.child('activeDeadlineSeconds');
  const deadline = pod.spec.activeDeadlineSeconds;
  const oldDeadline = old.spec.activeDeadlineSeconds;
  if (deadline !== undefined) {
    if (deadline < 0 || deadline > INT32_MAX) return [...errs, fieldErr.invalid(deadlinePath, deadline, inclusiveRange(0, INT32_MAX))];
    if (oldDeadline !== undefined && oldDeadline < deadline) return [...errs, fieldErr.invalid(deadlinePath, deadline, 'must be less than or equal to previous value')];
  } else if (oldDeadline !== undefined) {
    errs.push(fieldErr.invalid(deadlinePath, null, 'must not update from a positive integer to nil value'));
  }
  if (!tolerationsOnlyAdded(pod.spec.tolerations, old.spec.tolerations)) {
    errs.push(fieldErr.forbidden(SPEC.child('tolerations'), 'existing toleration can not be modified except its tolerationSeconds'));
  }
  if (isDeepStrictEqual(pod.spec, old.spec)) return errs;
  // Put back what may change, then anything still different is a forbidden change.
  const munged: PodSpec = structuredClone(pod.spec);
  munged.containers = munged.containers.map((c, i) => ({ ...c, image: old.spec.containers[i]?.image }) as Container);
  if (munged.initContainers) munged.initContainers = munged.initContainers.map((c, i) => ({ ...c, image: old.spec.initContainers?.[i]?.image }) as Container);
  if (oldDeadline === undefined) delete munged.activeDeadlineSeconds;
  else munged.activeDeadlineSeconds = oldDeadline;
  if (old.spec.tolerations === undefined) delete munged.tolerations;
  else munged.tolerations = old.spec.tolerations;
  const oldGrace = old.spec.terminationGracePeriodSeconds;
  if (oldGrace !== undefined && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(munged)), JSON.parse(JSON.stringify(old.spec)))) {
    errs.push(
      fieldErr.forbidden(
        SPEC,
        'pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n' +
          specDiff(old.spec, munged),
      ),
    );
  }
  return errs;
}

const SYSTEM_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized']);

function validateStateTransition(next: readonly ContainerStatus[] | undefined, prev: readonly ContainerStatus[] | undefined, path: FieldPath, restartPolicy: string): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  (prev ?? []).forEach((old, i) => {
    const terminated = old.state.terminated;
    if (!terminated) return;
    if (terminated.exitCode !== 0 && restartPolicy === 'OnFailure') return;
    for (const s of next ?? []) {
      if (s.name === old.name && !s.state.terminated) errs.push(fieldErr.forbidden(path.index(i).child('state'), 'may not be transitioned to non-terminated state'));
    }
  });
  return errs;
}

export function validatePodStatusUpdate(pod: PodLike, old: PodLike): FieldError[] {
  const errs: FieldError[] = [];
  (pod.status.conditions ?? []).forEach((c, i) => {
    // Kubernetes names this path `metadata.conditions[i].Type`; kept for clients that match on it.
    if (!SYSTEM_CONDITIONS.has(c.type)) errs.push(...validateQualifiedName(c.type, FieldPath.root('metadata').child('conditions').index(i).child('Type')));
  });
  const nominated = pod.status.nominatedNodeName;
  if (nominated && nominated !== old.status.nominatedNodeName) errs.push(...validateDns1123Subdomain(nominated, STATUS.child('nominatedNodeName')));
  const policy = old.spec.restartPolicy ?? 'Always';
  errs.push(
    ...validateStateTransition(pod.status.containerStatuses, old.status.containerStatuses, STATUS.child('containerStatuses'), policy),
    ...validateStateTransition(pod.status.initContainerStatuses, old.status.initContainerStatuses, STATUS.child('initContainerStatuses'), policy),
    ...validateStateTransition(pod.status.ephemeralContainerStatuses, old.status.ephemeralContainerStatuses, STATUS.child('ephemeralContainerStatuses'), 'Never'),
  );
  const ipErrs = validatePodIPs(pod.status);
  // Bad addresses already stored are tolerated, so that a pod can still be updated.
  if (ipErrs.length && validatePodIPs(old.status).length === 0) errs.push(...ipErrs);
  return errs;
}

/**
 * A write of `/ephemeralcontainers` (ValidatePodEphemeralContainersUpdate): the pod's spec rules
 * hold, a static pod takes none, and containers already added are neither removed nor changed.
 */
export function validateEphemeralContainersUpdate(pod: PodLike, old: PodLike, apiNames: ApiNames, mirrorAnnotation: string): FieldError[] {
  if (old.metadata.annotations?.[mirrorAnnotation] !== undefined) return [fieldErr.forbidden('', 'static pods do not support ephemeral containers')];
  const errs = validatePodMetadataAndSpec(pod, apiNames);
  const path = SPEC.child('ephemeralContainers');
  const now = new Map((pod.spec.ephemeralContainers ?? []).map((c) => [c.name, c]));
  for (const before of old.spec.ephemeralContainers ?? []) {
    const after = now.get(before.name);
    if (!after) errs.push(fieldErr.forbidden(path, `existing ephemeral containers "${before.name}" may not be removed\n`));
    else if (!isDeepStrictEqual(before, after)) errs.push(fieldErr.forbidden(path, `existing ephemeral containers "${before.name}" may not be changed\n`));
  }
  return errs;
}
