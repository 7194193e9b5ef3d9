/** The core group, version v1: the kinds served under /api/v1. */
import type { ResourceFactory } from '../../../registry/define-resource.js';
import { legacyBindingResource } from './binding.js';
import { componentStatusResource } from './componentstatus.js';
import { configMapResource } from './configmap.js';
import { endpointsResource } from './endpoints.js';
import { eventResource } from './event.js';
import { limitRangeResource } from './limitrange.js';
import { namespaceResource } from './namespace.js';
import { nodeResource } from './node.js';
import { persistentVolumeResource } from './persistentvolume.js';
import { persistentVolumeClaimResource } from './persistentvolumeclaim.js';
import { podResource } from './pod.js';
import { podTemplateResource } from './podtemplate.js';
import { replicationControllerResource } from './replicationcontroller.js';
import { resourceQuotaResource } from './resourcequota.js';
import { secretResource } from './secret.js';
import { serviceResource } from './service/index.js';
import { serviceAccountResource } from './serviceaccount.js';

export const coreV1Resources: readonly ResourceFactory[] = [
  namespaceResource,
  configMapResource,
  secretResource,
  serviceResource,
  endpointsResource,
  eventResource,
  nodeResource,
  persistentVolumeResource,
  persistentVolumeClaimResource,
  serviceAccountResource,
  podResource,
  legacyBindingResource,
  componentStatusResource,
  limitRangeResource,
  resourceQuotaResource,
  podTemplateResource,
  replicationControllerResource,
];
