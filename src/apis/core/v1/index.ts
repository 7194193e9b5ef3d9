/** The core group, version v1: the kinds served under /api/v1. */
import type { ResourceFactory } from '../../../registry/define-resource.js';
import { configMapResource } from './configmap.js';
import { namespaceResource } from './namespace.js';
import { secretResource } from './secret.js';
import { serviceResource } from './service/index.js';

export const coreV1Resources: readonly ResourceFactory[] = [namespaceResource, configMapResource, secretResource, serviceResource];
