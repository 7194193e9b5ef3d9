/** Every built-in kind, group by group, in the order discovery lists them. */
import type { ResourceFactory } from '../registry/define-resource.js';
import { admissionregistrationResources } from './admissionregistration/index.js';
import { appsResources } from './apps/index.js';
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
import { rbacResources } from './rbac/index.js';

export const builtinResources: readonly ResourceFactory[] = [
  ...coreV1Resources,
  ...appsResources,
  ...eventsResources,
  ...authenticationResources,
  ...authorizationResources,
  ...batchResources,
  ...networkingResources,
  ...rbacResources,
  ...discoveryResources,
  ...flowcontrolResources,
  ...certificatesResources,
  ...admissionregistrationResources,
  ...coordinationResources,
];
