/**
 * The two dynamic admission plugins, MutatingAdmissionWebhook and ValidatingAdmissionWebhook: the
 * stored webhook configurations of their kind, matched against each request and called over HTTPS
 * (see mutating.ts and validating.ts). Webhook configurations themselves are never sent to webhooks,
 * so a broken webhook can always be removed.
 */
import type { Registry } from 'prom-client';
import type { ApiNames } from '../../machinery/api-names.js';
import type { ListerSource } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import type { AdmissionAttributes } from '../../registry/admission.js';
import type { ResourceRegistry } from '../../registry/registry.js';
import type { AdmissionPlugin } from '../types.js';
import { createWebhookCaller } from './call.js';
import { loadCredentialResolver } from './credentials.js';
import { Matcher, requestView, type NamespaceInfo } from './match.js';
import { createWebhookMetrics, type WebhookMetrics } from './metrics.js';
import { dispatchMutating } from './mutating.js';
import { endpointSliceServiceResolver, type EndpointSliceInfo, type ServiceInfo } from './service-resolver.js';
import { webhookSource, type WebhookConfiguration } from './source.js';
import type { WebhookType } from './types.js';
import { dispatchValidating, type DispatchDeps } from './validating.js';
import { servedVersionsOf } from './versions.js';

export { webhookAdmissionSettings, type WebhookAdmissionSettings } from './admission-config.js';
export { createWebhookMetrics, type WebhookMetrics } from './metrics.js';

const SILENT: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export const MUTATING_PLUGIN_NAME = 'MutatingAdmissionWebhook';
export const VALIDATING_PLUGIN_NAME = 'ValidatingAdmissionWebhook';

export interface WebhookPluginDeps {
  names: ApiNames;
  /** Listers of the webhook configurations, namespaces, services and endpoint slices. */
  listers: ListerSource;
  /** The served resources, for matchPolicy Equivalent and for decoding patched objects. */
  registry: Pick<ResourceRegistry, 'all'>;
  /** Where the admission metrics are registered (the server's `/metrics` registry). */
  metrics: Registry;
  log?: Logger;
  /** The kubeconfig of the credentials presented to webhooks (the plugin's WebhookAdmissionConfiguration). */
  kubeConfigFile?: string;
}

function isWebhookConfiguration(names: ApiNames, a: AdmissionAttributes): boolean {
  return a.group === names.group('admissionregistration') && (a.kind === 'ValidatingWebhookConfiguration' || a.kind === 'MutatingWebhookConfiguration');
}

function makeDispatch(deps: WebhookPluginDeps, type: WebhookType): { metrics: WebhookMetrics; run: (attrs: AdmissionAttributes) => Promise<void> } {
  const { names, listers } = deps;
  const metrics = createWebhookMetrics(deps.metrics);
  const resource = type === 'mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
  const source = webhookSource(listers.for<WebhookConfiguration>(names.group('admissionregistration'), resource), type);
  const services = endpointSliceServiceResolver(names, listers.for<ServiceInfo>('', 'services'), listers.for<EndpointSliceInfo>(names.group('discovery'), 'endpointslices'));
  const dispatchDeps: DispatchDeps = {
    names,
    matcher: new Matcher(listers.for<NamespaceInfo>('', 'namespaces')),
    metrics,
    log: deps.log ?? SILENT,
    caller: createWebhookCaller({ credentials: loadCredentialResolver(deps.kubeConfigFile), services, userAgent: `${names.prefix}-apiserver-admission` }),
  };
  const served = servedVersionsOf(deps.registry);
  return {
    metrics,
    run: async (attrs) => {
      if (attrs.rehearsal || isWebhookConfiguration(names, attrs)) return;
      const hooks = source.webhooks();
      if (hooks.length === 0) return;
      const view = requestView(attrs, served);
      await (type === 'mutating' ? dispatchMutating(dispatchDeps, hooks, view) : dispatchValidating(dispatchDeps, hooks, view));
    },
  };
}

/** Times one plugin phase into apiserver_admission_controller_admission_duration_seconds. */
async function timed(metrics: WebhookMetrics, name: string, type: 'admit' | 'validate', attrs: AdmissionAttributes, fn: () => Promise<void>): Promise<void> {
  const started = process.hrtime.bigint();
  let rejected = true;
  try {
    await fn();
    rejected = false;
  } finally {
    metrics.observePlugin(name, type, attrs.operation, Number(process.hrtime.bigint() - started) / 1e9, rejected);
  }
}

/** MutatingAdmissionWebhook: throws (reading the kubeconfig) when its credentials file is unusable. */
export function mutatingAdmissionWebhook(deps: WebhookPluginDeps): AdmissionPlugin {
  const { metrics, run } = makeDispatch(deps, 'mutating');
  return { name: MUTATING_PLUGIN_NAME, admit: (attrs) => timed(metrics, MUTATING_PLUGIN_NAME, 'admit', attrs, () => run(attrs)) };
}

/** ValidatingAdmissionWebhook: throws (reading the kubeconfig) when its credentials file is unusable. */
export function validatingAdmissionWebhook(deps: WebhookPluginDeps): AdmissionPlugin {
  const { metrics, run } = makeDispatch(deps, 'validating');
  return { name: VALIDATING_PLUGIN_NAME, validate: (attrs) => timed(metrics, VALIDATING_PLUGIN_NAME, 'validate', attrs, () => run(attrs)) };
}

