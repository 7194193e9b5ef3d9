/** The apps/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { controllerRevisionResource } from './v1/controllerrevision.js';
import { deploymentResource } from './v1/deployment.js';
import { replicaSetResource } from './v1/replicaset.js';

export const appsResources: readonly ResourceFactory[] = [controllerRevisionResource, deploymentResource, replicaSetResource];
