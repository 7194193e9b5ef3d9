/**
 * The OpenAPI documents of one registry snapshot, each rendered once (on first request) with its
 * content hash; a new snapshot (a resource added or removed) gets new documents. Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import type { ApiNames } from '../../machinery/api-names.js';
import type { RegistryView } from '../../registry/registry.js';
import { buildApiModel, type ApiModel } from './api-model.js';
import type { DocumentInfo } from './common.js';
import { encodeSwaggerProtobuf } from './protobuf-v2.js';
import { buildSwagger } from './v2.js';
import { buildOpenApiV3 } from './v3.js';

export interface RenderedDocument {
  readonly body: Buffer;
  /** Uppercase hex SHA-512 of the body, as Kubernetes computes it: the ETag and the v3 `hash`. */
  readonly hash: string;
  readonly lastModified: Date;
}

export interface OpenApiDocuments {
  v2Json(): RenderedDocument;
  v2Protobuf(): RenderedDocument;
  v3Index(): RenderedDocument;
  /** The v3 document of a group-version by its index key (`api/v1`, `apis/apps/v1`). */
  v3(key: string): RenderedDocument | undefined;
  /** `/openapi/v3/api/v1?hash=...`: the URL the index gives for a group-version. */
  v3Url(key: string): string | undefined;
}

function render(body: Buffer): RenderedDocument {
  return { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase(), lastModified: new Date() };
}

function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}

export function createOpenApiDocuments(registry: RegistryView, names: ApiNames, info: DocumentInfo): OpenApiDocuments {
  const model = once((): ApiModel => buildApiModel(registry, names));
  const swagger = once(() => buildSwagger(names, model(), info));
  const v2Json = once(() => render(Buffer.from(JSON.stringify(swagger()))));
  const v2Protobuf = once(() => render(encodeSwaggerProtobuf(swagger())));
  const v3Docs = new Map<string, RenderedDocument>();
  const v3 = (key: string): RenderedDocument | undefined => {
    const hit = v3Docs.get(key);
    if (hit) return hit;
    const gv = model().groupVersions.find((g) => g.key === key);
    if (!gv) return undefined;
    const doc = render(Buffer.from(JSON.stringify(buildOpenApiV3(names, model(), gv, info))));
    v3Docs.set(key, doc);
    return doc;
  };
  const v3Url = (key: string): string | undefined => {
    const doc = v3(key);
    return doc ? `/openapi/v3/${key}?hash=${doc.hash}` : undefined;
  };
  const v3Index = once(() => {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const gv of model().groupVersions) paths[gv.key] = { serverRelativeURL: v3Url(gv.key) as string };
    return render(Buffer.from(JSON.stringify({ paths })));
  });
  return { v2Json, v2Protobuf, v3Index, v3, v3Url };
}
