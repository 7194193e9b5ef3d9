/**
 * The object a PUT sends or a PATCH produces must name the object of the URL: a different name or
 * namespace is a 400, before any other check (Kubernetes' checkName).
 */
import { errors } from '../../machinery/errors.js';
import type { KubeObject } from '../../schema/index.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';

export function checkName(obj: KubeObject, ep: ResourceEndpoint, info: ResourceRequestInfo): void {
  if ((obj.metadata.name ?? '') !== info.name) {
    throw errors.badRequest(`the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${info.name})`);
  }
  if (ep.def.namespaced && obj.metadata.namespace && obj.metadata.namespace !== info.namespace) {
    throw errors.badRequest(`the namespace of the object (${obj.metadata.namespace}) does not match the namespace on the request (${info.namespace})`);
  }
}
