/** core/v1 TopologySelectorTerm: a topology domain as label requirements (StorageClass.allowedTopologies). */
import { t, type Infer } from '../../../../schema/index.js';

export const TopologySelectorLabelRequirement = t.struct('core.v1.TopologySelectorLabelRequirement', {
  key: t.required(1, t.string(), { always: true, description: 'The label key.' }),
  values: t.required(2, t.list(t.string()), { always: true, description: 'The values the label may have; one must match.' }),
}, { description: 'A label key and the values it may have.' });

export const TopologySelectorTerm = t.struct('core.v1.TopologySelectorTerm', {
  matchLabelExpressions: t.field(1, t.list(TopologySelectorLabelRequirement), { description: 'Requirements that must all hold.' }),
}, { structType: 'atomic', description: 'A topology domain: label requirements that all hold.' });
export type TopologySelectorTerm = Infer<typeof TopologySelectorTerm>;
