/** The query parameters of a Table request (TableOptions): which object each row carries. */
import { errors } from '../../machinery/errors.js';
import { fieldErr, fieldErrorText } from '../../machinery/field-errors.js';

export type IncludeObject = 'Metadata' | 'Object' | 'None';

export interface TableOptions {
  readonly includeObject: IncludeObject;
  /** Leave out columnDefinitions: every watch event but the first, as Kubernetes sends them. */
  readonly noHeaders: boolean;
}

const INCLUDE_OBJECT: readonly IncludeObject[] = ['Metadata', 'None', 'Object'];

/** Reads `includeObject` (default Metadata); any other value is a 400, in Kubernetes' words. */
export function tableOptionsOf(params: URLSearchParams): TableOptions {
  const value = params.get('includeObject') ?? '';
  if (value === '') return { includeObject: 'Metadata', noHeaders: false };
  if (!(INCLUDE_OBJECT as readonly string[]).includes(value)) {
    const err = fieldErrorText(fieldErr.notSupported('includeObject', value, INCLUDE_OBJECT));
    throw errors.badRequest(`Unable to convert to Table as requested: ${err}`);
  }
  return { includeObject: value as IncludeObject, noHeaders: false };
}
