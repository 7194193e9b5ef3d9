/**
 * Serving aggregated discovery on /api and /apis. A client asks for it with a media-type range that
 * names the kind: `application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList` (v2beta1
 * too; YAML and protobuf as well). As in Kubernetes, such a range wins wherever it stands in Accept,
 * since plain discovery is the fallback for clients that do not know the aggregated form; without
 * one the caller serves the plain document, negotiated as usual (406 when nothing fits).
 */
import { parseAccept, rangeAccepts } from '../http/negotiate.js';
import { writeBody } from '../http/respond.js';
import { jsonSerializer, yamlSerializer, type Serializer } from '../machinery/codec/serializers.js';
import { APIGroupDiscoveryList } from '../schema/apidiscovery.js';
import type { AggregatedDocument } from './discovery-aggregated-doc.js';
import type { RequestContext } from '../machinery/request-context.js';
import { isPretty, protobufFor } from './respond.js';
import { firstHeader } from '../http/headers.js';

export const AGGREGATED_KIND = 'APIGroupDiscoveryList';
export const AGGREGATED_VERSIONS = ['v2', 'v2beta1'] as const;
export type AggregatedVersion = (typeof AGGREGATED_VERSIONS)[number];

export interface AggregatedChoice {
  serializer: Serializer;
  version: AggregatedVersion;
  /** The Content-Type answered: the serializer's type with g, v and as, which clients check. */
  contentType: string;
}

function isAggregatedVersion(v: string | undefined): v is AggregatedVersion {
  return (AGGREGATED_VERSIONS as readonly (string | undefined)[]).includes(v);
}

/** The aggregated form the client asks for, or undefined when Accept names none we produce. */
export function negotiateAggregated(ctx: RequestContext, group: string): AggregatedChoice | undefined {
  const candidates: Serializer[] = [jsonSerializer, yamlSerializer];
  const pb = protobufFor(ctx, APIGroupDiscoveryList);
  if (pb) candidates.push(pb);
  for (const range of parseAccept(ctx.req.headers.accept)) {
    const { g, v, as: kind, stream, sv } = range.params;
    if (g !== group || kind !== AGGREGATED_KIND || !isAggregatedVersion(v)) continue;
    // Discovery is neither a stream nor versioned by server version.
    if (stream || sv) continue;
    const serializer = candidates.find((s) => rangeAccepts(range, s.mediaType));
    if (serializer) return { serializer, version: v, contentType: `${serializer.mediaType};g=${group};v=${v};as=${AGGREGATED_KIND}` };
  }
  return undefined;
}

/**
 * Whether If-None-Match is exactly the current ETag, as Kubernetes compares it: the first header's
 * whole value, no lists, no `*`, no weak `W/` tags (a client sends back the ETag it was given).
 */
function notModified(ctx: RequestContext, etag: string): boolean {
  return firstHeader(ctx.req, 'if-none-match') === etag;
}

/** Writes the document in the chosen form, or 304 when the client already has it. */
export function respondAggregated(ctx: RequestContext, group: string, doc: AggregatedDocument, choice: AggregatedChoice): void {
  const headers = { ETag: doc.etag, Vary: 'Accept', 'Cache-Control': 'public' };
  if (notModified(ctx, doc.etag)) {
    const { res } = ctx;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.statusCode = 304;
    res.end();
    return;
  }
  const value = { kind: AGGREGATED_KIND, apiVersion: `${group}/${choice.version}`, ...doc.body };
  writeBody(ctx, 200, choice.contentType, choice.serializer.encode(value, isPretty(ctx)), headers);
}
