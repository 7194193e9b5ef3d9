/**
 * The command's admission flags, as parseArgs options and their reading into ServerOptions:
 * `--enable-admission-plugins`, `--disable-admission-plugins` (comma lists, repeatable, order
 * irrelevant), `--admission-control-config-file`, and DefaultTolerationSeconds' two flags. The
 * plugin names are checked here, so a typo is a usage error; the file is read by createServer.
 * Throws Error with the message for a usage error.
 */
import { resolve } from 'node:path';
import type { AdmissionOptions } from '../admission/options.js';
import { selectPlugins } from '../admission/plugins/index.js';

export const ADMISSION_FLAGS = {
  'enable-admission-plugins': { type: 'string', multiple: true },
  'disable-admission-plugins': { type: 'string', multiple: true },
  'admission-control-config-file': { type: 'string' },
  'default-not-ready-toleration-seconds': { type: 'string' },
  'default-unreachable-toleration-seconds': { type: 'string' },
} as const;

type Values = { [K in keyof typeof ADMISSION_FLAGS]?: (typeof ADMISSION_FLAGS)[K] extends { multiple: true } ? string[] : string };

function names(values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  // pflag's string slices: comma-separated, repeatable; blanks around names are not part of them.
  return values.flatMap((v) => v.split(',')).map((n) => n.trim()).filter((n) => n !== '');
}

function seconds(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`invalid argument ${JSON.stringify(value)} for "--${flag}" flag: a whole number of seconds`);
  return Number(value);
}

export function parseAdmissionFlags(v: Values): AdmissionOptions {
  const enablePlugins = names(v['enable-admission-plugins']);
  const disablePlugins = names(v['disable-admission-plugins']);
  selectPlugins({ ...(enablePlugins ? { enable: enablePlugins } : {}), ...(disablePlugins ? { disable: disablePlugins } : {}) });
  const notReady = seconds('default-not-ready-toleration-seconds', v['default-not-ready-toleration-seconds']);
  const unreachable = seconds('default-unreachable-toleration-seconds', v['default-unreachable-toleration-seconds']);
  const configFile = v['admission-control-config-file'];
  return {
    ...(enablePlugins ? { enablePlugins } : {}),
    ...(disablePlugins ? { disablePlugins } : {}),
    ...(configFile ? { configFile: resolve(configFile) } : {}),
    ...(notReady !== undefined ? { defaultNotReadyTolerationSeconds: notReady } : {}),
    ...(unreachable !== undefined ? { defaultUnreachableTolerationSeconds: unreachable } : {}),
  };
}
