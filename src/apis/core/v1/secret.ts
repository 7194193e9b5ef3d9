/**
 * Secret (core/v1): base64 data with a type that fixes which keys it needs. `stringData` is
 * write-only: merged into `data` on every write and never stored.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { MAX_DATA_BYTES, validateConfigKey } from './config-key.js';
import { secretTable } from './tables.js';

export const SecretSchema = t.struct('core.v1.Secret', {
  ...objectHeader,
  immutable: t.field(5, t.bool(), {
    pointer: true,
    description: 'When true, data can no longer change (only metadata can); the flag itself cannot be unset. Unset means false.',
  }),
  data: t.field(2, t.map(t.bytes()), {
    description: "The secret's values by key, base64-encoded in JSON. Keys are made of letters, digits, '-', '_' and '.'.",
  }),
  stringData: t.field(4, t.map(t.string()), {
    description: 'Write-only values as plain text: each is merged into data on write (replacing the same key there) and never read back.',
  }),
  type: t.field(3, t.string(), { description: 'What the secret holds, which decides the keys it must have. Opaque (the default) requires none.' }),
}, { description: 'Sensitive data, such as a password, token or key, by key. At most 1 MiB in all.' });
export type Secret = ObjectOf<typeof SecretSchema>;

/** The data keys of a service account token Secret, filled by the token controller (not required by the API). */
export const SERVICE_ACCOUNT_TOKEN_KEYS = { caCert: 'ca.crt', namespace: 'namespace', token: 'token' } as const;

/** The annotations naming the account a service account token Secret belongs to. */
export function serviceAccountTokenAnnotations(names: ApiNames) {
  return { name: names.labelKey('service-account.name'), uid: names.labelKey('service-account.uid') } as const;
}

/** Secret types and the data keys each requires; names derive from the API domain. */
export function secretTypes(names: ApiNames) {
  return {
    opaque: 'Opaque',
    serviceAccountToken: names.labelKey('service-account-token'),
    dockercfg: names.labelKey('dockercfg'),
    dockerConfigJson: names.labelKey('dockerconfigjson'),
    basicAuth: names.labelKey('basic-auth'),
    sshAuth: names.labelKey('ssh-auth'),
    tls: names.labelKey('tls'),
    bootstrapToken: names.labelSubKey('bootstrap', 'token'),
  } as const;
}

function dataSize(secret: Secret): number {
  let size = 0;
  // Only decoded values count toward the limit, as in Kubernetes.
  for (const v of Object.values(secret.data ?? {})) size += Buffer.byteLength(v, 'base64');
  return size;
}

function has(secret: Secret, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(secret.data ?? {}, key);
}

function decoded(secret: Secret, key: string): string {
  return Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8');
}

function validateSecret(secret: Secret, names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  const types = secretTypes(names);
  for (const k of Object.keys(secret.data ?? {})) errs.push(...validateConfigKey(k, FieldPath.root('data').key(k)));
  if (dataSize(secret) > MAX_DATA_BYTES) errs.push({ type: 'FieldValueTooLong', field: 'data', detail: `must have at most ${MAX_DATA_BYTES} bytes` });
  const data = FieldPath.root('data');
  const requireKey = (key: string): void => {
    if (!has(secret, key)) errs.push(fieldErr.required(data.key(key)));
  };
  switch (secret.type) {
    case types.serviceAccountToken: {
      const annotation = serviceAccountTokenAnnotations(names).name;
      if (!secret.metadata.annotations?.[annotation]) errs.push(fieldErr.required(FieldPath.root('metadata').child('annotations').key(annotation)));
      break;
    }
    case types.dockercfg:
      requireKey('.dockercfg');
      if (has(secret, '.dockercfg') && !isJson(decoded(secret, '.dockercfg'))) errs.push(fieldErr.invalid(data.key('.dockercfg'), '<secret contents redacted>', 'must be valid JSON'));
      break;
    case types.dockerConfigJson:
      requireKey('.dockerconfigjson');
      if (has(secret, '.dockerconfigjson') && !isJson(decoded(secret, '.dockerconfigjson'))) {
        errs.push(fieldErr.invalid(data.key('.dockerconfigjson'), '<secret contents redacted>', 'must be valid JSON'));
      }
      break;
    case types.basicAuth:
      if (!has(secret, 'username') && !has(secret, 'password')) {
        errs.push(fieldErr.required(data.key('username')));
        errs.push(fieldErr.required(data.key('password')));
      }
      break;
    case types.sshAuth:
      requireKey('ssh-privatekey');
      break;
    case types.tls:
      requireKey('tls.key');
      requireKey('tls.crt');
      break;
    default:
      break;
  }
  return errs;
}

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** Folds the write-only stringData into data. Mutates. */
function foldStringData(secret: Secret): void {
  if (!secret.stringData) return;
  const data = { ...(secret.data ?? {}) };
  for (const [k, v] of Object.entries(secret.stringData)) data[k] = Buffer.from(v, 'utf8').toString('base64');
  secret.data = data;
  delete secret.stringData;
}

export const secretResource = defineResource<Secret>((names) => ({
  group: '',
  version: 'v1',
  kind: 'Secret',
  resource: 'secrets',
  singular: 'secret',
  namespaced: true,
  schema: SecretSchema,
  table: secretTable,
  fixture: () => ({ type: 'Opaque', data: { password: Buffer.from('s3cret').toString('base64') } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    selectableFieldNames: ['type'],
    selectableFields: (s) => ({ type: s.type ?? '' }),
    defaults(secret) {
      if (!secret.type) secret.type = 'Opaque';
    },
    prepareForCreate: foldStringData,
    prepareForUpdate: foldStringData,
    validate: (secret) => validateSecret(secret, names),
    validateUpdate(secret, old) {
      const errs: FieldError[] = [];
      if ((secret.type ?? '') !== (old.type ?? '')) errs.push(fieldErr.immutable('type', secret.type));
      if (old.immutable) {
        if (!secret.immutable) errs.push(fieldErr.forbidden('immutable', 'field is immutable when `immutable` is set'));
        if (!isDeepStrictEqual(secret.data ?? {}, old.data ?? {})) errs.push(fieldErr.forbidden('data', 'field is immutable when `immutable` is set'));
      }
      return errs;
    },
  },
}));
