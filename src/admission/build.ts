/**
 * Makes the enabled admission plugins from the server's admission options: the flag choice checked
 * against the ordered list, the configuration file read, each plugin built with its configuration.
 * Runs before the store opens (listers may be deferred ones), so a bad flag or file stops the start
 * with nothing open. Throws Error with a message for the operator.
 */
import type { Registry } from 'prom-client';
import type { ApiNames } from '../machinery/api-names.js';
import type { ListerSource } from '../machinery/lister.js';
import type { Logger } from '../machinery/logger.js';
import type { ObjectWriter } from './object-writer.js';
import type { ResourceRegistry } from '../registry/registry.js';
import { loadAdmissionConfigFile, NO_ADMISSION_CONFIG } from './config-file.js';
import { admissionSettings, type AdmissionOptions } from './options.js';
import { ORDERED_PLUGINS, selectPlugins } from './plugins/index.js';
import type { AdmissionPlugin } from './types.js';
import type { SignerAuthorizer } from './plugins/certificate-approval/index.js';

export interface AdmissionPluginsDeps {
  readonly options?: AdmissionOptions;
  readonly names: ApiNames;
  readonly listers: ListerSource;
  /** Plugins' writes of other objects (a deferred writer: bound once the stores are open). */
  readonly writer: ObjectWriter;
  /** The server's authorizer, for the plugins that ask it (the certificate plugins). */
  readonly authorizer: SignerAuthorizer;
  readonly log?: Logger;
  /** Where plugins register their metrics (the server's `/metrics` registry). */
  readonly metrics?: Registry;
  /** The served resources, read when a request is admitted (the webhooks' matchPolicy Equivalent). */
  readonly servedResources?: Pick<ResourceRegistry, 'all'>;
}

/** The enabled plugins, in Kubernetes' order; hand them to admissionChain. */
export function buildAdmissionPlugins(deps: AdmissionPluginsDeps): AdmissionPlugin[] {
  const options = deps.options ?? {};
  const slots = selectPlugins({ ...(options.enablePlugins ? { enable: options.enablePlugins } : {}), ...(options.disablePlugins ? { disable: options.disablePlugins } : {}) });
  const file = options.configFile ? loadAdmissionConfigFile(options.configFile, deps.names) : NO_ADMISSION_CONFIG;
  const known = new Set(ORDERED_PLUGINS.map((p) => p.name));
  for (const name of file.pluginNames) {
    // Kubernetes ignores these too; a typo should at least be visible.
    if (!known.has(name)) deps.log?.warn('the admission configuration file configures a plugin that does not exist', { plugin: name });
  }
  const settings = admissionSettings(options);
  const plugins = slots.map((slot) =>
    (slot.make as NonNullable<typeof slot.make>)({
      names: deps.names,
      listers: deps.listers,
      authorizer: deps.authorizer,
      writer: deps.writer,
      settings,
      configuration: file.configurationFor(slot.name),
      ...(deps.log ? { log: deps.log } : {}),
      ...(deps.metrics ? { metrics: deps.metrics } : {}),
      ...(deps.servedResources ? { servedResources: deps.servedResources } : {}),
    }),
  );
  plugins.push(...(options.extraPlugins ?? []));
  deps.log?.debug('admission plugins', { plugins: plugins.map((p) => p.name).join(',') });
  return plugins;
}
