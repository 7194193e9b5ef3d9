/**
 * PriorityClass (scheduling.<domain>/v1): a name for a pod priority. Values above one billion and
 * names starting with `system-` are reserved for the two classes the system defines; the value
 * and the preemption policy never change after creation.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { age, ageColumn, column, defineResource, defineTable, nameColumn } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';

export const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'] as const;

export const PriorityClassSchema = t.struct('scheduling.v1.PriorityClass', {
  ...objectHeader,
  value: t.required(2, t.int32(), { always: true, description: 'The priority pods of this class receive; higher runs first.' }),
  globalDefault: t.field(3, t.bool(), { description: 'Whether pods that name no class get this one. At most one class should say so.' }),
  description: t.field(4, t.string(), { description: 'When to use this class, for people.' }),
  preemptionPolicy: t.field(5, t.string({ enum: PREEMPTION_POLICIES }), {
    pointer: true,
    description: 'Whether pods of this class may preempt pods of lower priority: PreemptLowerPriority (the default) or Never. Immutable.',
  }),
}, { description: 'A priority class: a name for a pod priority value.' });
export type PriorityClass = ObjectOf<typeof PriorityClassSchema>;

/** The highest value a class not defined by the system may have. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';

/** The classes the system defines (and the Priority admission plugin creates at start). */
export const SYSTEM_PRIORITY_CLASSES: readonly { name: string; value: number; description: string }[] = [
  { name: 'system-node-critical', value: 2 * HIGHEST_USER_DEFINABLE_PRIORITY + 1000, description: 'Used for system critical pods that must not be moved from their current node.' },
  { name: 'system-cluster-critical', value: 2 * HIGHEST_USER_DEFINABLE_PRIORITY, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
];

/** Why a `system-` class is not one the system defines, in Kubernetes' words; undefined when it is. */
function systemClassProblem(pc: PriorityClass): string | undefined {
  const name = pc.metadata.name ?? '';
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== pc.value) return `value of ${name} PriorityClass must be ${known.value}`;
  if ((pc.globalDefault ?? false) !== false) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

function validatePriorityClass(pc: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  if ((pc.metadata.name ?? '').startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const problem = systemClassProblem(pc);
    if (problem) {
      errs.push(fieldErr.forbidden(FieldPath.root('metadata').child('name'), `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${problem}`));
    }
  } else if (pc.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(fieldErr.forbidden(FieldPath.root('value'), `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  const policy = pc.preemptionPolicy;
  if (policy === '') errs.push(fieldErr.required(FieldPath.root('preemptionPolicy')));
  else if (policy !== undefined && !(PREEMPTION_POLICIES as readonly string[]).includes(policy)) {
    errs.push(fieldErr.notSupported(FieldPath.root('preemptionPolicy'), policy, PREEMPTION_POLICIES));
  }
  return errs;
}

function validatePriorityClassUpdate(pc: PriorityClass, old: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  if (pc.value !== old.value) errs.push(fieldErr.forbidden(FieldPath.root('value'), 'may not be changed in an update.'));
  if (pc.preemptionPolicy !== old.preemptionPolicy) errs.push(fieldErr.immutable(FieldPath.root('preemptionPolicy'), pc.preemptionPolicy ?? null));
  return errs;
}

/** `kubectl get priorityclasses`. */
export const priorityClassTable = defineTable<PriorityClass>({
  columns: [
    nameColumn,
    column('Value', 'The priority pods of this class receive.', { type: 'integer' }),
    column('Global-Default', 'Whether pods without a priority class get this one.', { type: 'boolean' }),
    ageColumn,
  ],
  cells: (pc, ctx) => [pc.metadata.name ?? '', pc.value ?? 0, pc.globalDefault ?? false, age(pc, ctx)],
});

export const priorityClassResource = defineResource<PriorityClass>((names) => ({
  group: names.group('scheduling'),
  version: 'v1',
  kind: 'PriorityClass',
  resource: 'priorityclasses',
  singular: 'priorityclass',
  namespaced: false,
  shortNames: ['pc'],
  schema: PriorityClassSchema,
  table: priorityClassTable,
  fixture: () => ({ value: 1000, description: 'for the generic suite' }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    defaults(pc) {
      pc.preemptionPolicy ??= 'PreemptLowerPriority';
    },
    validate: validatePriorityClass,
    validateUpdate: validatePriorityClassUpdate,
  },
}));
