/**
 * The webhooks as the dispatchers see them: one entry per webhook of every stored configuration,
 * with Kubernetes' v1 defaults filled in and its selectors compiled once.
 */
import type { MutatingWebhook, ValidatingWebhook } from '../../apis/admissionregistration/v1/types.js';
import type { LabelSelector } from '../../machinery/labels.js';

export type WebhookType = 'validating' | 'mutating';

export interface Webhook {
  /** `<configuration>/<webhook>/<n>`: unique even when a stored configuration repeats a name. */
  readonly uid: string;
  readonly configurationName: string;
  readonly type: WebhookType;
  /** The webhook as stored, defaults filled in (failurePolicy, matchPolicy, timeoutSeconds, ...). */
  readonly spec: Readonly<MutatingWebhook>;
  /** Compiled selectors, or the message of a selector that cannot be compiled (an internal error when matched). */
  readonly namespaceSelector: LabelSelector | string;
  readonly objectSelector: LabelSelector | string;
}

export type { MutatingWebhook, ValidatingWebhook };
