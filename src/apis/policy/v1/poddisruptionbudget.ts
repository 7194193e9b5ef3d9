/**
 * PodDisruptionBudget (policy/v1): how many of a set of pods must stay up (or may be down) during
 * voluntary disruptions such as evictions. Kubernetes gives it no defaults; the spec may change
 * after creation (since 1.15), and its status is written by the disruption controller.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { hasInvalidLabelValueInSelector, validateLabelSelector } from '../../../machinery/label-selector-validation.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { age, ageColumn, column, defineResource, defineTable, nameColumn, statusSubresource } from '../../../registry/define-resource.js';
import { Condition, LabelSelector, objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { validateIntOrPercent, validateNotMoreThan100Percent } from '../../apps/v1/int-or-percent.js';
import { validateConditions, validateNonNegative } from '../../core/v1/types/index.js';

export const PodDisruptionBudgetSpec = t.struct('policy.v1.PodDisruptionBudgetSpec', {
  minAvailable: t.field(1, t.intOrString(), { pointer: true, description: 'How many (or what percentage) of the selected pods must stay available after an eviction.' }),
  selector: t.field(2, LabelSelector, {
    pointer: true,
    patchStrategy: 'replace',
    description: 'The pods the budget covers. An empty selector selects every pod of the namespace; none selects none.',
  }),
  maxUnavailable: t.field(3, t.intOrString(), { pointer: true, description: 'How many (or what percentage) of the selected pods may be unavailable after an eviction. Exclusive with minAvailable.' }),
}, { description: 'What a disruption budget demands.' });

export const PodDisruptionBudgetStatus = t.struct('policy.v1.PodDisruptionBudgetStatus', {
  observedGeneration: t.field(1, t.int64(), { description: 'The generation the status was computed for.' }),
  disruptedPods: t.field(2, t.map(t.time()), { description: 'Pods whose eviction was allowed but not yet seen deleted, with the time of the eviction.' }),
  disruptionsAllowed: t.required(3, t.int32(), { always: true, description: 'How many pod disruptions are allowed now.' }),
  currentHealthy: t.required(4, t.int32(), { always: true, description: 'How many healthy pods there are now.' }),
  desiredHealthy: t.required(5, t.int32(), { always: true, description: 'The fewest healthy pods the budget wants.' }),
  expectedPods: t.required(6, t.int32(), { always: true, description: 'How many pods the budget counts.' }),
  conditions: t.field(7, t.list(Condition, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }), {
    description: 'The observations of the budget; DisruptionAllowed says whether evictions may proceed.',
  }),
}, { description: 'What the disruption controller last observed of the budget. Read-only.' });

export const PodDisruptionBudgetSchema = t.struct('policy.v1.PodDisruptionBudget', {
  ...objectHeader,
  spec: t.field(2, PodDisruptionBudgetSpec, { description: 'What the budget demands.' }),
  status: t.field(3, PodDisruptionBudgetStatus, { description: 'What the budget allows now. Read-only.' }),
}, { description: 'A pod disruption budget: the most pods of a set that voluntary disruptions may take down at once.' });
export type PodDisruptionBudget = ObjectOf<typeof PodDisruptionBudgetSchema>;

function validateSpec(pdb: PodDisruptionBudget, allowInvalidLabelValueInSelector: boolean): FieldError[] {
  const spec = pdb.spec;
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errs.push(fieldErr.invalid(path, spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  for (const k of ['minAvailable', 'maxUnavailable'] as const) {
    if (spec[k] === undefined) continue;
    errs.push(...validateIntOrPercent(spec[k], path.child(k)), ...validateNotMoreThan100Percent(spec[k], path.child(k)));
  }
  errs.push(...validateLabelSelector(spec.selector, path.child('selector'), { allowInvalidLabelValueInSelector }));
  return errs;
}

function validateStatus(pdb: PodDisruptionBudget): FieldError[] {
  const s = pdb.status;
  const path = FieldPath.root('status');
  const errs = validateConditions(s.conditions, path.child('conditions'));
  for (const k of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const) errs.push(...validateNonNegative(s[k], path.child(k)));
  return errs;
}

/** Go's IntOrString.String(), or N/A for a field not set. */
function intOrStringCell(v: number | string | undefined): string {
  return v === undefined ? 'N/A' : String(v);
}

/** `kubectl get pdb`. */
export const podDisruptionBudgetTable = defineTable<PodDisruptionBudget>({
  columns: [
    nameColumn,
    column('Min Available', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'Calculated number of pods that may be disrupted at this time.', { type: 'integer' }),
    ageColumn,
  ],
  cells: (pdb, ctx) => [
    pdb.metadata.name ?? '',
    intOrStringCell(pdb.spec?.minAvailable),
    intOrStringCell(pdb.spec?.maxUnavailable),
    pdb.status?.disruptionsAllowed ?? 0,
    age(pdb, ctx),
  ],
});

export const podDisruptionBudgetResource = defineResource<PodDisruptionBudget>(() => ({
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  resource: 'poddisruptionbudgets',
  singular: 'poddisruptionbudget',
  namespaced: true,
  shortNames: ['pdb'],
  schema: PodDisruptionBudgetSchema,
  table: podDisruptionBudgetTable,
  fixture: () => ({ spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } }),
  strategy: {
    // Kubernetes checks no more of the name than that it can be a path segment.
    nameValidator: nameValidators.pathSegment,
    trackGeneration: true,
    prepareForCreate(pdb) {
      pdb.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
    },
    validateCreate: (pdb) => validateSpec(pdb, false),
    validateUpdate: (pdb, old) => validateSpec(pdb, hasInvalidLabelValueInSelector(old.spec.selector)),
  },
  subresources: {
    status: statusSubresource<PodDisruptionBudget>({ validateUpdate: validateStatus }),
  },
}));

