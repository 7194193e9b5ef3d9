/** The autoscaling kinds: HorizontalPodAutoscaler in v2 (stored), v1 and the deprecated v2beta2. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { horizontalPodAutoscalerV1Resource } from './v1/horizontalpodautoscaler.js';
import { horizontalPodAutoscalerResource } from './v2/horizontalpodautoscaler.js';
import { horizontalPodAutoscalerV2beta2Resource } from './v2beta2/horizontalpodautoscaler.js';

export const autoscalingResources: readonly ResourceFactory[] = [horizontalPodAutoscalerResource, horizontalPodAutoscalerV1Resource, horizontalPodAutoscalerV2beta2Resource];
