/** The apps/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { controllerRevisionResource } from './v1/controllerrevision.js';
import { daemonSetResource } from './v1/daemonset.js';
import { deploymentResource } from './v1/deployment.js';
import { replicaSetResource } from './v1/replicaset.js';
import { statefulSetResource } from './v1/statefulset.js';

export const appsResources: readonly ResourceFactory[] = [controllerRevisionResource, daemonSetResource, deploymentResource, replicaSetResource, statefulSetResource];
