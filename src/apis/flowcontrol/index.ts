/** The flowcontrol.apiserver.<domain>/v1beta2 (and v1beta1, deprecated) kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { flowSchemaV1beta1Resource } from './v1beta1/flow-schema.js';
import { priorityLevelConfigurationV1beta1Resource } from './v1beta1/priority-level-configuration.js';
import { flowSchemaResource } from './v1beta2/flow-schema.js';
import { priorityLevelConfigurationResource } from './v1beta2/priority-level-configuration.js';

export const flowcontrolResources: readonly ResourceFactory[] = [
  flowSchemaResource,
  priorityLevelConfigurationResource,
  flowSchemaV1beta1Resource,
  priorityLevelConfigurationV1beta1Resource,
];
