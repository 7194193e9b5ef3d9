/**
 * pods/binding: a Binding assigns a pending pod to a node (what a scheduler does). The pod must
 * not be assigned yet nor being deleted; it gets the node, the Binding's annotations and the
 * PodScheduled condition, as Kubernetes' binding endpoint sets them.
 */
import { errors } from '../../../../machinery/errors.js';
import { fieldErr, FieldPath, type FieldError } from '../../../../machinery/field-errors.js';
import type { ActionSubresource } from '../../../../registry/define-resource.js';
import { objectHeader, t, type KubeObject, type ObjectOf } from '../../../../schema/index.js';
import { ObjectReference } from '../types/index.js';
import type { PodSpec } from './pod-spec.js';

export const BindingSchema = t.struct('core.v1.Binding', {
  ...objectHeader,
  target: t.required(2, ObjectReference, { description: 'The node to bind to.' }),
}, { description: 'Binds a pod to a node: what a scheduler writes when it has chosen one.' });
export type Binding = ObjectOf<typeof BindingSchema>;

interface BindablePod extends KubeObject {
  spec: PodSpec;
  status: { conditions?: { type: string; status: string; lastProbeTime?: string | null; lastTransitionTime?: string | null; reason?: string; message?: string }[] };
}

export function validateBinding(b: Binding): FieldError[] {
  const errs: FieldError[] = [];
  const kind = b.target.kind ?? '';
  if (kind && kind !== 'Node') errs.push(fieldErr.notSupported(FieldPath.root('target').child('kind'), kind, ['Node', '<empty>']));
  if (!b.target.name) errs.push(fieldErr.required(FieldPath.root('target').child('name')));
  return errs;
}

/** Kubernetes' UpdatePodCondition for PodScheduled=True: the transition time moves only when the status changes. */
function markScheduled(pod: BindablePod, now: Date): void {
  const conditions = (pod.status.conditions ??= []);
  const stamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const existing = conditions.find((c) => c.type === 'PodScheduled');
  if (!existing) conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: stamp });
  else {
    if (existing.status !== 'True') existing.lastTransitionTime = stamp;
    existing.status = 'True';
    delete existing.reason;
    delete existing.message;
  }
}

export function bindingSubresource<T extends BindablePod>(): ActionSubresource<T> {
  return {
    kind: 'action',
    verbs: ['create'],
    body: { group: '', version: 'v1', kind: 'Binding' },
    schema: BindingSchema,
    validateBody: (body) => validateBinding(body as Binding),
    apply(body, parent, ctx) {
      const binding = body as Binding;
      const name = parent.metadata.name ?? '';
      const refuse = (why: string) => errors.conflict({ group: '', resource: 'pods/binding' }, name, why);
      if (parent.metadata.deletionTimestamp) throw refuse(`pod ${name} is being deleted, cannot be assigned to a host`);
      if (parent.spec.nodeName) throw refuse(`pod ${name} is already assigned to node "${parent.spec.nodeName}"`);
      const next = structuredClone(parent);
      next.spec.nodeName = binding.target.name;
      if (binding.metadata.annotations) next.metadata.annotations = { ...(next.metadata.annotations ?? {}), ...binding.metadata.annotations };
      markScheduled(next, ctx.now);
      return next;
    },
  };
}
