/**
 * The webhook plugins' part of the admission configuration file (`--admission-control-config-file`):
 * each plugin's `WebhookAdmissionConfiguration`, inline or in a file of its own, naming the
 * kubeconfig of the credentials the server presents to webhooks. Only what these two plugins read.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { ApiNames } from '../../machinery/api-names.js';
import { decodeYaml } from '../../machinery/codec/yaml-decode.js';

export interface WebhookAdmissionSettings {
  /** Absolute path of the kubeconfig holding the webhooks' credentials. */
  kubeConfigFile?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads `pluginName`'s configuration from the admission configuration file at `path`. Throws naming the file and the field. */
export function loadWebhookAdmissionSettings(names: ApiNames, path: string | undefined, pluginName: string): WebhookAdmissionSettings {
  if (!path) return {};
  const fail = (why: string): never => {
    throw new Error(`admission configuration ${path}: ${why}`);
  };
  const doc = decodeYaml(readFileSync(path, 'utf8'));
  if (!isObject(doc) || doc.kind !== 'AdmissionConfiguration') fail('expected kind AdmissionConfiguration');
  const plugins = (doc as Record<string, unknown>).plugins ?? [];
  if (!Array.isArray(plugins)) fail('plugins must be a list');
  const entry = (plugins as unknown[]).find((p) => isObject(p) && p.name === pluginName) as Record<string, unknown> | undefined;
  if (!entry) return {};
  let config: unknown = entry.configuration;
  if (config === undefined && typeof entry.path === 'string' && entry.path) {
    const file = isAbsolute(entry.path) ? entry.path : join(dirname(path), entry.path);
    config = decodeYaml(readFileSync(file, 'utf8'));
  }
  if (config === undefined || config === null) return {};
  if (!isObject(config)) return fail(`the configuration of ${pluginName} must be an object`);
  const accepted = [
    { apiVersion: `apiserver.config.${names.domain}/v1`, kind: 'WebhookAdmissionConfiguration' },
    { apiVersion: `apiserver.config.${names.domain}/v1alpha1`, kind: 'WebhookAdmission' },
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
