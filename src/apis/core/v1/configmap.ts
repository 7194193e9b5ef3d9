/** ConfigMap (core/v1): string and binary configuration data, optionally immutable. */
import { isDeepStrictEqual } from 'node:util';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { MAX_DATA_BYTES, validateConfigKey } from './config-key.js';
import { configMapTable } from './tables.js';

export const ConfigMapSchema = t.struct('core.v1.ConfigMap', {
  ...objectHeader,
  immutable: t.field(4, t.bool(), {
    pointer: true,
    description: 'When true, data and binaryData can no longer change (only metadata can); the flag itself cannot be unset. Unset means false.',
  }),
  data: t.field(2, t.map(t.string()), {
    description: "Configuration as UTF-8 text, by key. Keys are made of letters, digits, '-', '_' and '.', and may not also appear in binaryData.",
  }),
  binaryData: t.field(3, t.map(t.bytes()), {
    description: "Configuration that may not be UTF-8, by key, base64-encoded in JSON. Keys follow the rule of data and may not also appear there.",
  }),
}, { description: 'Configuration data, as text or bytes by key, for workloads to read. At most 1 MiB in all.' });
export type ConfigMap = ObjectOf<typeof ConfigMapSchema>;

function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  // Only values count toward the limit, as in Kubernetes.
  let size = 0;
  for (const [k, v] of Object.entries(cm.data ?? {})) {
    errs.push(...validateConfigKey(k, FieldPath.root('data').key(k)));
    if (cm.binaryData && Object.prototype.hasOwnProperty.call(cm.binaryData, k)) {
      errs.push(fieldErr.invalid(FieldPath.root('data').key(k), k, 'duplicate of key present in binaryData'));
    }
    size += Buffer.byteLength(v);
  }
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) {
    errs.push(...validateConfigKey(k, FieldPath.root('binaryData').key(k)));
    size += Buffer.byteLength(v, 'base64');
  }
  if (size > MAX_DATA_BYTES) errs.push({ type: 'FieldValueTooLong', field: '', detail: `must have at most ${MAX_DATA_BYTES} bytes` });
  return errs;
}

export const configMapResource = defineResource<ConfigMap>(() => ({
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  resource: 'configmaps',
  singular: 'configmap',
  namespaced: true,
  shortNames: ['cm'],
  schema: ConfigMapSchema,
  table: configMapTable,
  fixture: () => ({ data: { key: 'value' }, binaryData: { bin: Buffer.from('bytes').toString('base64') } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    validate: validateConfigMap,
    validateUpdate(cm, old) {
      const errs: FieldError[] = [];
      if (old.immutable) {
        if (!cm.immutable) errs.push(fieldErr.forbidden('immutable', 'field is immutable when `immutable` is set'));
        if (!isDeepStrictEqual(cm.data ?? {}, old.data ?? {})) errs.push(fieldErr.forbidden('data', 'field is immutable when `immutable` is set'));
        if (!isDeepStrictEqual(cm.binaryData ?? {}, old.binaryData ?? {})) {
          errs.push(fieldErr.forbidden('binaryData', 'field is immutable when `immutable` is set'));
        }
      }
      return errs;
    },
  },
}));
