/** Where a pod may run: node and pod affinity, tolerations and topology spread constraints. */
import { fieldErr, type FieldError, type FieldPath } from '../../../../../machinery/field-errors.js';
import { validateLabelSelector } from '../../../../../machinery/label-selector-validation.js';
import { isValidLabelValue } from '../../../../../machinery/name-validation.js';
import { IS_NOT_POSITIVE, validateDns1123Label, validateQualifiedName, type Toleration } from '../../types/index.js';
import { validateNodeSelector, validateNodeSelectorTerm, validateTaintEffect } from '../../validation/scheduling.js';
import type { Affinity, PodAffinityTerm, TopologySpreadConstraint, WeightedPodAffinityTerm } from '../affinity.js';

function validateWeight(weight: number, path: FieldPath): FieldError[] {
  return weight <= 0 || weight > 100 ? [fieldErr.invalid(path, weight, 'must be in the range 1-100')] : [];
}

function validatePodAffinityTerm(term: PodAffinityTerm, path: FieldPath): FieldError[] {
  const errs = [...validateLabelSelector(term.labelSelector, path.child('labelSelector')), ...validateLabelSelector(term.namespaceSelector, path.child('namespaceSelector'))];
  for (const ns of term.namespaces ?? []) errs.push(...validateDns1123Label(ns, path.child('namespace')));
  if (!term.topologyKey) errs.push(fieldErr.required(path.child('topologyKey'), 'can not be empty'));
  errs.push(...validateQualifiedName(term.topologyKey, path.child('topologyKey')));
  return errs;
}

function validatePodAffinityTerms(
  required: readonly PodAffinityTerm[] | undefined,
  preferred: readonly WeightedPodAffinityTerm[] | undefined,
  path: FieldPath,
): FieldError[] {
  const req = path.child('requiredDuringSchedulingIgnoredDuringExecution');
  const pref = path.child('preferredDuringSchedulingIgnoredDuringExecution');
  return [
    ...(required ?? []).flatMap((t, i) => validatePodAffinityTerm(t, req.index(i))),
    ...(preferred ?? []).flatMap((w, i) => [...validateWeight(w.weight, pref.index(i).child('weight')), ...validatePodAffinityTerm(w.podAffinityTerm, pref.index(i).child('podAffinityTerm'))]),
  ];
}

export function validateAffinity(affinity: Affinity | undefined, path: FieldPath): FieldError[] {
  if (!affinity) return [];
  const errs: FieldError[] = [];
  const na = affinity.nodeAffinity;
  if (na) {
    const np = path.child('nodeAffinity');
    const required = na.requiredDuringSchedulingIgnoredDuringExecution;
    if (required) errs.push(...validateNodeSelector(required, np.child('requiredDuringSchedulingIgnoredDuringExecution')));
    (na.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
      const p = np.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      errs.push(...validateWeight(t.weight, p.child('weight')), ...validateNodeSelectorTerm(t.preference, p.child('preference')));
    });
  }
  if (affinity.podAffinity) {
    const pa = affinity.podAffinity;
    errs.push(...validatePodAffinityTerms(pa.requiredDuringSchedulingIgnoredDuringExecution, pa.preferredDuringSchedulingIgnoredDuringExecution, path.child('podAffinity')));
  }
  if (affinity.podAntiAffinity) {
    const pa = affinity.podAntiAffinity;
    errs.push(...validatePodAffinityTerms(pa.requiredDuringSchedulingIgnoredDuringExecution, pa.preferredDuringSchedulingIgnoredDuringExecution, path.child('podAntiAffinity')));
  }
  return errs;
}

export function validateTolerations(tolerations: readonly Toleration[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (tolerations ?? []).forEach((t, i) => {
    const p = path.index(i);
    if (t.key) errs.push(...validateQualifiedName(t.key, p.child('key')));
    if (!t.key && t.operator !== 'Exists') {
      errs.push(fieldErr.invalid(p.child('operator'), t.operator ?? '', 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      errs.push(fieldErr.invalid(p.child('effect'), t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (t.operator ?? '') {
      case 'Equal':
      case '': {
        const msgs = isValidLabelValue(t.value ?? '');
        if (msgs.length) errs.push(fieldErr.invalid(p.child('operator'), t.value ?? '', msgs.join(';')));
        break;
      }
      case 'Exists':
        if (t.value) errs.push(fieldErr.invalid(p.child('operator'), t, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(fieldErr.notSupported(p.child('operator'), t.operator, ['Equal', 'Exists']));
    }
    if (t.effect) errs.push(...validateTaintEffect(t.effect, true, p.child('effect')));
  });
  return errs;
}

const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'];
const INCLUSION_POLICIES = ['Honor', 'Ignore'];

export function validateTopologySpreadConstraints(constraints: readonly TopologySpreadConstraint[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const list = constraints ?? [];
  list.forEach((c, i) => {
    const p = path.index(i);
    if (c.maxSkew <= 0) errs.push(fieldErr.invalid(p.child('maxSkew'), c.maxSkew, IS_NOT_POSITIVE));
    if (!c.topologyKey) errs.push(fieldErr.required(p.child('topologyKey'), 'can not be empty'));
    if (!WHEN_UNSATISFIABLE.includes(c.whenUnsatisfiable)) errs.push(fieldErr.notSupported(p.child('whenUnsatisfiable'), c.whenUnsatisfiable, WHEN_UNSATISFIABLE));
    // {topologyKey, whenUnsatisfiable} identifies a constraint: a later repeat is the duplicate.
    if (list.slice(i + 1).some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable)) {
      errs.push(fieldErr.duplicate(p.child('{topologyKey, whenUnsatisfiable}'), `{${c.topologyKey}, ${c.whenUnsatisfiable}}`));
    }
    if (c.minDomains !== undefined) {
      if (c.minDomains <= 0) errs.push(fieldErr.invalid(p.child('minDomains'), c.minDomains, IS_NOT_POSITIVE));
      if (c.whenUnsatisfiable !== 'DoNotSchedule') {
        errs.push(fieldErr.invalid(p.child('minDomains'), c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${c.whenUnsatisfiable}`));
      }
    }
    for (const f of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const v = c[f];
      if (v !== undefined && !INCLUSION_POLICIES.includes(v)) errs.push(fieldErr.notSupported(p.child(f), v, INCLUSION_POLICIES));
    }
    for (const k of c.matchLabelKeys ?? []) errs.push(...validateQualifiedName(k, p.child('matchLabelKeys')));
  });
  return errs;
}
