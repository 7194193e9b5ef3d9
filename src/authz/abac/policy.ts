/**
 * ABAC's policy file (`--authorization-policy-file`), in Kubernetes' format: one JSON object per
 * line, blank lines and `#` comments skipped. A versioned line is a Policy of
 * `abac.authorization.<label domain>/v1beta1`; an unversioned line is the legacy form, converted as
 * Kubernetes converts it. In both, a user or group of `*` means every authenticated user (the
 * group system:authenticated), so anonymous callers are not included. Pure.
 */

export interface PolicySpec {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  resource: string;
  namespace: string;
  nonResourcePath: string;
}

const ALL_AUTHENTICATED = 'system:authenticated';

export class PolicyFileError extends Error {}

function str(v: unknown, field: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new Error(`${field} must be a string`);
  return v;
}

function bool(v: unknown, field: string): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new Error(`${field} must be a boolean`);
  return v;
}

function specOf(raw: Record<string, unknown>): PolicySpec {
  return {
    user: str(raw.user, 'user'),
    group: str(raw.group, 'group'),
    readonly: bool(raw.readonly, 'readonly'),
    apiGroup: str(raw.apiGroup, 'apiGroup'),
    resource: str(raw.resource, 'resource'),
    namespace: str(raw.namespace, 'namespace'),
    nonResourcePath: str(raw.nonResourcePath, 'nonResourcePath'),
  };
}

/** The legacy unversioned line: empty subject, namespace or resource mean "all", any API group. */
function fromLegacy(raw: Record<string, unknown>): PolicySpec {
  const user = str(raw.user, 'user');
  const group = str(raw.group, 'group');
  const namespace = str(raw.namespace, 'namespace');
  const resource = str(raw.resource, 'resource');
  const spec: PolicySpec = { user, group, readonly: bool(raw.readonly, 'readonly'), apiGroup: '*', resource: resource || '*', namespace: namespace || '*', nonResourcePath: '' };
  if (!user && !group) spec.group = ALL_AUTHENTICATED;
  if (user === '*' || group === '*') {
    spec.group = ALL_AUTHENTICATED;
    spec.user = '';
  }
  if (!namespace && !resource) spec.nonResourcePath = '*';
  return spec;
}

function fromV1beta1(raw: Record<string, unknown>): PolicySpec {
  const specRaw = raw.spec;
  if (typeof specRaw !== 'object' || specRaw === null || Array.isArray(specRaw)) throw new Error('spec must be an object');
  const spec = specOf(specRaw as Record<string, unknown>);
  if (spec.user === '*' || spec.group === '*') {
    spec.group = ALL_AUTHENTICATED;
    spec.user = '';
  }
  return spec;
}

/**
 * Parses a policy file. `abacGroup` is `abac.authorization.<label domain>`. Throws a
 * PolicyFileError naming the file, line and problem for the first bad line.
 */
export function parsePolicyFile(text: string, path: string, abacGroup: string): PolicySpec[] {
  const out: PolicySpec[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    try {
      const raw: unknown = JSON.parse(trimmed);
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('a policy must be a JSON object');
      const obj = raw as Record<string, unknown>;
      if (obj.apiVersion === undefined || obj.apiVersion === '') {
        out.push(fromLegacy(obj));
        return;
      }
      if (obj.apiVersion !== `${abacGroup}/v1beta1`) throw new Error(`unknown apiVersion ${JSON.stringify(obj.apiVersion)}: use ${abacGroup}/v1beta1`);
      if (obj.kind !== 'Policy') throw new Error(`unknown kind ${JSON.stringify(obj.kind)}: use Policy`);
      out.push(fromV1beta1(obj));
    } catch (e) {
      throw new PolicyFileError(`error reading policy file ${path}, line ${i + 1}: ${trimmed}: ${(e as Error).message}`);
    }
  });
  return out;
}
