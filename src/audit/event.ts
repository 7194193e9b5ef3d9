/**
 * Builds audit events from the request context, field for field as Kubernetes fills them
 * (LogRequestMetadata, the response writer, LogRequestObject/LogResponseObject): one event object
 * per stage, each a fresh value, so a backend may keep it.
 */
import { performance } from 'node:perf_hooks';
import type { RequestContext } from '../machinery/request-context.js';
import type { UserInfo } from '../machinery/user-info.js';
import { auditLevelAtLeast } from '../machinery/audit-record.js';
import { sourceIPs } from './source-ips.js';
import { microTime } from './time-format.js';
import type { AuditEvent, AuditLevel, AuditStage, EventUser, ObjectReference, ResponseStatus } from './types.js';

const MAX_USER_AGENT = 1024;

/** When the request arrived, in epoch milliseconds with a fraction (the context keeps a monotonic start). */
export function receivedAtMs(ctx: RequestContext): number {
  const now = performance.timeOrigin + performance.now();
  return now - Number(process.hrtime.bigint() - ctx.startedAt) / 1e6;
}

export function eventUser(user: UserInfo | undefined): EventUser {
  if (!user) return {};
  return {
    ...(user.username ? { username: user.username } : {}),
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.groups.length ? { groups: [...user.groups] } : {}),
    ...(user.extra && Object.keys(user.extra).length ? { extra: structuredClone(user.extra) } : {}),
  };
}

function userAgent(ctx: RequestContext): string {
  const ua = ctx.req.headers['user-agent'] ?? '';
  return ua.length > MAX_USER_AGENT ? `${ua.slice(0, MAX_USER_AGENT)}...TRUNCATED` : ua;
}

function objectRef(ctx: RequestContext): ObjectReference | undefined {
  const info = ctx.info;
  if (!info.isResourceRequest) return undefined;
  const record = ctx.audit.record;
  const ref: ObjectReference = {
    ...(info.resource ? { resource: info.resource } : {}),
    ...(info.namespace ? { namespace: info.namespace } : {}),
    ...(info.name || record?.objectName ? { name: info.name || record?.objectName } : {}),
    ...(record?.objectUid ? { uid: record.objectUid } : {}),
    ...(info.apiGroup ? { apiGroup: info.apiGroup } : {}),
    ...(info.apiVersion ? { apiVersion: info.apiVersion } : {}),
    ...(record?.objectResourceVersion ? { resourceVersion: record.objectResourceVersion } : {}),
    ...(info.subresource ? { subresource: info.subresource } : {}),
  };
  return ref;
}

/** The annotations the event carries at its level: an admission patch (`patch.webhook.admission.`) only from Request. */
function annotationsAt(ctx: RequestContext, level: AuditLevel, patchPrefix: string): Record<string, string> | undefined {
  const keys = Object.keys(ctx.audit.annotations)
    .filter((k) => auditLevelAtLeast(level, 'Request') || !k.startsWith(patchPrefix))
    .sort();
  if (keys.length === 0) return undefined;
  return Object.fromEntries(keys.map((k) => [k, ctx.audit.annotations[k] as string]));
}

export interface EventInput {
  readonly apiVersion: string;
  readonly level: AuditLevel;
  readonly stage: AuditStage;
  /** The authenticated user; impersonation, when it happened, shows as ctx.user differing from it. */
  readonly user: UserInfo | undefined;
  readonly receivedMs: number;
  readonly responseStatus?: ResponseStatus;
  /** `patch.webhook.admission.<domain>/`: annotations below Request level leave these out. */
  readonly patchAnnotationPrefix: string;
  readonly remoteAddress: string | undefined;
}

/** The event of one stage, its fields in the order Kubernetes writes them. */
export function stageEvent(ctx: RequestContext, input: EventInput): AuditEvent {
  const { level, stage } = input;
  const record = ctx.audit.record;
  const impersonated = ctx.user !== input.user && ctx.user ? eventUser(ctx.user) : undefined;
  const ips = sourceIPs(ctx.req.headers, input.remoteAddress);
  const ua = userAgent(ctx);
  const ref = objectRef(ctx);
  const annotations = annotationsAt(ctx, level, input.patchAnnotationPrefix);
  const received = microTime(input.receivedMs);
  return {
    kind: 'Event',
    apiVersion: input.apiVersion,
    level,
    auditID: ctx.audit.id ?? '',
    stage,
    requestURI: ctx.req.url ?? '/',
    verb: ctx.info.verb,
    user: eventUser(input.user),
    ...(impersonated ? { impersonatedUser: impersonated } : {}),
    ...(ips.length ? { sourceIPs: ips } : {}),
    ...(ua ? { userAgent: ua } : {}),
    ...(ref ? { objectRef: ref } : {}),
    ...(input.responseStatus ? { responseStatus: input.responseStatus } : {}),
    ...(record?.requestObject !== undefined && auditLevelAtLeast(level, 'Request') ? { requestObject: record.requestObject } : {}),
    ...(record?.responseObject !== undefined && auditLevelAtLeast(level, 'RequestResponse') ? { responseObject: record.responseObject } : {}),
    requestReceivedTimestamp: received,
    stageTimestamp: stage === 'RequestReceived' ? received : microTime(performance.timeOrigin + performance.now()),
    ...(annotations ? { annotations } : {}),
  };
}
