/** What a handler needs to serve one resource: its definition, store and the server's settings. */
import type { ApiNames } from '../machinery/api-names.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import type { GenericStore } from '../registry/generic-store.js';
import type { UserInfo } from '../machinery/user-info.js';
import type { KubeObject } from '../schema/index.js';

/**
 * Answers a create of a kind that is never stored: returns the object with its status filled in.
 * Throws a StatusError for a request it cannot answer (a missing namespace).
 */
export type Answerer = (obj: KubeObject, req: { readonly user?: UserInfo; readonly namespace: string; readonly signal: AbortSignal }) => Promise<KubeObject>;

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
