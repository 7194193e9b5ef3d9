/** meta/v1 Condition: the standard shape of a status condition (Service and many later kinds use it). */
import { t, type Infer } from './dsl.js';

export const Condition = t.struct('meta.v1.Condition', {
  type: t.required(1, t.string(), { always: true, description: 'The kind of condition, in CamelCase or as foo.example.com/CamelCase.' }),
  status: t.required(2, t.string({ enum: ['True', 'False', 'Unknown'] }), { always: true, description: 'True, False or Unknown.' }),
  observedGeneration: t.field(3, t.int64(), { description: 'The .metadata.generation the condition was set for; older means the condition may be out of date.' }),
  lastTransitionTime: t.required(4, t.time(), { description: 'When the condition last changed from one status to another.' }),
  reason: t.required(5, t.string(), { always: true, description: "A machine-readable CamelCase reason for the condition's last transition; not empty." }),
  message: t.required(6, t.string(), { always: true, description: 'A human-readable message about the transition; may be empty.' }),
}, { description: 'One aspect of the current state of an object.' });
export type Condition = Infer<typeof Condition>;

/**
 * The six fields of the older condition shape several core and batch types share under their own
 * names (PodCondition, PersistentVolumeClaimCondition, JobCondition): type and status, when last
 * probed and changed, reason and message. A fresh object per call, for `t.struct`.
 */
export function probedConditionFields() {
  return {
    type: t.required(1, t.string(), { always: true }),
    status: t.required(2, t.string(), { always: true }),
    lastProbeTime: t.field(3, t.time()),
    lastTransitionTime: t.field(4, t.time()),
    reason: t.field(5, t.string()),
    message: t.field(6, t.string()),
  };
}
