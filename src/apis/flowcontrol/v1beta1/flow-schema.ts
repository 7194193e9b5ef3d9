/**
 * FlowSchema at flowcontrol.apiserver/v1beta1: deprecated in 1.23, gone in 1.26. Served from the
 * v1beta2 store through a lossless conversion; every request is warned.
 */
import { defineVersion } from '../../../registry/define-resource.js';
import { flowcontrolSchemas } from '../types.js';
import { flowSchemaResource } from '../v1beta2/flow-schema.js';
import { convertFlowSchema } from './conversion.js';

export const flowSchemaV1beta1Resource = defineVersion(flowSchemaResource, (names) => {
  const group = names.group('flowcontrol.apiserver');
  return {
    version: 'v1beta1',
    schema: flowcontrolSchemas('v1beta1').FlowSchema,
    conversion: {
      toHub: (obj) => convertFlowSchema(obj, `${group}/v1beta2`),
      fromHub: (obj) => convertFlowSchema(obj, `${group}/v1beta1`),
    },
    deprecation: { deprecatedIn: '1.23', removedIn: '1.26', replacement: `${group}/v1beta2` },
  };
});
