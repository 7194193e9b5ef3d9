/**
 * What a request is about, parsed once from its method and URL (src/endpoints/request-info.ts) before
 * any filter needs it: resource or not, the API verb, group, version, resource, subresource,
 * namespace and name. Authorization, flow control, audit, the deadline and the handlers all read it.
 */
export type RequestVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface ResourceRequestInfo {
  isResourceRequest: true;
  path: string;
  verb: RequestVerb;
  apiPrefix: 'api' | 'apis';
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  /** The URL addresses a resource inside a namespace (`/namespaces/{ns}/{resource}`...). */
  inNamespace: boolean;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments from the resource on (`configmaps/name/status/...`). */
  parts: string[];
}

export interface NonResourceRequestInfo {
  isResourceRequest: false;
  /** The path as sent (percent-decoded, never normalised). */
  path: string;
  /** Lowercase HTTP method: get, post, put, patch, delete, head, options. */
  verb: string;
}

export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

/**
 * Requests that may run for as long as the client wants (Kubernetes' basic long-running check): the
 * watch and proxy verbs, and the attach, exec, proxy, log and portforward subresources. They have no
 * deadline and are counted apart in metrics.
 */
export function isLongRunning(info: RequestInfo): boolean {
  if (!info.isResourceRequest) return false;
  return info.verb === 'watch' || LONG_RUNNING_SUBRESOURCES.has(info.subresource);
}

const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
