/**
 * `--runtime-config`: comma-separated `key[=value]` pairs enabling or disabling group versions
 * (`apps/v1`) and single resources (`apps/v1/deployments`); an omitted value means true. The core
 * group is `v1` (or `api/v1`); `api/all`, `api/ga`, `api/beta` and `api/alpha` switch whole levels.
 */
export interface RuntimeConfig {
  isEnabled(group: string, version: string, resource: string): boolean;
}

type Level = 'ga' | 'beta' | 'alpha';

export function versionLevel(version: string): Level {
  if (/alpha/.test(version)) return 'alpha';
  if (/beta/.test(version)) return 'beta';
  return 'ga';
}

function parseBool(key: string, value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new Error(`--runtime-config: the value of ${key} must be true or false, not ${JSON.stringify(value)}`);
}

export function parseRuntimeConfig(spec: string | undefined): RuntimeConfig {
  const levels = new Map<Level | 'all', boolean>();
  const versions = new Map<string, boolean>();
  const resources = new Map<string, boolean>();
  for (const raw of (spec ?? '').split(',')) {
    const item = raw.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    const key = (eq < 0 ? item : item.slice(0, eq)).trim().replace(/^\/+/, '');
    const enabled = eq < 0 ? true : parseBool(key, item.slice(eq + 1).trim());
    if (key === 'api/all' || key === 'api/ga' || key === 'api/beta' || key === 'api/alpha') {
      levels.set(key.slice(4) as Level | 'all', enabled);
      continue;
    }
    const parts = (key.startsWith('api/') ? key.slice(4) : key).split('/');
    if (parts.some((p) => !p)) throw new Error(`--runtime-config: ${JSON.stringify(key)} is not {group}/{version} or {group}/{version}/{resource}`);
    // The core group has no name: `v1` and `v1/configmaps` address it.
    const [group, version, resource] = parts.length === 1 || (parts.length === 2 && /^v\d/.test(parts[0] as string)) ? ['', ...parts] : parts;
    if (parts.length > 3 || !version) throw new Error(`--runtime-config: ${JSON.stringify(key)} is not {group}/{version} or {group}/{version}/{resource}`);
    if (resource) resources.set(`${group}/${version}/${resource}`, enabled);
    else versions.set(`${group}/${version}`, enabled);
  }
  return {
    isEnabled(group, version, resource) {
      const r = resources.get(`${group}/${version}/${resource}`);
      if (r !== undefined) return r;
      const v = versions.get(`${group}/${version}`);
      if (v !== undefined) return v;
      const l = levels.get(versionLevel(version));
      if (l !== undefined) return l;
      return levels.get('all') ?? versionLevel(version) !== 'alpha';
    },
  };
}

/** Orders versions as Kubernetes prefers them: GA, then beta, then alpha; higher numbers first. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [-1, 0, 0];
    const rank = m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2;
    return [rank, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [ra, ma, na] = parse(a);
  const [rb, mb, nb] = parse(b);
  return rb - ra || mb - ma || nb - na || a.localeCompare(b);
}
