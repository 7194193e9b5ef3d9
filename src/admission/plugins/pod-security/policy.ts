/**
 * A namespace's Pod Security policy: the level and version of each mode (enforce, audit, warn) from
 * its `pod-security.<label domain>/<mode>[-version]` labels over the configured defaults, as
 * Kubernetes reads them: a bad enforce level enforces restricted, a bad audit or warn level fails
 * open, a bad version means latest, and warn follows a stricter enforce when not set. Also the
 * PodSecurityConfiguration of the admission configuration file. Pure.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import type { Level } from './checks.js';

export type Mode = 'enforce' | 'audit' | 'warn';
export const MODES: readonly Mode[] = ['enforce', 'audit', 'warn'];

export interface LevelVersion {
  readonly level: Level;
  /** The minor of 1.x, or 'latest'. */
  readonly version: number | 'latest';
}
export type Policy = Readonly<Record<Mode, LevelVersion>>;

export const levelVersionText = (lv: LevelVersion): string => `${lv.level}:${lv.version === 'latest' ? 'latest' : `v1.${lv.version}`}`;
const RANK: Record<Level, number> = { privileged: 0, baseline: 1, restricted: 2 };
export const compareLevels = (a: Level, b: Level): number => RANK[a] - RANK[b];

export const LEVEL_MESSAGE = 'must be one of privileged, baseline, restricted';
export const VERSION_MESSAGE = 'must be "latest" or "v1.x"';

export function parseLevel(text: string): Level | undefined {
  return text === 'privileged' || text === 'baseline' || text === 'restricted' ? text : undefined;
}
export function parseVersion(text: string): number | 'latest' | undefined {
  if (text === 'latest') return 'latest';
  const m = /^v1\.(0|[1-9][0-9]*)$/.exec(text);
  return m ? Number(m[1]) : undefined;
}

export interface LabelKeys {
  level(mode: Mode): string;
  version(mode: Mode): string;
}
export function policyLabelKeys(names: ApiNames): LabelKeys {
  return { level: (m) => names.labelSubKey('pod-security', m), version: (m) => names.labelSubKey('pod-security', `${m}-version`) };
}

export interface LabelProblem {
  readonly label: string;
  readonly value: string;
  readonly message: string;
}

/** The policy the labels ask for over `defaults`, and the labels that are wrong. */
export function policyFromLabels(labels: Readonly<Record<string, string>> | undefined, defaults: Policy, keys: LabelKeys): { policy: Policy; problems: LabelProblem[] } {
  const p: Record<Mode, { level: Level; version: number | 'latest' }> = { enforce: { ...defaults.enforce }, audit: { ...defaults.audit }, warn: { ...defaults.warn } };
  const problems: LabelProblem[] = [];
  const l = labels ?? {};
  let enforceLevelSet = false;
  let warnLevelSet = false;
  let warnVersionSet = false;
  for (const mode of MODES) {
    const levelText = l[keys.level(mode)];
    if (levelText !== undefined) {
      const level = parseLevel(levelText);
      if (!level) problems.push({ label: keys.level(mode), value: levelText, message: LEVEL_MESSAGE });
      // A bad enforce level fails closed; audit and warn fail open.
      p[mode].level = level ?? (mode === 'enforce' ? 'restricted' : 'privileged');
      if (mode === 'enforce') enforceLevelSet = !!level;
      if (mode === 'warn') warnLevelSet = true;
    }
    const versionText = l[keys.version(mode)];
    if (versionText !== undefined) {
      const version = parseVersion(versionText);
      if (version === undefined) problems.push({ label: keys.version(mode), value: versionText, message: VERSION_MESSAGE });
      p[mode].version = version ?? 'latest';
      if (mode === 'warn') warnVersionSet = true;
    }
  }
  if (!warnLevelSet && enforceLevelSet && compareLevels(p.enforce.level, p.warn.level) > 0) {
    p.warn.level = p.enforce.level;
    if (!warnVersionSet) p.warn.version = p.enforce.version;
  }
  return { policy: p, problems };
}

export interface PodSecurityConfig {
  readonly defaults: Policy;
  readonly exemptions: { readonly usernames: readonly string[]; readonly runtimeClasses: readonly string[]; readonly namespaces: readonly string[] };
}

const PRIVILEGED_LATEST: LevelVersion = { level: 'privileged', version: 'latest' };
export const DEFAULT_POD_SECURITY_CONFIG: PodSecurityConfig = {
  defaults: { enforce: PRIVILEGED_LATEST, audit: PRIVILEGED_LATEST, warn: PRIVILEGED_LATEST },
  exemptions: { usernames: [], runtimeClasses: [], namespaces: [] },
};

/** The accepted apiVersions of a PodSecurityConfiguration under these names (1.25: v1, v1beta1, v1alpha1). */
export const podSecurityConfigVersions = (names: ApiNames): string[] => ['v1', 'v1beta1', 'v1alpha1'].map((v) => `${names.group('pod-security.admission.config')}/${v}`);

/** Reads the plugin's configuration; throws Error naming the problem (the server does not start). */
export function parsePodSecurityConfig(value: unknown, names: ApiNames, source: string): PodSecurityConfig {
  const fail = (why: string): never => {
    throw new Error(`PodSecurity configuration in ${source}: ${why}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('expected a PodSecurityConfiguration object');
  const o = value as Record<string, unknown>;
  const versions = podSecurityConfigVersions(names);
  if (o.kind !== 'PodSecurityConfiguration' || typeof o.apiVersion !== 'string' || !versions.includes(o.apiVersion)) {
    return fail(`expected kind PodSecurityConfiguration with apiVersion ${versions.join(', ')}, got ${JSON.stringify(o.kind ?? '')} in ${JSON.stringify(o.apiVersion ?? '')}`);
  }
  const d = (o.defaults ?? {}) as Record<string, unknown>;
  const defaults = {} as Record<Mode, LevelVersion>;
  for (const mode of MODES) {
    const levelText = d[mode] ?? 'privileged';
    const versionText = d[`${mode}-version`] ?? 'latest';
    const level = typeof levelText === 'string' ? parseLevel(levelText) : undefined;
    const version = typeof versionText === 'string' ? parseVersion(versionText) : undefined;
    if (!level) fail(`defaults.${mode}: Invalid value: ${JSON.stringify(levelText)}: ${LEVEL_MESSAGE}`);
    if (version === undefined) fail(`defaults.${mode}-version: Invalid value: ${JSON.stringify(versionText)}: ${VERSION_MESSAGE}`);
    defaults[mode] = { level: level as Level, version: version as number | 'latest' };
  }
  const e = (o.exemptions ?? {}) as Record<string, unknown>;
  const list = (field: string): string[] => {
    const v = e[field] ?? [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x === '')) return fail(`exemptions.${field} must be a list of non-empty strings`);
    return v as string[];
  };
  return { defaults, exemptions: { usernames: list('usernames'), runtimeClasses: list('runtimeClasses'), namespaces: list('namespaces') } };
}
