/**
 * Serializers for request and response bodies. Output takes either a plain value or an
 * EncodedObject-like `{ json }` holder, so that stored JSON text is written without re-encoding.
 */
import { stringify as stringifyYaml } from 'yaml';
import { findTooDeep, tooDeepMessage } from './nesting.js';
import { decodeYaml, YamlDecodeError } from './yaml-decode.js';

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


export const jsonSerializer: Serializer = {
  mediaType: 'application/json',
  encode: (value, pretty) => (pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)),
  encodeText: (text, pretty) => (pretty ? JSON.stringify(JSON.parse(text.json), null, 2) : text.json),
  decode(body) {
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch (e) {
      throw new DecodeBodyError(`the request body is not valid JSON: ${(e as Error).message}`);
    }
    // JSON.parse takes any depth; what handles the value afterwards does not.
    const tooDeep = findTooDeep(value);
    if (tooDeep) throw new DecodeBodyError(`the request body is not valid JSON: ${tooDeepMessage(tooDeep)}`);
    return value;
  },
};

export const yamlSerializer: Serializer = {
  mediaType: 'application/yaml',
  encode: (value) => stringifyYaml(value, { lineWidth: 0 }),
  encodeText: (text) => stringifyYaml(JSON.parse(text.json), { lineWidth: 0 }),
  decode(body) {
    try {
      return decodeYaml(body.toString('utf8'));
    } catch (e) {
      if (e instanceof YamlDecodeError) throw new DecodeBodyError(`the request body is not valid YAML: ${e.message}`);
      throw e;
    }
  },
};
