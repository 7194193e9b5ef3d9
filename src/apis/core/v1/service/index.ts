/**
 * Service (core/v1, namespaced): cluster IPs and node ports come from the cluster's pools as the
 * Service is written (see allocation.ts) and go back to them on delete or type change; `/status`
 * carries load balancer state. Delete answers with the Service; PUT may create, as in Kubernetes.
 */
import { nameValidators } from '../../../../machinery/name-validation.js';
import { defineResource, statusSubresource } from '../../../../registry/define-resource.js';
import { beginServiceCreate, beginServiceUpdate, releaseServiceAllocations } from './allocation.js';
import { defaultService } from './defaults.js';
import { dropExternalNameLeftovers, dropTypeDependentFields, normalizeClusterIPs, patchAllocatedValues } from './prepare.js';
import { ServiceSchema, type Service } from './schema.js';
import { validateService, validateServiceStatus, validateServiceUpdate } from './validation.js';
import { serviceWarnings } from './warnings.js';
import { serviceTable } from './table.js';

export { ServiceSchema, type Service } from './schema.js';

export const serviceResource = defineResource<Service>((_names, env) => ({
  group: '',
  version: 'v1',
  kind: 'Service',
  resource: 'services',
  singular: 'service',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  schema: ServiceSchema,
  table: serviceTable,
  fixture: () => ({ spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] } }),
  strategy: {
    nameValidator: nameValidators.dns1035Label,
    allowCreateOnUpdate: true,
    returnDeletedObject: true,
    selectableFieldNames: ['spec.clusterIP', 'spec.type'],
    selectableFields: (svc) => ({ 'spec.clusterIP': svc.spec.clusterIP ?? '', 'spec.type': svc.spec.type ?? '' }),
    defaults: defaultService,
    prepareForCreate: dropExternalNameLeftovers,
    prepareForUpdate(svc, old) {
      patchAllocatedValues(svc, old);
      normalizeClusterIPs(svc, old);
      dropTypeDependentFields(svc, old);
      dropExternalNameLeftovers(svc);
    },
    beginCreate: (svc, ctx) => beginServiceCreate(env.serviceAllocators, svc, ctx.dryRun),
    beginUpdate: (svc, old, ctx) => beginServiceUpdate(env.serviceAllocators, svc, old, ctx.dryRun),
    afterDelete: (svc) => releaseServiceAllocations(env.serviceAllocators, svc),
    validate: validateService,
    validateUpdate: validateServiceUpdate,
    warnings: serviceWarnings,
  },
  subresources: {
    status: statusSubresource<Service>({ validateUpdate: validateServiceStatus }),
  },
}));
