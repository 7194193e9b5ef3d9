/** The apiextensions.<domain>/v1 kinds (v1beta1 is no longer served, as in Kubernetes 1.22+). */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { customResourceDefinitionResource } from './v1/customresourcedefinition.js';

export const apiextensionsResources: readonly ResourceFactory[] = [customResourceDefinitionResource];
export { crdCleanupFinalizer, crdConditionTrue, setCrdCondition } from './v1/customresourcedefinition.js';
export { customResourceDefinitions } from './v1/custom-resource/definition.js';
export type { CustomResourceDefinition, CrdNames } from './v1/types.js';
