/**
 * The webhook plugins' entry of the admission configuration file (`--admission-control-config-file`,
 * found by ../config-file.ts): a `WebhookAdmissionConfiguration` naming the kubeconfig of the
 * credentials the server presents to webhooks. Throws naming the file and the field.
 */
import { isAbsolute } from 'node:path';
import type { ApiNames } from '../../machinery/api-names.js';
import type { PluginConfiguration } from '../config-file.js';

export interface WebhookAdmissionSettings {
  /** Absolute path of the kubeconfig holding the webhooks' credentials. */
  kubeConfigFile?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function webhookAdmissionSettings(names: ApiNames, configuration: PluginConfiguration | undefined, pluginName: string): WebhookAdmissionSettings {
  if (!configuration) return {};
  const fail = (why: string): never => {
    throw new Error(`admission control configuration ${configuration.source}: ${why}`);
  };
  const config = configuration.value;
  if (!isObject(config)) return fail(`the configuration of ${pluginName} must be an object`);
  const accepted = [
    { apiVersion: `${names.group('apiserver.config')}/v1`, kind: 'WebhookAdmissionConfiguration' },
    { apiVersion: `${names.group('apiserver.config')}/v1alpha1`, kind: 'WebhookAdmission' },
  ];
  if (!accepted.some((a) => a.apiVersion === config.apiVersion && a.kind === config.kind)) {
    fail(`the configuration of ${pluginName} must be ${accepted.map((a) => `${a.apiVersion} ${a.kind}`).join(' or ')}; got ${String(config.apiVersion)} ${String(config.kind)}`);
  }
  const kubeConfigFile = config.kubeConfigFile;
  if (kubeConfigFile === undefined || kubeConfigFile === '') return {};
  if (typeof kubeConfigFile !== 'string' || !isAbsolute(kubeConfigFile)) {
    fail(`kubeConfigFile: Invalid value: ${JSON.stringify(kubeConfigFile)}: must be an absolute file path`);
  }
  return { kubeConfigFile: kubeConfigFile as string };
}
