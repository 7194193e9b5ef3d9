/**
 * Serves /openapi/v2 and /openapi/v3[/...] as Kubernetes does: content negotiation between JSON
 * and (for v2) gnostic protobuf, strong ETags from the content hash with `If-None-Match` → 304,
 * `Cache-Control: public, immutable` for a v3 group-version fetched with its current hash (a
 * stale hash is redirected to the current URL), `no-cache, private` otherwise.
 */
import { writeBody } from '../../http/respond.js';
import { parseAccept, rangeAccepts } from '../../http/negotiate.js';
import { errors } from '../../machinery/errors.js';
import { notFoundResource } from '../installer.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { OpenApiDocuments, RenderedDocument } from './documents.js';

export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The older spelling, which client-go's discovery client still sends. */
export const OPENAPI_V2_PROTOBUF_DEPRECATED = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

interface Offer {
  /** The media type an Accept range must match. */
  readonly accepts: string;
  /** The Content-Type answered. */
  readonly contentType: string;
  readonly doc: () => RenderedDocument;
}

/** The first offer the client accepts, in the client's order of preference; JSON wins a wildcard. */
function negotiate(ctx: RequestContext, offers: readonly Offer[]): Offer {
  for (const range of parseAccept(ctx.req.headers.accept)) {
    const hit = offers.find((o) => rangeAccepts(range, o.accepts));
    if (hit) return hit;
  }
  throw errors.notAcceptable([...new Set(offers.map((o) => o.contentType))]);
}

function quoted(hash: string): string {
  return `"${hash}"`;
}

/**
 * Whether the client's copy is current: `If-None-Match` names the representation (weak comparison,
 * as RFC 9110 asks for this header), or, without it, `If-Modified-Since` is no older than the document.
 */
function notModified(ctx: RequestContext, etag: string, lastModified: Date): boolean {
  const header = ctx.req.headers['if-none-match'];
  if (header) {
    return header.split(',').some((t) => {
      const tag = t.trim();
      return tag === '*' || tag.replace(/^W\//, '') === etag;
    });
  }
  const since = Date.parse(ctx.req.headers['if-modified-since'] ?? '');
  // HTTP dates have whole seconds.
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

function serve(ctx: RequestContext, contentType: string, doc: RenderedDocument, headers: Record<string, string>): void {
  const etag = quoted(doc.hash);
  const all: Record<string, string> = { ETag: etag, 'Last-Modified': doc.lastModified.toUTCString(), ...headers };
  if (notModified(ctx, etag, doc.lastModified)) {
    const { res } = ctx;
    res.statusCode = 304;
    res.setHeader('Cache-Control', 'no-cache, private');
    for (const [k, v] of Object.entries(all)) res.setHeader(k, v);
    res.end();
    return;
  }
  writeBody(ctx, 200, contentType, doc.body, all);
}

function redirect(ctx: RequestContext, location: string): void {
  const { res } = ctx;
  res.statusCode = 301;
  res.setHeader('Location', location);
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('Content-Length', 0);
  res.end();
}

/** `current` gives the documents of the resources served now (they change as CRDs come and go). */
export function createOpenApiHandler(current: () => OpenApiDocuments) {
  const v2Offers: readonly Offer[] = [
    { accepts: 'application/json', contentType: 'application/json', doc: () => current().v2Json() },
    { accepts: OPENAPI_V2_PROTOBUF_DEPRECATED, contentType: OPENAPI_V2_PROTOBUF, doc: () => current().v2Protobuf() },
    { accepts: OPENAPI_V2_PROTOBUF, contentType: OPENAPI_V2_PROTOBUF, doc: () => current().v2Protobuf() },
  ];

  /** Handles a GET or HEAD of `/openapi/...`; `segs` are the path's segments after `openapi`. */
  return function handleOpenApi(ctx: RequestContext, segs: readonly string[]): void {
    const [version, ...rest] = segs;
    // One set of documents for the whole request, whatever changes meanwhile.
    const docs = current();
    if (version === 'v2' && rest.length === 0) {
      const offer = negotiate(ctx, v2Offers);
      return serve(ctx, offer.contentType, offer.doc(), { Vary: 'Accept' });
    }
    if (version !== 'v3') throw notFoundResource();
    if (rest.length === 0) return serve(ctx, 'application/json', docs.v3Index(), {});
    const key = rest.join('/');
    const doc = docs.v3(key);
    if (!doc) throw notFoundResource();
    // Only JSON is offered for v3; a client that accepts nothing else gets 406.
    negotiate(ctx, [{ accepts: 'application/json', contentType: 'application/json', doc: () => doc }]);
    const hash = ctx.url.searchParams.get('hash');
    if (hash && hash !== doc.hash) return redirect(ctx, docs.v3Url(key) as string);
    const headers: Record<string, string> = { Vary: 'Accept' };
    if (hash) {
      // The URL names this exact content, so caches may keep it for good (a year, the most HTTP allows).
      headers['Cache-Control'] = 'public, immutable';
      headers.Expires = new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString();
    }
    return serve(ctx, 'application/json', doc, headers);
  };
}
