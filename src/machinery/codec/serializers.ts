/**
 * Serializers for request and response bodies. Output takes either a plain value or an
 * EncodedObject-like `{ json }` holder, so that stored JSON text is written without re-encoding.
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

export interface JsonText {
  readonly json: string;
}

export interface Serializer {
  readonly mediaType: string;
  /** Encodes a value, or JSON text as is (re-indented when pretty). */
  encode(value: unknown, pretty: boolean): string | Buffer;
  encodeText(json: JsonText, pretty: boolean): string | Buffer;
  /** Decodes a body into a plain JSON value; throws DecodeBodyError with a readable reason. */
  decode(body: Buffer): unknown;
}

export class DecodeBodyError extends Error {}

const MAX_YAML_ALIASES = 100;
const MAX_NESTING_DEPTH = 10_000;

export const jsonSerializer: Serializer = {
  mediaType: 'application/json',
  encode: (value, pretty) => (pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)),
  encodeText: (text, pretty) => (pretty ? JSON.stringify(JSON.parse(text.json), null, 2) : text.json),
  decode(body) {
    try {
      return JSON.parse(body.toString('utf8'));
    } catch (e) {
      throw new DecodeBodyError(`the request body is not valid JSON: ${(e as Error).message}`);
    }
  },
};

export const yamlSerializer: Serializer = {
  mediaType: 'application/yaml',
  encode: (value) => stringifyYaml(value, { lineWidth: 0 }),
  encodeText: (text) => stringifyYaml(JSON.parse(text.json), { lineWidth: 0 }),
  decode(body) {
    let value: unknown;
    try {
      // Repeated keys keep the last value, as Kubernetes' YAML decoding does; field validation
      // reports them (machinery/codec/yaml-keys.ts) instead of the parser refusing the body.
      value = parseYaml(body.toString('utf8'), { maxAliasCount: MAX_YAML_ALIASES, uniqueKeys: false, prettyErrors: false });
    } catch (e) {
      throw new DecodeBodyError(`the request body is not valid YAML: ${(e as Error).message}`);
    }
    if (depthOf(value) > MAX_NESTING_DEPTH) throw new DecodeBodyError('the request body is nested too deeply');
    return value;
  },
};

function depthOf(v: unknown, d = 0): number {
  if (d > MAX_NESTING_DEPTH) return d;
  if (Array.isArray(v)) return v.reduce((m: number, x) => Math.max(m, depthOf(x, d + 1)), d + 1);
  if (v && typeof v === 'object') return Object.values(v).reduce((m: number, x) => Math.max(m, depthOf(x, d + 1)), d + 1);
  return d;
}
