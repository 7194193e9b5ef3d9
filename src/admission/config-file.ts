/**
 * `--admission-control-config-file`: an AdmissionConfiguration (`apiserver.config.<domain>/v1`, or
 * the older `apiserver.<domain>/v1alpha1` Kubernetes still reads) in YAML or JSON, listing per-plugin
 * configurations: `configuration` inline, or `path` to a file of its own (relative to the
 * AdmissionConfiguration's directory). Each plugin decodes its own configuration; this file only
 * finds it. The file is read once, at start; a path is read when its plugin is built, so a broken
 * path of a disabled plugin does not stop the server (as in Kubernetes). Throws Error with the file
 * and the problem.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import type { ApiNames } from '../machinery/api-names.js';

/** One plugin's configuration as the file gives it. */
export interface PluginConfiguration {
  /** The configuration object, parsed from YAML or JSON. */
  readonly value: unknown;
  /** Where it came from, for messages: the AdmissionConfiguration file, or the plugin's own file. */
  readonly source: string;
  /** The directory relative paths inside the configuration are resolved against. */
  readonly baseDir: string;
}

export interface AdmissionConfigFile {
  /** The plugin names the file configures, in file order. */
  readonly pluginNames: readonly string[];
  /** The configuration of `plugin`, or undefined when the file has none. Throws when its `path` cannot be read. */
  configurationFor(plugin: string): PluginConfiguration | undefined;
}

interface PluginEntry {
  name?: unknown;
  path?: unknown;
  configuration?: unknown;
}

/** An empty configuration: no file given. */
export const NO_ADMISSION_CONFIG: AdmissionConfigFile = { pluginNames: [], configurationFor: () => undefined };

/** The accepted `apiVersion`s of an AdmissionConfiguration under these names. */
export function admissionConfigVersions(names: ApiNames): string[] {
  return [`${names.group('apiserver.config')}/v1`, `${names.group('apiserver')}/v1alpha1`];
}

function parseYamlOrJson(text: string): unknown {
  // YAML is a superset of JSON; aliases are capped so a hostile file cannot blow up memory.
  return parse(text, { maxAliasCount: 50 });
}

export function loadAdmissionConfigFile(path: string, names: ApiNames): AdmissionConfigFile {
  const fail = (why: string): never => {
    throw new Error(`admission control configuration ${path}: ${why}`);
  };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return fail(`cannot read it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseYamlOrJson(text);
  } catch (e) {
    return fail(`not valid YAML or JSON: ${(e as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return fail('expected an AdmissionConfiguration object');
  const obj = doc as Record<string, unknown>;
  const versions = admissionConfigVersions(names);
  if (obj.kind !== 'AdmissionConfiguration' || typeof obj.apiVersion !== 'string' || !versions.includes(obj.apiVersion)) {
    return fail(
      `expected kind AdmissionConfiguration with apiVersion ${versions.join(' or ')}, got ${JSON.stringify(obj.kind ?? '')} in ${JSON.stringify(obj.apiVersion ?? '')}` +
        ' (the legacy unversioned formats are only for plugins this server does not implement)',
    );
  }
  const plugins = obj.plugins ?? [];
  if (!Array.isArray(plugins)) return fail('plugins must be a list');
  const baseDir = dirname(path);
  const entries = new Map<string, PluginEntry>();
  plugins.forEach((p: unknown, i) => {
    if (typeof p !== 'object' || p === null || Array.isArray(p)) fail(`plugins[${i}] must be an object with name and configuration or path`);
    const entry = p as PluginEntry;
    if (typeof entry.name !== 'string' || entry.name === '') fail(`plugins[${i}].name is required`);
    if (entry.path !== undefined && typeof entry.path !== 'string') fail(`plugins[${i}].path must be a string`);
    // The first entry of a name wins, as Kubernetes looks plugins up.
    if (!entries.has(entry.name as string)) entries.set(entry.name as string, entry);
  });
  return {
    pluginNames: [...entries.keys()],
    configurationFor(plugin) {
      const entry = entries.get(plugin);
      if (!entry) return undefined;
      if (entry.configuration !== undefined && entry.configuration !== null) return { value: entry.configuration, source: path, baseDir };
      if (typeof entry.path !== 'string' || entry.path === '') return undefined;
      const full = isAbsolute(entry.path) ? entry.path : join(baseDir, entry.path);
      let own: string;
      try {
        own = readFileSync(full, 'utf8');
      } catch (e) {
        return fail(`cannot read the configuration of ${plugin} at ${full}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      try {
        return { value: parseYamlOrJson(own), source: full, baseDir: dirname(full) };
      } catch (e) {
        return fail(`the configuration of ${plugin} at ${full} is not valid YAML or JSON: ${(e as Error).message}`);
      }
    },
  };
}
