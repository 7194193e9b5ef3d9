/**
 * The webhooks of every stored MutatingWebhookConfiguration or ValidatingWebhookConfiguration, read
 * through the lister (so a new configuration counts as soon as the watch cache holds it), sorted by
 * configuration name as Kubernetes orders them, and rebuilt only after a change.
 */
import type { Lister } from '../../machinery/lister.js';
import { labelSelectorFromStructured, SelectorParseError, type LabelSelector, type StructuredLabelSelector } from '../../machinery/labels.js';
import type { MutatingWebhook, Webhook, WebhookType } from './types.js';

export interface WebhookConfiguration {
  metadata: { name?: string };
  webhooks?: readonly MutatingWebhook[];
}

export interface WebhookSource {
  /** The current webhooks, in call order. The array and its entries are shared: never mutate them. */
  webhooks(): readonly Webhook[];
}

function compile(selector: StructuredLabelSelector | undefined): LabelSelector | string {
  try {
    return labelSelectorFromStructured(selector);
  } catch (e) {
    if (e instanceof SelectorParseError) return e.message;
    throw e;
  }
}

/** A stored webhook with Kubernetes' v1 defaults, for configurations stored before defaults existed. */
function withDefaults(hook: MutatingWebhook, type: WebhookType): MutatingWebhook {
  return {
    ...hook,
    failurePolicy: hook.failurePolicy ?? 'Fail',
    matchPolicy: hook.matchPolicy ?? 'Equivalent',
    timeoutSeconds: hook.timeoutSeconds ?? 10,
    ...(type === 'mutating' ? { reinvocationPolicy: hook.reinvocationPolicy ?? 'Never' } : {}),
  };
}

/** The webhooks of `configurations`, in Kubernetes' order. Pure. */
export function webhooksOf(configurations: readonly WebhookConfiguration[], type: WebhookType): Webhook[] {
  const sorted = [...configurations].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0));
  const out: Webhook[] = [];
  for (const c of sorted) {
    const configurationName = c.metadata.name ?? '';
    const seen = new Map<string, number>();
    for (const hook of c.webhooks ?? []) {
      const n = seen.get(hook.name) ?? 0;
      seen.set(hook.name, n + 1);
      const spec = withDefaults(hook, type);
      out.push({
        uid: `${configurationName}/${hook.name}/${n}`,
        configurationName,
        type,
        spec,
        namespaceSelector: compile(spec.namespaceSelector as StructuredLabelSelector | undefined),
        objectSelector: compile(spec.objectSelector as StructuredLabelSelector | undefined),
      });
    }
  }
  return out;
}

export function webhookSource(configurations: Lister<WebhookConfiguration>, type: WebhookType): WebhookSource {
  let current: Webhook[] | undefined;
  let following = false;
  return {
    webhooks() {
      if (!following) {
        // Subscribing binds the lister to its store, which exists only once the server is built.
        configurations.onChange(() => {
          current = undefined;
        });
        following = true;
      }
      current ??= webhooksOf(configurations.list(), type);
      return current;
    },
  };
}
