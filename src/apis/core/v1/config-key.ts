/** Keys of ConfigMap and Secret data: the rule both kinds share. */
import { fieldErr, type FieldError, type FieldPath } from '../../../machinery/field-errors.js';

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
/** ConfigMaps and Secrets hold at most 1 MiB of data. */
export const MAX_DATA_BYTES = 1024 * 1024;

export function validateConfigKey(key: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (key.length > 253) errs.push(fieldErr.invalid(path, key, 'must be no more than 253 characters'));
  if (!CONFIG_KEY.test(key)) {
    errs.push(
      fieldErr.invalid(
        path,
        key,
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      ),
    );
  }
  if (key === '.') errs.push(fieldErr.invalid(path, key, "must not be '.'"));
  else if (key === '..') errs.push(fieldErr.invalid(path, key, "must not be '..'"));
  else if (key.startsWith('..')) errs.push(fieldErr.invalid(path, key, "must not start with '..'"));
  return errs;
}
