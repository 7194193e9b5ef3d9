/** What a handler needs to serve one resource: its definition, store and the server's settings. */
import type { ApiNames } from '../machinery/api-names.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import type { GenericStore } from '../registry/generic-store.js';

export interface EndpointSettings {
  maxRequestBodyBytes: number;
  /** Upper bound of a watch when the client names none (Kubernetes randomises 30 to 60 minutes). */
  minRequestTimeoutSeconds: number;
}

export interface ResourceEndpoint {
  readonly def: ResourceDefinition;
  readonly store: GenericStore;
  readonly names: ApiNames;
  readonly settings: EndpointSettings;
}
