/**
 * Node selectors, taints and taint effects: the rules Kubernetes applies wherever they appear (a
 * persistent volume's node affinity, a node's taints, a pod's node affinity and tolerations).
 */
import { fieldErr, type FieldError, type FieldPath } from '../../../../machinery/field-errors.js';
import { isDns1123Subdomain, isValidLabelValue } from '../../../../machinery/name-validation.js';
import type { Infer } from '../../../../schema/index.js';
import type { NodeSelector, NodeSelectorTerm as NodeSelectorTermSchema, Taint } from '../types/index.js';
import { TAINT_EFFECTS, validateQualifiedName } from '../types/index.js';

type NodeSelectorTerm = Infer<typeof NodeSelectorTermSchema>;

interface Requirement {
  key: string;
  operator: string;
  values?: string[];
}

export function validateNodeSelectorRequirement(rq: Requirement, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const values = rq.values ?? [];
  switch (rq.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldErr.required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldErr.forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(fieldErr.required(path.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(fieldErr.invalid(path.child('operator'), rq.operator, 'not a valid selector operator'));
  }
  errs.push(...validateQualifiedName(rq.key, path.child('key')));
  return errs;
}

/** matchFields may only pin `metadata.name`, with one value, to a node name. */
export function validateNodeFieldSelectorRequirement(rq: Requirement, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const values = rq.values ?? [];
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (values.length !== 1) errs.push(fieldErr.required(path.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(fieldErr.invalid(path.child('operator'), rq.operator, 'not a valid selector operator'));
  }
  if (rq.key !== 'metadata.name') {
    errs.push(fieldErr.invalid(path.child('key'), rq.key, 'not a valid field selector key'));
  } else {
    values.forEach((v, i) => {
      for (const m of isDns1123Subdomain(v)) errs.push(fieldErr.invalid(path.child('values').index(i), v, m));
    });
  }
  return errs;
}

/** One term: its label expressions and its field expressions (a preferred scheduling term's preference too). */
export function validateNodeSelectorTerm(term: NodeSelectorTerm, path: FieldPath): FieldError[] {
  return [
    ...(term.matchExpressions ?? []).flatMap((rq, j) => validateNodeSelectorRequirement(rq, path.child('matchExpressions').index(j))),
    ...(term.matchFields ?? []).flatMap((rq, j) => validateNodeFieldSelectorRequirement(rq, path.child('matchFields').index(j))),
  ];
}

export function validateNodeSelector(selector: NodeSelector, path: FieldPath): FieldError[] {
  const terms = path.child('nodeSelectorTerms');
  if ((selector.nodeSelectorTerms ?? []).length === 0) return [fieldErr.required(terms, 'must have at least one node selector term')];
  return (selector.nodeSelectorTerms ?? []).flatMap((term, i) => validateNodeSelectorTerm(term, terms.index(i)));
}

/** A taint effect; `allowEmpty` for tolerations, where empty matches every effect. */
export function validateTaintEffect(effect: string, allowEmpty: boolean, path: FieldPath): FieldError[] {
  if (!allowEmpty && effect === '') return [fieldErr.required(path)];
  if (effect !== '' && !(TAINT_EFFECTS as readonly string[]).includes(effect)) return [fieldErr.notSupported(path, effect, TAINT_EFFECTS)];
  return [];
}

/** A node's taints: valid key, value and effect each, and no two with the same key and effect. */
export function validateTaints(taints: readonly Taint[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((taint, i) => {
    const at = path.index(i);
    errs.push(...validateQualifiedName(taint.key, at.child('key')));
    const valueErrs = isValidLabelValue(taint.value ?? '');
    if (valueErrs.length) errs.push(fieldErr.invalid(at.child('value'), taint.value ?? '', valueErrs.join(';')));
    errs.push(...validateTaintEffect(taint.effect, false, at.child('effect')));
    const id = JSON.stringify([taint.effect, taint.key]);
    if (seen.has(id)) {
      errs.push({ ...fieldErr.duplicate(at, taint), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    seen.add(id);
  });
  return errs;
}

