/** Compute resource amounts (ResourceList) and requirements, shared by containers and volume claims. */
import { t, type Infer } from '../../../../schema/index.js';

/** map[ResourceName]resource.Quantity */
export const ResourceList = t.map(t.quantity());

export const ResourceRequirements = t.struct('core.v1.ResourceRequirements', {
  limits: t.field(1, ResourceList),
  requests: t.field(2, ResourceList),
});
export type ResourceRequirements = Infer<typeof ResourceRequirements>;
