/**
 * Validation results as values: validators return FieldError[] and never throw.
 * The texts follow Kubernetes' field error formats so that people and tools recognise them.
 */
export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueDuplicate'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueNotFound'
  | 'FieldValueTypeInvalid'
  | 'InternalError';

export interface FieldError {
  type: FieldErrorType;
  /** JSON path in Kubernetes' notation: `spec.ports[0].name`, `metadata.labels[app]`. */
  field: string;
  /** The offending value; `OMITTED` leaves it out of the message. */
  value?: unknown;
  detail?: string;
}

export const OMITTED = Symbol('omitted');

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueNotFound: 'Not found',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

/** Types whose message never repeats the value. */
const VALUELESS = new Set<FieldErrorType>(['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong', 'InternalError']);

/** The message without the field path, as used in a Status cause. */
export function fieldErrorBody(e: FieldError): string {
  let text = TYPE_TEXT[e.type];
  if (!VALUELESS.has(e.type) && e.value !== OMITTED && e.value !== undefined) {
    text += `: ${formatValue(e.value)}`;
  }
  if (e.detail) text += `: ${e.detail}`;
  return text;
}

export function fieldErrorText(e: FieldError): string {
  return e.field ? `${e.field}: ${fieldErrorBody(e)}` : fieldErrorBody(e);
}

function formatValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

/** Builds paths the way Kubernetes prints them. */
export class FieldPath {
  private constructor(private readonly text: string) {}
  static root(name = ''): FieldPath {
    return new FieldPath(name);
  }
  child(name: string): FieldPath {
    return new FieldPath(this.text ? `${this.text}.${name}` : name);
  }
  index(i: number): FieldPath {
    return new FieldPath(`${this.text}[${i}]`);
  }
  key(k: string): FieldPath {
    return new FieldPath(`${this.text}[${k}]`);
  }
  toString(): string {
    return this.text;
  }
}

export const fieldErr = {
  required: (field: FieldPath | string, detail?: string): FieldError => ({ type: 'FieldValueRequired', field: String(field), detail }),
  invalid: (field: FieldPath | string, value: unknown, detail?: string): FieldError => ({ type: 'FieldValueInvalid', field: String(field), value, detail }),
  duplicate: (field: FieldPath | string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field: String(field), value }),
  notSupported: (field: FieldPath | string, value: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field: String(field),
    value,
    detail: supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : undefined,
  }),
  forbidden: (field: FieldPath | string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field: String(field), detail }),
  tooLong: (field: FieldPath | string, max: number): FieldError => ({
    type: 'FieldValueTooLong',
    field: String(field),
    detail: `may not be more than ${max} bytes`,
  }),
  tooMany: (field: FieldPath | string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field: String(field),
    value: actual,
    detail: `must have at most ${max} items`,
  }),
  notFound: (field: FieldPath | string, value: unknown): FieldError => ({ type: 'FieldValueNotFound', field: String(field), value }),
  typeInvalid: (field: FieldPath | string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field: String(field), value, detail }),
  immutable: (field: FieldPath | string, value: unknown): FieldError => ({ type: 'FieldValueInvalid', field: String(field), value, detail: 'field is immutable' }),
};
