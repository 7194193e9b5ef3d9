/**
 * HorizontalPodAutoscaler at autoscaling/v2beta2: deprecated in 1.23, gone in 1.26. The same fields
 * as v2, served from the v2 store; every request is warned.
 */
import { defineVersion, type VersionConversion } from '../../../registry/define-resource.js';
import { horizontalPodAutoscalerResource } from '../v2/horizontalpodautoscaler.js';
import { hpaSchemas } from '../v2/types.js';

const as = (version: string): VersionConversion['toHub'] => (obj) => ({ ...obj, apiVersion: `autoscaling/${version}` });

export const horizontalPodAutoscalerV2beta2Resource = defineVersion(horizontalPodAutoscalerResource, () => ({
  version: 'v2beta2',
  schema: hpaSchemas('v2beta2').HorizontalPodAutoscaler,
  conversion: { toHub: as('v2'), fromHub: as('v2beta2') },
  deprecation: { deprecatedIn: '1.23', removedIn: '1.26', replacement: 'autoscaling/v2' },
}));
