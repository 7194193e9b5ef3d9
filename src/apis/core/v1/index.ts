/** The core group, version v1: the kinds served under /api/v1. */
import type { ResourceFactory } from '../../../registry/define-resource.js';
import { configMapResource } from './configmap.js';
import { namespaceResource } from './namespace.js';
import { podResource } from './pod.js';
import { secretResource } from './secret.js';

export const coreV1Resources: readonly ResourceFactory[] = [namespaceResource, configMapResource, secretResource, podResource];
