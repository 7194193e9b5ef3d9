/** Pod and node affinity, anti-affinity and topology spread: where the scheduler may place a pod. */
import { LabelSelector, t, type Infer } from '../../../../schema/index.js';
import { NodeSelector, NodeSelectorTerm } from '../types/index.js';

export const PreferredSchedulingTerm = t.struct('core.v1.PreferredSchedulingTerm', {
  weight: t.required(1, t.int32(), { always: true }),
  preference: t.required(2, NodeSelectorTerm),
});
export type PreferredSchedulingTerm = Infer<typeof PreferredSchedulingTerm>;

export const NodeAffinity = t.struct('core.v1.NodeAffinity', {
  requiredDuringSchedulingIgnoredDuringExecution: t.field(1, NodeSelector, { pointer: true }),
  preferredDuringSchedulingIgnoredDuringExecution: t.field(2, t.list(PreferredSchedulingTerm)),
});
export type NodeAffinity = Infer<typeof NodeAffinity>;

export const PodAffinityTerm = t.struct('core.v1.PodAffinityTerm', {
  labelSelector: t.field(1, LabelSelector, { pointer: true }),
  namespaces: t.field(2, t.list(t.string())),
  topologyKey: t.required(3, t.string(), { always: true }),
  namespaceSelector: t.field(4, LabelSelector, { pointer: true }),
});
export type PodAffinityTerm = Infer<typeof PodAffinityTerm>;

export const WeightedPodAffinityTerm = t.struct('core.v1.WeightedPodAffinityTerm', {
  weight: t.required(1, t.int32(), { always: true }),
  podAffinityTerm: t.required(2, PodAffinityTerm),
});
export type WeightedPodAffinityTerm = Infer<typeof WeightedPodAffinityTerm>;

export const PodAffinity = t.struct('core.v1.PodAffinity', {
  requiredDuringSchedulingIgnoredDuringExecution: t.field(1, t.list(PodAffinityTerm)),
  preferredDuringSchedulingIgnoredDuringExecution: t.field(2, t.list(WeightedPodAffinityTerm)),
});
export type PodAffinity = Infer<typeof PodAffinity>;

export const PodAntiAffinity = t.struct('core.v1.PodAntiAffinity', {
  requiredDuringSchedulingIgnoredDuringExecution: t.field(1, t.list(PodAffinityTerm)),
  preferredDuringSchedulingIgnoredDuringExecution: t.field(2, t.list(WeightedPodAffinityTerm)),
});
export type PodAntiAffinity = Infer<typeof PodAntiAffinity>;

export const Affinity = t.struct('core.v1.Affinity', {
  nodeAffinity: t.field(1, NodeAffinity, { pointer: true }),
  podAffinity: t.field(2, PodAffinity, { pointer: true }),
  podAntiAffinity: t.field(3, PodAntiAffinity, { pointer: true }),
});
export type Affinity = Infer<typeof Affinity>;

export const TopologySpreadConstraint = t.struct('core.v1.TopologySpreadConstraint', {
  maxSkew: t.required(1, t.int32(), { always: true }),
  topologyKey: t.required(2, t.string(), { always: true }),
  whenUnsatisfiable: t.required(3, t.string(), { always: true }),
  labelSelector: t.field(4, LabelSelector, { pointer: true }),
  minDomains: t.field(5, t.int32(), { pointer: true }),
  nodeAffinityPolicy: t.field(6, t.string(), { pointer: true }),
  nodeTaintsPolicy: t.field(7, t.string(), { pointer: true }),
  matchLabelKeys: t.field(8, t.list(t.string(), { listType: 'atomic' })),
});
export type TopologySpreadConstraint = Infer<typeof TopologySpreadConstraint>;

