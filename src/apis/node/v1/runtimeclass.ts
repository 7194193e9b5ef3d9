/**
 * RuntimeClass (node.<domain>/v1): a container runtime configuration pods may ask for, with the
 * overhead its pods carry and where they may be scheduled. The handler never changes.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { validateLabels } from '../../../machinery/meta-validation.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { age, ageColumn, column, defineResource, defineTable, nameColumn } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { validateResourceRequirements } from '../../core/v1/pod/validation/resources.js';
import { validateTolerations } from '../../core/v1/pod/validation/scheduling.js';
import { ResourceList, Toleration, validateDns1123Label } from '../../core/v1/types/index.js';

export const Overhead = t.struct('node.v1.Overhead', {
  podFixed: t.field(1, ResourceList, { description: 'The fixed resources a pod of this class takes beyond its containers.' }),
}, { description: 'The resources a pod of the class takes beyond its containers.' });

export const Scheduling = t.struct('node.v1.Scheduling', {
  nodeSelector: t.field(1, t.map(t.string(), { mapType: 'atomic' }), { description: 'Labels the nodes that support the class carry; merged into the pods\' node selector.' }),
  tolerations: t.field(2, t.list(Toleration, { listType: 'atomic' }), { description: 'Tolerations added to the pods of the class.' }),
}, { description: 'Where pods of the class may run.' });

export const RuntimeClassSchema = t.struct('node.v1.RuntimeClass', {
  ...objectHeader,
  handler: t.required(2, t.string(), { always: true, description: 'The runtime configuration the CRI implementation uses (a DNS label). Immutable.' }),
  overhead: t.field(3, Overhead, { pointer: true, description: 'The overhead of running a pod with this class.' }),
  scheduling: t.field(4, Scheduling, { pointer: true, description: 'The nodes that support the class.' }),
}, { description: 'A runtime class: a container runtime configuration pods may name.' });
export type RuntimeClass = ObjectOf<typeof RuntimeClassSchema>;

function validateRuntimeClass(rc: RuntimeClass, names: Parameters<typeof validateResourceRequirements>[2]): FieldError[] {
  const errs = validateDns1123Label(rc.handler, FieldPath.root('handler'));
  if (rc.overhead) errs.push(...validateResourceRequirements({ limits: rc.overhead.podFixed ?? {} }, FieldPath.root('overhead'), names));
  const scheduling = rc.scheduling;
  if (scheduling) {
    const path = FieldPath.root('scheduling');
    if (scheduling.nodeSelector) errs.push(...validateLabels(scheduling.nodeSelector, path.child('nodeSelector')));
    const tolerationsPath = path.child('tolerations');
    // Kubernetes names the tolerations' own errors at scheduling.tolerations.tolerations[i].
    errs.push(...validateTolerations(scheduling.tolerations, tolerationsPath.child('tolerations')));
    const seen = new Set<string>();
    (scheduling.tolerations ?? []).forEach((tol, i) => {
      const key = JSON.stringify([tol.key ?? '', tol.operator ?? '', tol.value ?? '', tol.effect ?? '']);
      if (seen.has(key)) errs.push(fieldErr.duplicate(tolerationsPath.index(i), tol));
      seen.add(key);
    });
  }
  return errs;
}

/** `kubectl get runtimeclasses`. */
export const runtimeClassTable = defineTable<RuntimeClass>({
  columns: [nameColumn, column('Handler', 'The runtime configuration the class selects.'), ageColumn],
  cells: (rc, ctx) => [rc.metadata.name ?? '', rc.handler ?? '', age(rc, ctx)],
});

export const runtimeClassResource = defineResource<RuntimeClass>((names) => ({
  group: names.group('node'),
  version: 'v1',
  kind: 'RuntimeClass',
  resource: 'runtimeclasses',
  singular: 'runtimeclass',
  namespaced: false,
  schema: RuntimeClassSchema,
  table: runtimeClassTable,
  fixture: () => ({ handler: 'runc', overhead: { podFixed: { cpu: '100m', memory: '64Mi' } } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    validate: (rc) => validateRuntimeClass(rc, names),
    validateUpdate: (rc, old) => (rc.handler === old.handler ? [] : [fieldErr.immutable(FieldPath.root('handler'), rc.handler)]),
  },
}));
