/**
 * The AdmissionReview wire format, v1 and v1beta1 (admission.<domain>): the request sent to a
 * webhook and the checks of its answer, with Kubernetes' words for each problem.
 */
import type { ApiNames } from '../../machinery/api-names.js';
import type { UserInfo } from '../../machinery/user-info.js';
import type { KubeObject } from '../../schema/index.js';

export const REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
export type ReviewVersion = (typeof REVIEW_VERSIONS)[number];

/** The first of the webhook's versions this server speaks, in the webhook's order of preference. */
export function pickReviewVersion(accepted: readonly string[] | undefined): ReviewVersion | undefined {
  return (accepted ?? []).find((v): v is ReviewVersion => (REVIEW_VERSIONS as readonly string[]).includes(v));
}

export const NO_KNOWN_VERSION = 'webhook does not accept known AdmissionReview versions (v1, v1beta1)';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export interface ReviewRequest {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource: string;
  requestKind: GroupVersionKind;
  requestResource: GroupVersionResource;
  requestSubResource: string;
  name: string;
  namespace: string;
  operation: string;
  user?: UserInfo;
  object?: KubeObject;
  oldObject?: KubeObject;
  options?: Record<string, unknown>;
  dryRun: boolean;
}

export function reviewApiVersion(names: ApiNames, version: ReviewVersion): string {
  return `${names.group('admission')}/${version}`;
}

/** The JSON body of the call. Empty strings are left out, as Go's omitempty does. */
export function encodeReview(names: ApiNames, version: ReviewVersion, r: ReviewRequest): Record<string, unknown> {
  const user = r.user;
  const userInfo = user
    ? {
        ...(user.username ? { username: user.username } : {}),
        ...(user.uid ? { uid: user.uid } : {}),
        ...(user.groups.length ? { groups: user.groups } : {}),
        ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}),
      }
    : {};
  return {
    kind: 'AdmissionReview',
    apiVersion: reviewApiVersion(names, version),
    request: {
      uid: r.uid,
      kind: r.kind,
      resource: r.resource,
      ...(r.subResource ? { subResource: r.subResource } : {}),
      requestKind: r.requestKind,
      requestResource: r.requestResource,
      ...(r.requestSubResource ? { requestSubResource: r.requestSubResource } : {}),
      ...(r.name ? { name: r.name } : {}),
      ...(r.namespace ? { namespace: r.namespace } : {}),
      operation: r.operation,
      userInfo,
      object: r.object ?? null,
      oldObject: r.oldObject ?? null,
      dryRun: r.dryRun,
      options: r.options ?? null,
    },
  };
}

/** What an answer says, once checked. */
export interface ReviewResponse {
  allowed: boolean;
  /** The webhook's `status`, if any. */
  result?: unknown;
  /** Decoded base64 patch bytes; empty when none. */
  patch: Buffer;
  /** `JSONPatch` or whatever the webhook named; '' without a patch. */
  patchType: string;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

/** A reason the answer is not one the server can use; its message goes after "received invalid webhook response: ". */
export class InvalidReviewResponse extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function gvkText(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const group = slash < 0 ? '' : av.slice(0, slash);
  const version = slash < 0 ? av : av.slice(slash + 1);
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

function stringList(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((w) => typeof w !== 'string')) throw new InvalidReviewResponse(`response.${field} must be a list of strings`);
  return v as string[];
}

function stringMap(v: unknown, field: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isObject(v) || Object.values(v).some((w) => typeof w !== 'string')) throw new InvalidReviewResponse(`response.${field} must be a map of strings`);
  return v as Record<string, string>;
}

function decodePatch(v: unknown): Buffer {
  if (v === undefined || v === null || v === '') return Buffer.alloc(0);
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 === 1) throw new InvalidReviewResponse('response.patch must be base64-encoded');
  return Buffer.from(v, 'base64');
}

/**
 * Checks an answer (already parsed JSON) against the request it answers: same version and kind
 * (v1beta1 answers were never checked for them, nor for the uid), `response` present, the uid
 * echoed, `allowed` a boolean, and patch fields only from mutating webhooks.
 */
export function verifyReviewResponse(names: ApiNames, version: ReviewVersion, uid: string, mutating: boolean, body: unknown): ReviewResponse {
  if (!isObject(body)) throw new InvalidReviewResponse('the answer is not a JSON object');
  const expected = reviewApiVersion(names, version);
  const strict = version === 'v1';
  const sentVersion = body.apiVersion;
  if (strict || (sentVersion !== undefined && sentVersion !== '')) {
    if (sentVersion !== expected || body.kind !== 'AdmissionReview') {
      throw new InvalidReviewResponse(`expected webhook response of ${gvkText(expected, 'AdmissionReview')}, got ${gvkText(sentVersion, body.kind)}`);
    }
  }
  const r = body.response;
  if (r === undefined || r === null) throw new InvalidReviewResponse('webhook response was absent');
  if (!isObject(r)) throw new InvalidReviewResponse('response must be an object');
  if (strict && r.uid !== uid) throw new InvalidReviewResponse(`expected response.uid="${uid}", got "${typeof r.uid === 'string' ? r.uid : ''}"`);
  if (r.allowed !== undefined && typeof r.allowed !== 'boolean') throw new InvalidReviewResponse('response.allowed must be a boolean');
  const patch = decodePatch(r.patch);
  const givenType = r.patchType;
  if (givenType !== undefined && givenType !== null && typeof givenType !== 'string') throw new InvalidReviewResponse('response.patchType must be a string');
  let patchType = '';
  if (mutating) {
    if (strict) {
      if (patch.length > 0 && (givenType === undefined || givenType === null)) throw new InvalidReviewResponse('webhook returned response.patch but not response.patchType');
      if (patch.length === 0 && givenType !== undefined && givenType !== null) throw new InvalidReviewResponse('webhook returned response.patchType but not response.patch');
      if (typeof givenType === 'string') {
        if (!givenType) throw new InvalidReviewResponse(`webhook returned invalid response.patchType of ""`);
        patchType = givenType;
      }
    } else if (patch.length > 0) {
      // v1beta1 never checked the type: a patch is a JSON patch, the only kind there is.
      patchType = 'JSONPatch';
    }
  } else if (strict) {
    if (patch.length > 0) throw new InvalidReviewResponse('validating webhook may not return response.patch');
    if (givenType !== undefined && givenType !== null) throw new InvalidReviewResponse('validating webhook may not return response.patchType');
  }
  return {
    allowed: r.allowed === true,
    ...(r.status !== undefined && r.status !== null ? { result: r.status } : {}),
    patch: mutating ? patch : Buffer.alloc(0),
    patchType,
    warnings: stringList(r.warnings, 'warnings'),
    auditAnnotations: stringMap(r.auditAnnotations, 'auditAnnotations'),
  };
}
