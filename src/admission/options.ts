/** The admission settings of the server (`--enable-admission-plugins` and its neighbours). */
import type { AdmissionPlugin } from './types.js';

export interface AdmissionOptions {
  /** Plugins to run besides the default-on ones (`--enable-admission-plugins`); order does not matter. */
  enablePlugins?: readonly string[];
  /** Default-on plugins not to run (`--disable-admission-plugins`); order does not matter. */
  disablePlugins?: readonly string[];
  /** An AdmissionConfiguration file with per-plugin configuration (`--admission-control-config-file`). */
  configFile?: string;
  /** tolerationSeconds of the not-ready toleration DefaultTolerationSeconds adds (`--default-not-ready-toleration-seconds`, 300). */
  defaultNotReadyTolerationSeconds?: number;
  /** tolerationSeconds of the unreachable toleration DefaultTolerationSeconds adds (`--default-unreachable-toleration-seconds`, 300). */
  defaultUnreachableTolerationSeconds?: number;
  /**
   * Library use (embedders, tests): plugins of the caller's own, run after every plugin of the
   * ordered list in each phase. No flag sets them.
   */
  extraPlugins?: readonly AdmissionPlugin[];
}

/** What plugins read of the settings, defaults filled in. */
export interface AdmissionSettings {
  readonly defaultNotReadyTolerationSeconds: number;
  readonly defaultUnreachableTolerationSeconds: number;
}

export const ADMISSION_DEFAULTS: AdmissionSettings = {
  defaultNotReadyTolerationSeconds: 300,
  defaultUnreachableTolerationSeconds: 300,
};

export function admissionSettings(o: AdmissionOptions = {}): AdmissionSettings {
  return {
    defaultNotReadyTolerationSeconds: o.defaultNotReadyTolerationSeconds ?? ADMISSION_DEFAULTS.defaultNotReadyTolerationSeconds,
    defaultUnreachableTolerationSeconds: o.defaultUnreachableTolerationSeconds ?? ADMISSION_DEFAULTS.defaultUnreachableTolerationSeconds,
  };
}
