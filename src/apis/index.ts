/** Every built-in kind, group by group, in the order discovery lists them. */
import type { ResourceFactory } from '../registry/define-resource.js';
import { admissionregistrationResources } from './admissionregistration/index.js';
import { apiextensionsResources } from './apiextensions/index.js';
import { appsResources } from './apps/index.js';
import { autoscalingResources } from './autoscaling/index.js';
import { authenticationResources } from './authentication/index.js';
import { authorizationResources } from './authorization/index.js';
import { batchResources } from './batch/index.js';
import { certificatesResources } from './certificates/index.js';
import { coordinationResources } from './coordination/index.js';
import { coreV1Resources } from './core/v1/index.js';
import { discoveryResources } from './discovery/index.js';
import { eventsResources } from './events/index.js';
import { flowcontrolResources } from './flowcontrol/index.js';
import { networkingResources } from './networking/index.js';
import { nodeResources } from './node/index.js';
import { policyResources } from './policy/index.js';
import { rbacResources } from './rbac/index.js';
import { schedulingResources } from './scheduling/index.js';
import { storageResources } from './storage/index.js';

export const builtinResources: readonly ResourceFactory[] = [
  ...coreV1Resources,
  ...appsResources,
  ...eventsResources,
  ...autoscalingResources,
  ...authenticationResources,
  ...authorizationResources,
  ...batchResources,
  ...networkingResources,
  ...policyResources,
  ...rbacResources,
  ...storageResources,
  ...discoveryResources,
  ...flowcontrolResources,
  ...certificatesResources,
  ...admissionregistrationResources,
  ...apiextensionsResources,
  ...schedulingResources,
  ...coordinationResources,
  ...nodeResources,
];
