/**
 * PriorityLevelConfiguration at flowcontrol.apiserver/v1beta1: deprecated in 1.23, gone in 1.26.
 * Served from the v1beta2 store through a lossless conversion; every request is warned.
 */
import { defineVersion } from '../../../registry/define-resource.js';
import { flowcontrolSchemas } from '../types.js';
import { priorityLevelConfigurationResource } from '../v1beta2/priority-level-configuration.js';
import { convertPriorityLevel } from './conversion.js';

export const priorityLevelConfigurationV1beta1Resource = defineVersion(priorityLevelConfigurationResource, (names) => {
  const group = names.group('flowcontrol.apiserver');
  return {
    version: 'v1beta1',
    schema: flowcontrolSchemas('v1beta1').PriorityLevelConfiguration,
    conversion: {
      toHub: (obj) => convertPriorityLevel(obj, `${group}/v1beta2`),
      fromHub: (obj) => convertPriorityLevel(obj, `${group}/v1beta1`),
    },
    deprecation: { deprecatedIn: '1.23', removedIn: '1.26', replacement: `${group}/v1beta2` },
  };
});
