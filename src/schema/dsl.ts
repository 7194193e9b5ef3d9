/**
 * The schema DSL: one description of a type gives its TypeScript type (`Infer<typeof X>`), decoding
 * with Go's JSON semantics (unknown fields, zero values, omitempty), and later OpenAPI, apply type
 * information and protobuf field numbers. Descriptions are plain data; builders only fill defaults.
 */

/** Marker carrying the TypeScript type a schema describes. Never set at run time. */
declare const phantom: unique symbol;
interface Typed<T> {
  readonly [phantom]?: T;
}

export type ListType = 'atomic' | 'set' | 'map';
export type MapType = 'atomic' | 'granular';

export interface StringSchema extends Typed<string> {
  readonly type: 'string';
  readonly enum?: readonly string[];
}
export interface IntegerSchema extends Typed<number> {
  readonly type: 'integer';
  readonly format: 'int32' | 'int64';
}
export interface NumberSchema extends Typed<number> {
  readonly type: 'number';
}
export interface BooleanSchema extends Typed<boolean> {
  readonly type: 'boolean';
}
/** Base64 text in JSON, bytes in protobuf. */
export interface BytesSchema extends Typed<string> {
  readonly type: 'bytes';
}
/** metav1.Time (RFC 3339, seconds) or MicroTime (microseconds). */
export interface TimeSchema extends Typed<string> {
  readonly type: 'time';
  readonly precision: 'seconds' | 'micro';
}
export interface IntOrStringSchema extends Typed<number | string> {
  readonly type: 'int-or-string';
}
export interface QuantitySchema extends Typed<string> {
  readonly type: 'quantity';
}
/** Arbitrary JSON (RawExtension, JSON): kept as sent. */
export interface RawSchema extends Typed<unknown> {
  readonly type: 'raw';
  /** The named type it stands for (`meta.v1.FieldsV1`, `runtime.RawExtension`); unnamed means any JSON object. */
  readonly name?: string;
  /**
   * The OpenAPI schema to publish for the value, verbatim, when it has one of its own (a custom
   * resource's field, kept as sent and checked against this schema by its validation).
   */
  readonly openapi?: Readonly<Record<string, unknown>>;
}
export interface MapSchema<V = unknown> extends Typed<Record<string, V>> {
  readonly type: 'map';
  readonly values: Schema;
  readonly mapType?: MapType;
}
export interface ListSchema<I = unknown> extends Typed<I[]> {
  readonly type: 'list';
  readonly items: Schema;
  readonly listType?: ListType;
  readonly listMapKeys?: readonly string[];
  /** Strategic-merge patch strategy, as the Go struct tag `patchStrategy` gives it. */
  readonly patchStrategy?: string;
  readonly patchMergeKey?: string;
}

/**
 * How a field is present in output, mirroring the Go field declaration:
 * - `omitempty`: a value field with `omitempty`; zero values are dropped.
 * - `pointer`: a pointer field; absent or null is dropped, zero values are kept.
 * - `always`: a value field without `omitempty` (or any non-pointer struct); always emitted, zero value when absent.
 */
export type Presence = 'omitempty' | 'pointer' | 'always';

/**
 * A field of a struct. `P` is true when decoding always fills the field in (a Go value struct, or a
 * value field without omitempty), which makes it non-optional in the inferred TypeScript type.
 */
export interface FieldSpec<T = unknown, P extends boolean = boolean> {
  readonly schema: Schema & Typed<T>;
  readonly presence: Presence;
  /** Required by the API (OpenAPI `required`); enforced by validation, not by decoding. */
  readonly required: boolean;
  /** Field number in Kubernetes' published protobuf definition of the type. */
  readonly proto?: number;
  readonly description?: string;
  /** Strategic-merge patch strategy of a non-list field (`retainKeys` on Deployment.strategy). */
  readonly patchStrategy?: string;
  /**
   * Set on the fields of a Go struct embedded with `json:",inline"` (PersistentVolumeSpec holds a
   * PersistentVolumeSource): JSON shows them flat, protobuf keeps them in a sub-message at this
   * number. Metadata only; decoding treats them as ordinary fields.
   */
  readonly inline?: InlineOrigin;
  /**
   * The value defaulting gives an absent field (OpenAPI `default`). Server-side apply reads it for
   * key fields of map lists, so `{containerPort: 80}` and `{containerPort: 80, protocol: TCP}` are one item.
   */
  readonly default?: unknown;
  /**
   * Overrides the referenced struct's structType for this one field, as a Go `+structType` marker
   * on a field does (PersistentVolumeSpec.claimRef is a granular ObjectReference, which is atomic
   * everywhere else).
   */
  readonly structType?: MapType;
  readonly [presentMarker]?: P;
}

/** The embedded struct an inlined field comes from, and that struct's field number in its parent. */
export interface InlineOrigin {
  readonly proto: number;
  /** The Go field name's JSON form in the generated protobuf (`persistentVolumeSource`). */
  readonly name: string;
  readonly struct: StructSchema;
}
declare const presentMarker: unique symbol;

export interface StructSchema<T = unknown> extends Typed<T> {
  readonly type: 'object';
  /** Qualified type name, e.g. `core.v1.ConfigMap`; OpenAPI and protobuf names derive from it. */
  readonly name: string;
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** What the type is, for OpenAPI (`kubectl explain` prints it). */
  readonly description?: string;
  readonly structType?: MapType;
  /** Keep fields the schema does not list (the `object` of a RawExtension-like struct). */
  readonly preserveUnknownFields?: boolean;
}

/** A named schema resolved on use, for recursive types. */
export interface LazySchema<T = unknown> extends Typed<T> {
  readonly type: 'lazy';
  readonly resolve: () => Schema;
}

export type Schema =
  | StringSchema
  | IntegerSchema
  | NumberSchema
  | BooleanSchema
  | BytesSchema
  | TimeSchema
  | IntOrStringSchema
  | QuantitySchema
  | RawSchema
  | MapSchema
  | ListSchema
  | StructSchema
  | LazySchema;

export type Infer<S> = S extends Typed<infer T> ? T : never;

type IsPresent<F> = F extends { readonly [presentMarker]?: infer P } ? (P extends true ? true : false) : false;
type FieldsOf<F extends Record<string, FieldSpec>> = {
  [K in keyof F as IsPresent<F[K]> extends true ? K : never]: F[K] extends FieldSpec<infer T> ? T : never;
} & {
  [K in keyof F as IsPresent<F[K]> extends true ? never : K]?: F[K] extends FieldSpec<infer T> ? T : never;
};

/** Whether decoding always fills a field in: value structs and fields marked `always`. */
type Present<S, O> = O extends { pointer: true } ? false : O extends { always: true } ? true : S extends StructSchema ? true : false;
type Flatten<T> = { [K in keyof T]: T[K] };

export interface FieldOptions {
  /** Emitted even when absent (Go value field without omitempty). */
  always?: boolean;
  /** Go pointer field: zero values are kept, absent is dropped. */
  pointer?: boolean;
  description?: string;
  patchStrategy?: string;
  /** See FieldSpec.default; declaring it does not make decoding fill it in. */
  default?: unknown;
  /** See FieldSpec.structType. */
  structType?: MapType;
}

const STRUCT_LIKE = new Set<Schema['type']>(['object', 'time', 'int-or-string', 'quantity', 'raw']);

function presenceFor(schema: Schema, opts: FieldOptions | undefined): Presence {
  if (opts?.pointer) return 'pointer';
  if (opts?.always) return 'always';
  // Go never omits a non-pointer struct, whatever its tag says; Time, IntOrString, Quantity and
  // RawExtension are structs in Go, so they print as null, 0 or "0" when unset.
  return STRUCT_LIKE.has(schema.type) ? 'always' : 'omitempty';
}

function makeField<S extends Schema, O extends FieldOptions | undefined>(
  proto: number | undefined,
  schema: S,
  required: boolean,
  opts?: O,
): FieldSpec<Infer<S>, Present<S, O>> {
  const spec: FieldSpec<Infer<S>, Present<S, O>> = {
    schema: schema as Schema & Typed<Infer<S>>,
    presence: presenceFor(schema, opts),
    required,
    ...(proto !== undefined ? { proto } : {}),
    ...(opts?.description ? { description: opts.description } : {}),
    ...(opts?.patchStrategy ? { patchStrategy: opts.patchStrategy } : {}),
    ...(opts?.default !== undefined ? { default: opts.default } : {}),
    ...(opts?.structType ? { structType: opts.structType } : {}),
  };
  return spec;
}

export const t = {
  string: (opts?: { enum?: readonly string[] }): StringSchema => ({ type: 'string', ...(opts?.enum ? { enum: opts.enum } : {}) }),
  int32: (): IntegerSchema => ({ type: 'integer', format: 'int32' }),
  int64: (): IntegerSchema => ({ type: 'integer', format: 'int64' }),
  double: (): NumberSchema => ({ type: 'number' }),
  bool: (): BooleanSchema => ({ type: 'boolean' }),
  bytes: (): BytesSchema => ({ type: 'bytes' }),
  time: (): TimeSchema => ({ type: 'time', precision: 'seconds' }),
  microTime: (): TimeSchema => ({ type: 'time', precision: 'micro' }),
  intOrString: (): IntOrStringSchema => ({ type: 'int-or-string' }),
  quantity: (): QuantitySchema => ({ type: 'quantity' }),
  raw: (opts?: { name?: string; openapi?: Readonly<Record<string, unknown>> }): RawSchema => ({ type: 'raw', ...(opts?.name ? { name: opts.name } : {}), ...(opts?.openapi ? { openapi: opts.openapi } : {}) }),
  map: <V extends Schema>(values: V, opts?: { mapType?: MapType }): MapSchema<Infer<V>> => ({ type: 'map', values, ...(opts?.mapType ? { mapType: opts.mapType } : {}) }),
  list: <I extends Schema>(
    items: I,
    opts?: { listType?: ListType; listMapKeys?: readonly string[]; patchStrategy?: string; patchMergeKey?: string },
  ): ListSchema<Infer<I>> => ({ type: 'list', items, ...opts }),
  struct: <F extends Record<string, FieldSpec>>(
    name: string,
    fields: F,
    opts?: { structType?: MapType; preserveUnknownFields?: boolean; description?: string },
  ): StructSchema<Flatten<FieldsOf<F>>> & { readonly fields: F } => ({ type: 'object', name, fields, ...opts }),
  lazy: <T>(resolve: () => Schema): LazySchema<T> => ({ type: 'lazy', resolve }),
  /** A field with its protobuf number. */
  field: <S extends Schema, O extends FieldOptions | undefined = undefined>(proto: number | undefined, schema: S, opts?: O): FieldSpec<Infer<S>, Present<S, O>> =>
    makeField(proto, schema, false, opts),
  /**
   * The fields of `struct` spread into the enclosing struct, as Go's `json:",inline"` embedding shows
   * them, each remembering where protobuf keeps it: `...t.inline(2, 'persistentVolumeSource', Source)`.
   */
  inline: <F extends Record<string, FieldSpec>>(proto: number, name: string, struct: StructSchema & { readonly fields: F }): F => {
    const out: Record<string, FieldSpec> = {};
    for (const [k, f] of Object.entries(struct.fields)) out[k] = { ...f, inline: { proto, name, struct } };
    return out as F;
  },
  /** A field the API requires (OpenAPI `required`); decoding does not enforce it, validation does. */
  required: <S extends Schema, O extends FieldOptions | undefined = undefined>(proto: number | undefined, schema: S, opts?: O): FieldSpec<Infer<S>, Present<S, O>> =>
    makeField(proto, schema, true, opts),
};

export function resolveSchema(s: Schema): Exclude<Schema, LazySchema> {
  let current = s;
  while (current.type === 'lazy') current = current.resolve();
  return current;
}
