/**
 * Parses a request's method and path once into what every later stage needs: is it a resource
 * request, which group/version/resource/subresource, namespace, name, and the API verb. The rules
 * are those of Kubernetes' RequestInfoFactory, so authorization and audit see the same verbs.
 */
import type { NonResourceRequestInfo, RequestInfo, RequestVerb, ResourceRequestInfo } from '../machinery/request-info.js';

export type { NonResourceRequestInfo, RequestInfo, RequestVerb, ResourceRequestInfo } from '../machinery/request-info.js';

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const METHOD_VERBS: Record<string, RequestVerb> = { GET: 'get', HEAD: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

function isTrueParam(v: string | null): boolean {
  if (v === null) return false;
  const s = v.toLowerCase();
  return s !== 'false' && s !== '0';
}

/**
 * Kubernetes' splitPath: outer slashes trimmed, inner empty segments kept, so `namespaces//x` never
 * shifts a later segment into the namespace's place.
 */
function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

/**
 * `path` is the request path as sent, percent-decoded and not normalised (http/request-target.ts):
 * a `..` segment stays a segment, for the router and the name checks to refuse.
 */
export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const segments = splitPath(path);
  const nonResource: NonResourceRequestInfo = { isResourceRequest: false, path, verb: method.toLowerCase() };
  const prefix = segments[0];
  if (prefix !== 'api' && prefix !== 'apis') return nonResource;
  let rest: string[];
  let apiGroup = '';
  let apiVersion: string;
  if (prefix === 'api') {
    if (segments.length < 3) return nonResource;
    apiVersion = segments[1] as string;
    rest = segments.slice(2);
  } else {
    if (segments.length < 4) return nonResource;
    apiGroup = segments[1] as string;
    apiVersion = segments[2] as string;
    rest = segments.slice(3);
  }
  let verb = METHOD_VERBS[method.toUpperCase()];
  if (!verb) return nonResource;
  // The deprecated `/watch/` prefix: the verb is watch whatever follows.
  if (rest[0] === 'watch') {
    // `/watch` alone names no resource: Kubernetes treats it as a non-resource path.
    if (rest.length < 2) return nonResource;
    verb = 'watch';
    rest = rest.slice(1);
  }
  let namespace = '';
  let inNamespace = false;
  if (rest[0] === 'namespaces') {
    if (rest.length > 1) {
      namespace = rest[1] as string;
      if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2] as string)) {
        rest = rest.slice(2);
        inNamespace = true;
      }
    }
  }
  const info: ResourceRequestInfo = {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix: prefix,
    apiGroup,
    apiVersion,
    namespace,
    inNamespace,
    resource: rest[0] ?? '',
    name: rest[1] ?? '',
    subresource: rest[2] ?? '',
    parts: rest,
  };
  if (!info.name && info.verb === 'get') {
    info.verb = isTrueParam(query.get('watch')) ? 'watch' : 'list';
  } else if (info.name && info.verb === 'get' && !info.subresource && isTrueParam(query.get('watch'))) {
    // A watch of one object: the item path with ?watch=true, as document 1 allows.
    info.verb = 'watch';
  }
  if (!info.name && info.verb === 'delete') info.verb = 'deletecollection';
  return info;
}
