/** Where a pod may run: node and pod affinity, tolerations and topology spread constraints. */
import { fieldErr, type FieldError, type FieldPath } from '../../../../../machinery/field-errors.js';
import { isValidLabelValue } from '../../../../../machinery/name-validation.js';
import type { Infer } from '../../../../../schema/index.js';
import type { NodeSelectorTerm as NodeSelectorTermSchema, Toleration } from '../../types/index.js';
import type { Affinity, PodAffinityTerm, TopologySpreadConstraint, WeightedPodAffinityTerm } from '../affinity.js';
import { NOT_POSITIVE_MSG, validateDns1123Label, validateLabelSelector, validateQualifiedName } from './common.js';

type NodeSelectorTerm = Infer<typeof NodeSelectorTermSchema>;
type NodeSelectorRequirement = NonNullable<NodeSelectorTerm['matchExpressions']>[number];

function validateNodeSelectorRequirement(rq: NodeSelectorRequirement, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const n = (rq.values ?? []).length;
  switch (rq.operator) {
    case 'In':
    case 'NotIn':
      if (n === 0) errs.push(fieldErr.required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (n > 0) errs.push(fieldErr.forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (n !== 1) errs.push(fieldErr.required(path.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(fieldErr.invalid(path.child('operator'), rq.operator, 'not a valid selector operator'));
  }
  errs.push(...validateQualifiedName(rq.key, path.child('key')));
  return errs;
}

function validateNodeFieldRequirement(rq: NodeSelectorRequirement, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if ((rq.values ?? []).length !== 1) errs.push(fieldErr.required(path.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(fieldErr.invalid(path.child('operator'), rq.operator, 'not a valid selector operator'));
  }
  if (rq.key !== 'metadata.name') errs.push(fieldErr.invalid(path.child('key'), rq.key, 'not a valid field selector key'));
  return errs;
}

function validateNodeSelectorTerm(term: NodeSelectorTerm, path: FieldPath): FieldError[] {
  return [
    ...(term.matchExpressions ?? []).flatMap((rq, i) => validateNodeSelectorRequirement(rq, path.child('matchExpressions').index(i))),
    ...(term.matchFields ?? []).flatMap((rq, i) => validateNodeFieldRequirement(rq, path.child('matchFields').index(i))),
  ];
}

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
    if (required) {
      const tp = np.child('requiredDuringSchedulingIgnoredDuringExecution').child('nodeSelectorTerms');
      if ((required.nodeSelectorTerms ?? []).length === 0) errs.push(fieldErr.required(tp, 'must have at least one node selector term'));
      (required.nodeSelectorTerms ?? []).forEach((t, i) => errs.push(...validateNodeSelectorTerm(t, tp.index(i))));
    }
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

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

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
    if (t.effect && !TAINT_EFFECTS.includes(t.effect)) errs.push(fieldErr.notSupported(p.child('effect'), t.effect, TAINT_EFFECTS));
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
    if (c.maxSkew <= 0) errs.push(fieldErr.invalid(p.child('maxSkew'), c.maxSkew, NOT_POSITIVE_MSG));
    if (!c.topologyKey) errs.push(fieldErr.required(p.child('topologyKey'), 'can not be empty'));
    if (!WHEN_UNSATISFIABLE.includes(c.whenUnsatisfiable)) errs.push(fieldErr.notSupported(p.child('whenUnsatisfiable'), c.whenUnsatisfiable, WHEN_UNSATISFIABLE));
    // {topologyKey, whenUnsatisfiable} identifies a constraint: a later repeat is the duplicate.
    if (list.slice(i + 1).some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable)) {
      errs.push(fieldErr.duplicate(p.child('{topologyKey, whenUnsatisfiable}'), `{${c.topologyKey}, ${c.whenUnsatisfiable}}`));
    }
    if (c.minDomains !== undefined) {
      if (c.minDomains <= 0) errs.push(fieldErr.invalid(p.child('minDomains'), c.minDomains, NOT_POSITIVE_MSG));
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
