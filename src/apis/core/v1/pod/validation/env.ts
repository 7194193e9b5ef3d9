/**
 * A container's environment (env, envFrom) and the downward API selectors that env variables and
 * downwardAPI volume files share.
 */
import { fieldErr, type FieldError, type FieldPath } from '../../../../../machinery/field-errors.js';
import { canonicalQuantity } from '../../../../../machinery/quantity.js';
import { validateConfigKey } from '../../config-key.js';
import type { EnvFromSource, EnvVar, ObjectFieldSelector, ResourceFieldSelector } from '../container.js';
import { validateDns1123Subdomain, validateQualifiedName } from '../../types/index.js';
import { envVarNameMessages } from './common.js';

/** Pod fields an environment variable may read. */
export const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.podIP',
  'status.podIPs',
] as const;
/** Pod fields a downwardAPI volume file may hold. */
export const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'] as const;

/** Every field label the downward API knows, whatever the consumer. */
const KNOWN_FIELD_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.podIP',
  'status.podIPs',
  'spec.host',
]);

const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const HUGEPAGE_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];
const CPU_DIVISORS = new Set(['1m', '1']);
const BYTE_DIVISORS = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);
const BYTE_DIVISOR_LIST = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";

/** `metadata.labels['app']` → path and subscript. */
function splitSubscript(fieldPath: string): { path: string; subscript: string } | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const inner = fieldPath.slice(0, -2);
  const at = inner.indexOf("['");
  if (at <= 0) return undefined;
  return { path: inner.slice(0, at), subscript: inner.slice(at + 2) };
}

export function validateObjectFieldSelector(fs: ObjectFieldSelector, allowed: readonly string[], path: FieldPath): FieldError[] {
  if (!fs.apiVersion) return [fieldErr.required(path.child('apiVersion'))];
  if (!fs.fieldPath) return [fieldErr.required(path.child('fieldPath'))];
  const fp = path.child('fieldPath');
  if (fs.apiVersion !== 'v1') return [fieldErr.invalid(fp, fs.fieldPath, `error converting fieldPath: unsupported pod version: ${fs.apiVersion}`)];
  const sub = splitSubscript(fs.fieldPath);
  if (sub) {
    if (sub.path === 'metadata.annotations') return validateQualifiedName(sub.subscript.toLowerCase(), path);
    if (sub.path === 'metadata.labels') return validateQualifiedName(sub.subscript, path);
    return [fieldErr.invalid(fp, fs.fieldPath, `error converting fieldPath: field label does not support subscript: ${fs.fieldPath}`)];
  }
  if (!KNOWN_FIELD_LABELS.has(fs.fieldPath)) return [fieldErr.invalid(fp, fs.fieldPath, `error converting fieldPath: field label not supported: ${fs.fieldPath}`)];
  const internal = fs.fieldPath === 'spec.host' ? 'spec.nodeName' : fs.fieldPath;
  if (!allowed.includes(internal)) return [fieldErr.notSupported(fp, internal, allowed)];
  return [];
}

export function validateResourceFieldSelector(rf: ResourceFieldSelector, path: FieldPath, forVolume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (forVolume && !rf.containerName) errs.push(fieldErr.required(path.child('containerName')));
  else if (!rf.resource) errs.push(fieldErr.required(path.child('resource')));
  else if (!RESOURCE_FIELD_PATHS.includes(rf.resource) && !HUGEPAGE_PREFIXES.some((p) => rf.resource.startsWith(p))) {
    errs.push(fieldErr.notSupported(path.child('resource'), rf.resource, RESOURCE_FIELD_PATHS));
  }
  const divisor = canonicalQuantity(rf.divisor ?? '0');
  if (divisor === '0') return errs;
  const dp = path.child('divisor');
  const r = rf.resource;
  if ((r === 'limits.cpu' || r === 'requests.cpu') && !CPU_DIVISORS.has(divisor)) {
    errs.push(fieldErr.invalid(dp, r, "only divisor's values 1m and 1 are supported with the cpu resource"));
  } else if ((r === 'limits.memory' || r === 'requests.memory') && !BYTE_DIVISORS.has(divisor)) {
    errs.push(fieldErr.invalid(dp, r, `only divisor's values ${BYTE_DIVISOR_LIST} are supported with the memory resource`));
  } else if ((r === 'limits.ephemeral-storage' || r === 'requests.ephemeral-storage') && !BYTE_DIVISORS.has(divisor)) {
    errs.push(fieldErr.invalid(dp, r, `only divisor's values ${BYTE_DIVISOR_LIST} are supported with the local ephemeral storage resource`));
  } else if (HUGEPAGE_PREFIXES.some((p) => r.startsWith(p)) && !BYTE_DIVISORS.has(divisor)) {
    errs.push(fieldErr.invalid(dp, r, `only divisor's values ${BYTE_DIVISOR_LIST} are supported with the hugepages resource`));
  }
  return errs;
}

function validateKeySelector(sel: { name?: string; key: string }, path: FieldPath): FieldError[] {
  const errs = validateDns1123Subdomain(sel.name ?? '', path.child('name'));
  if (!sel.key) errs.push(fieldErr.required(path.child('key')));
  else errs.push(...validateConfigKey(sel.key, path.child('key')));
  return errs;
}

function validateValueFrom(ev: EnvVar, path: FieldPath): FieldError[] {
  const from = ev.valueFrom;
  if (!from) return [];
  const errs: FieldError[] = [];
  let sources = 0;
  if (from.fieldRef) {
    sources++;
    errs.push(...validateObjectFieldSelector(from.fieldRef, ENV_FIELD_PATHS, path.child('fieldRef')));
  }
  if (from.resourceFieldRef) {
    sources++;
    errs.push(...validateResourceFieldSelector(from.resourceFieldRef, path.child('resourceFieldRef'), false));
  }
  if (from.configMapKeyRef) {
    sources++;
    errs.push(...validateKeySelector(from.configMapKeyRef, path.child('configMapKeyRef')));
  }
  if (from.secretKeyRef) {
    sources++;
    errs.push(...validateKeySelector(from.secretKeyRef, path.child('secretKeyRef')));
  }
  if (sources === 0) errs.push(fieldErr.invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (ev.value) errs.push(fieldErr.invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errs.push(fieldErr.invalid(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

export function validateEnv(vars: readonly EnvVar[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (vars ?? []).forEach((ev, i) => {
    const p = path.index(i);
    if (!ev.name) errs.push(fieldErr.required(p.child('name')));
    else for (const m of envVarNameMessages(ev.name)) errs.push(fieldErr.invalid(p.child('name'), ev.name, m));
    errs.push(...validateValueFrom(ev, p.child('valueFrom')));
  });
  return errs;
}

function validateEnvSourceName(name: string | undefined, path: FieldPath): FieldError[] {
  if (!name) return [fieldErr.required(path.child('name'))];
  return validateDns1123Subdomain(name, path.child('name'));
}

export function validateEnvFrom(sources: readonly EnvFromSource[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (sources ?? []).forEach((src, i) => {
    const p = path.index(i);
    if (src.prefix) for (const m of envVarNameMessages(src.prefix)) errs.push(fieldErr.invalid(p.child('prefix'), src.prefix, m));
    let count = 0;
    if (src.configMapRef) {
      count++;
      errs.push(...validateEnvSourceName(src.configMapRef.name, p.child('configMapRef')));
    }
    if (src.secretRef) {
      count++;
      errs.push(...validateEnvSourceName(src.secretRef.name, p.child('secretRef')));
    }
    // Kubernetes reports these two on the list itself, not the entry.
    if (count === 0) errs.push(fieldErr.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(fieldErr.invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
