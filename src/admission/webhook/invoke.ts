/**
 * One webhook call as both dispatchers make it: the dry-run check, the AdmissionReview in the first
 * version the webhook accepts, the POST, and the checks of the answer. Its warnings and audit
 * annotations are recorded on the request; a denial is thrown as a WebhookRejection.
 */
import { randomUUID } from 'node:crypto';
import type { ApiNames } from '../../machinery/api-names.js';
import { errors } from '../../machinery/errors.js';
import type { KubeObject } from '../../schema/index.js';
import { encodeReview, InvalidReviewResponse, NO_KNOWN_VERSION, pickReviewVersion, verifyReviewResponse, type ReviewResponse } from './admission-review.js';
import { recordAuditAnnotation } from './audit.js';
import { WebhookCallError, type WebhookCaller } from './call.js';
import { CallingWebhookError, dryRunUnsupported, toStatusErr, WebhookRejection } from './errors.js';
import type { Invocation, RequestView } from './match.js';

export interface InvokeDeps {
  names: ApiNames;
  caller: WebhookCaller;
}

/** The objects as the invoked version shows them. */
export interface VersionedObjects {
  object?: KubeObject;
  oldObject?: KubeObject;
}

export async function invokeWebhook(deps: InvokeDeps, inv: Invocation, view: RequestView, objects: VersionedObjects, mutating: boolean): Promise<ReviewResponse> {
  const { spec } = inv.hook;
  const name = spec.name;
  const { attrs } = view;
  if (attrs.dryRun) {
    if (spec.sideEffects === undefined) throw new CallingWebhookError(name, 'Webhook SideEffects is nil', errors.badRequest('Webhook SideEffects is nil'));
    if (spec.sideEffects !== 'None' && spec.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(name);
  }
  const version = pickReviewVersion(spec.admissionReviewVersions);
  if (!version) throw new CallingWebhookError(name, `could not create admission objects: ${NO_KNOWN_VERSION}`, errors.badRequest('error creating admission objects'));
  const uid = randomUUID();
  const review = encodeReview(deps.names, version, {
    uid,
    kind: { group: inv.target.group, version: inv.target.version, kind: inv.target.kind },
    resource: { group: inv.target.group, version: inv.target.version, resource: inv.target.resource },
    subResource: attrs.subresource,
    requestKind: { group: view.request.group, version: view.request.version, kind: view.request.kind },
    requestResource: { group: view.request.group, version: view.request.version, resource: view.request.resource },
    requestSubResource: attrs.subresource,
    name: attrs.name,
    namespace: view.namespace,
    operation: attrs.operation,
    ...(attrs.user ? { user: attrs.user } : {}),
    ...(objects.object ? { object: objects.object } : {}),
    ...(objects.oldObject ? { oldObject: objects.oldObject } : {}),
    ...(attrs.operation !== 'CONNECT' && attrs.options ? { options: attrs.options } : {}),
    dryRun: attrs.dryRun,
  });
  let answer: unknown;
  try {
    answer = await deps.caller.post(spec.clientConfig, review, spec.timeoutSeconds ?? 10, attrs.signal);
  } catch (e) {
    if (e instanceof WebhookCallError) throw new CallingWebhookError(name, `failed to call webhook: ${e.message}`, e.status);
    throw e;
  }
  let response: ReviewResponse;
  try {
    response = verifyReviewResponse(deps.names, version, uid, mutating, answer);
  } catch (e) {
    if (e instanceof InvalidReviewResponse) {
      throw new CallingWebhookError(name, `received invalid webhook response: ${e.message}`, errors.serviceUnavailable('error validating webhook response'));
    }
    throw e;
  }
  for (const [k, v] of Object.entries(response.auditAnnotations)) recordAuditAnnotation(attrs.audit, `${name}/${k}`, v);
  attrs.warnings?.push(...response.warnings);
  if (!response.allowed) throw new WebhookRejection(toStatusErr(name, response.result));
  return response;
}
