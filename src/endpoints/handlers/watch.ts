/**
 * A watch: a 200 response whose body streams events as they happen: newline-delimited JSON, or
 * length-prefixed protobuf WatchEvent frames (`;stream=watch`) whose objects carry the envelope.
 * Headers go out at once; the stream ends at timeoutSeconds, when the client leaves, or when the
 * watcher falls too far behind (the client then resumes from its last resourceVersion); how much is
 * held for a slow client is bounded (watch-writer.ts).
 */
import { toServed, toServedText } from '../conversion.js';
import { flushHeaders, setCommonHeaders } from '../../http/respond.js';
import { timerDelayMs } from './timeout.js';
import { apiVersionOf } from '../../machinery/gvk.js';
import { escapeFieldValue, parseFieldSelector } from '../../machinery/field-selector.js';
import { EncodedObject, type WatchItem } from '../../machinery/encoded-object.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { isProtobuf, negotiateOutputChoice, type Conversion } from '../respond.js';
import { conversionSupport, convertObject } from '../transform/convert.js';
import { optionsFor, tableContext } from '../transform/respond-converted.js';
import type { TableOptions } from '../transform/table-options.js';
import { encodeProtobufObject, encodeWatchEvent, frame } from '../../schema/protobuf/index.js';
import { PartialObjectMetadata, Status, type KubeObject } from '../../schema/index.js';
import { QueryParams } from '../params.js';
import { writeWatch } from './watch-writer.js';

export async function handleWatch(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): Promise<void> {
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const choice = negotiateOutputChoice(ctx, { streaming: true, schema: ep.def.schema, conversions: conversionSupport(ep) });
  const { serializer, conversion } = choice;
  const protobuf = isProtobuf(ctx, serializer);
  let encodeEvent: (item: WatchItem) => string | Buffer = protobuf ? (item) => eventFrame(ep, item) : (item) => eventLine(ep, item);
  if (conversion) encodeEvent = convertedEvents(ep, conversion, optionsFor(ctx, choice), protobuf);
  const labels = q.labelSelector();
  let fields = q.fieldSelector(ep.def);
  if (info.name) {
    const byName = parseFieldSelector(`metadata.name=${escapeFieldValue(info.name)}`);
    fields = fields ? parseFieldSelector(`${byName.toString()},${fields.toString()}`) : byName;
  }
  // Like Kubernetes, an absent or zero timeoutSeconds means a random span of one to two minimum request timeouts.
  const timeoutSeconds = q.int('timeoutSeconds', { min: 0 }) || Math.floor(ep.settings.minRequestTimeoutSeconds * (1 + Math.random()));
  const allowWatchBookmarks = q.bool('allowWatchBookmarks') ?? false;
  const sendInitialEvents = q.bool('sendInitialEvents');
  const rv = q.string('resourceVersion');
  const rvm = q.string('resourceVersionMatch');
  const cont = q.string('continue');

  const stop = new AbortController();
  const signal = AbortSignal.any([ctx.signal, stop.signal]);
  const timer = timeoutSeconds > 0 ? setTimeout(() => stop.abort(), timerDelayMs(timeoutSeconds)) : undefined;
  const kind = ep.def.kind;
  const apiVersion = apiVersionOf(ep.def);
  const bookmark = (revision: number, initialEventsEnd: boolean): EncodedObject =>
    EncodedObject.of({
      kind,
      apiVersion,
      metadata: {
        resourceVersion: String(revision),
        ...(initialEventsEnd ? { annotations: { [ep.names.key('initial-events-end')]: 'true' } } : {}),
      },
    });
  try {
    const events = await ep.store.watch(
      {
        namespace: info.namespace,
        signal,
        allowWatchBookmarks,
        ...(labels ? { labels } : {}),
        ...(fields ? { fields } : {}),
        ...(rv !== undefined ? { resourceVersion: rv } : {}),
        ...(rvm !== undefined ? { resourceVersionMatch: rvm } : {}),
        ...(sendInitialEvents !== undefined ? { sendInitialEvents } : {}),
        ...(cont !== undefined ? { continue: cont } : {}),
      },
      bookmark,
    );
    const { res } = ctx;
    // Kubernetes marks every stream format but JSON as a watch stream.
    setCommonHeaders(ctx, protobuf ? `${serializer.mediaType};stream=watch` : serializer.mediaType);
    res.statusCode = 200;
    flushHeaders(ctx);
    // Ends at the stream's end, when the client leaves, or when the watcher falls too far behind.
    await writeWatch(res, events, (item) => encodeEvent(item.type === 'BOOKMARK' && !item.object.json ? { ...item, object: bookmark(item.revision, false) } : item), signal);
  } finally {
    if (timer) clearTimeout(timer);
    stop.abort();
  }
}

function eventLine(ep: ResourceEndpoint, item: WatchItem): string {
  const build = (): string => {
    const object = item.type === 'ADDED' || item.type === 'MODIFIED' || item.type === 'DELETED' ? toServedText(ep, item.object) : item.object;
    return `{"type":"${item.type}","object":${object.json}}\n`;
  };
  if (!item.memo) return build();
  // Watchers of one event may see different types (ADDED or MODIFIED, by their selectors) and versions.
  const key = `json:${ep.def.version}:${item.type}`;
  const cached = item.memo.get(key);
  if (typeof cached === 'string') return cached;
  const line = build();
  item.memo.set(key, line);
  return line;
}

/** One protobuf frame: the WatchEvent (object enveloped inside it) after its 4-byte length. */
function eventFrame(ep: ResourceEndpoint, item: WatchItem): Buffer {
  const build = (): Buffer => {
    const served = item.type === 'ADDED' || item.type === 'MODIFIED' || item.type === 'DELETED' ? toServedText(ep, item.object) : item.object;
    const schema = item.type === 'ERROR' ? Status : ep.def.schema;
    return frame(encodeWatchEvent(item.type, encodeProtobufObject(schema, served.parse())));
  };
  if (!item.memo) return build();
  const key = `protobuf:${ep.def.version}:${item.type}`;
  const cached = item.memo.get(key);
  if (Buffer.isBuffer(cached)) return cached;
  const bytes = build();
  item.memo.set(key, bytes);
  return bytes;
}

/**
 * Events whose objects are converted: each a one-row Table (column definitions in the first event
 * only, as Kubernetes sends them) or the object's metadata. Errors stay Status objects. A list
 * conversion cannot apply to one object; those events carry the object itself, as in Kubernetes.
 */
function convertedEvents(ep: ResourceEndpoint, conversion: Conversion, first: TableOptions, protobuf: boolean): (item: WatchItem) => string | Buffer {
  let options = first;
  return (item) => {
    let value: unknown = item.object.parse();
    if (item.type !== 'ERROR') {
      const stored = value as KubeObject;
      const served = (): KubeObject => (item.type === 'BOOKMARK' ? stored : toServed(ep, stored));
      value = conversion.kind === 'PartialObjectMetadataList' ? served() : convertObject(ep.def.table, { stored, served }, conversion, options, tableContext(ep));
      if (conversion.kind === 'Table') options = { ...options, noHeaders: true };
    }
    if (!protobuf) return `{"type":"${item.type}","object":${JSON.stringify(value)}}\n`;
    const schema = item.type === 'ERROR' ? Status : conversion.kind === 'PartialObjectMetadataList' ? ep.def.schema : PartialObjectMetadata;
    return frame(encodeWatchEvent(item.type, encodeProtobufObject(schema, value)));
  };
}
