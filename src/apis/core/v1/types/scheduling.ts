/** Node selection and taints: shared by pods (affinity, tolerations), nodes and persistent volumes. */
import { t, type Infer } from '../../../../schema/index.js';

export const NodeSelectorRequirement = t.struct('core.v1.NodeSelectorRequirement', {
  key: t.required(1, t.string(), { always: true }),
  operator: t.required(2, t.string(), { always: true }),
  values: t.field(3, t.list(t.string(), { listType: 'atomic' })),
});

export const NodeSelectorTerm = t.struct(
  'core.v1.NodeSelectorTerm',
  {
    matchExpressions: t.field(1, t.list(NodeSelectorRequirement, { listType: 'atomic' })),
    matchFields: t.field(2, t.list(NodeSelectorRequirement, { listType: 'atomic' })),
  },
  { structType: 'atomic' },
);

export const NodeSelector = t.struct(
  'core.v1.NodeSelector',
  { nodeSelectorTerms: t.required(1, t.list(NodeSelectorTerm, { listType: 'atomic' }), { always: true }) },
  { structType: 'atomic' },
);
export type NodeSelector = Infer<typeof NodeSelector>;

export const Taint = t.struct('core.v1.Taint', {
  key: t.required(1, t.string(), { always: true }),
  value: t.field(2, t.string()),
  effect: t.required(3, t.string(), { always: true }),
  timeAdded: t.field(4, t.time(), { pointer: true }),
});
export type Taint = Infer<typeof Taint>;

export const Toleration = t.struct('core.v1.Toleration', {
  key: t.field(1, t.string()),
  operator: t.field(2, t.string()),
  value: t.field(3, t.string()),
  effect: t.field(4, t.string()),
  tolerationSeconds: t.field(5, t.int64(), { pointer: true }),
});
export type Toleration = Infer<typeof Toleration>;

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
