/**
 * Request bodies: an object written as JSON, YAML or protobuf, then possibly damaged as text or bytes.
 * Returns the bytes, the content type that goes with them, and a short note of what was done.
 */
import { stringify as toYaml } from 'yaml';
import { PROTOBUF_TYPE } from './catalogue.js';
import type { JsonObject } from './objects.js';
import { configMapMessage, damagedProtobuf, envelope } from './protobuf.js';
import type { Random } from './random.js';
import { deepJsonText, depthFor, oddNumberText } from './values.js';

export interface Body {
  bytes: Buffer;
  contentType: string;
  note: string;
}

export type Encoding = 'json' | 'yaml' | 'protobuf';

export function encodeObject(obj: JsonObject, encoding: Encoding): Buffer {
  if (encoding === 'json') return Buffer.from(JSON.stringify(obj));
  if (encoding === 'yaml') return Buffer.from(toYaml(obj, { aliasDuplicateObjects: false }));
  throw new Error('protobuf bodies are built by protobufBody');
}

/**
 * A body for create or update. `damage` asks for text or byte damage on top of the object;
 * `protobuf` allows the protobuf encoding (which the fuzzer writes for ConfigMaps only).
 */
export function objectBody(obj: JsonObject, r: Random, damage: boolean, protobuf: boolean): Body {
  const encoding = r.weighted<Encoding>([
    [6, 'json'],
    [3, 'yaml'],
    [protobuf ? 2 : 0, 'protobuf'],
  ]);
  if (encoding === 'protobuf') return protobufBody(obj, r, damage);
  const contentType = encoding === 'json' ? 'application/json' : 'application/yaml';
  const text = encodeObject(obj, encoding);
  if (!damage) return { bytes: text, contentType, note: encoding };
  const damaged = encoding === 'json' ? damageJson(text.toString('utf8'), r) : damageYaml(text.toString('utf8'), r);
  return { bytes: damaged.bytes, contentType, note: `${encoding}: ${damaged.note}` };
}

function protobufBody(obj: JsonObject, r: Random, damage: boolean): Body {
  const m = (obj.metadata ?? {}) as JsonObject;
  const name = typeof m.name === 'string' ? m.name : '';
  const namespace = typeof m.namespace === 'string' ? m.namespace : '';
  const data: Record<string, string> = {};
  if (obj.data && typeof obj.data === 'object' && !Array.isArray(obj.data)) {
    for (const [k, v] of Object.entries(obj.data)) data[k] = String(v);
  } else {
    data.key = 'value';
  }
  const raw = configMapMessage(name, namespace, data, r.chance(0.3) ? { app: 'web' } : {});
  // The ConfigMap message goes to whatever kind the path names: for other kinds it decodes as garbage.
  const valid = envelope(typeof obj.apiVersion === 'string' ? obj.apiVersion : 'v1', typeof obj.kind === 'string' ? obj.kind : 'ConfigMap', raw);
  if (!damage) return { bytes: valid, contentType: PROTOBUF_TYPE, note: 'protobuf' };
  const d = damagedProtobuf(valid, raw, r);
  return { bytes: d.body, contentType: PROTOBUF_TYPE, note: `protobuf: ${d.note}` };
}

/** Text damage to JSON: truncation, garbage, duplicate keys, odd numbers, bad UTF-8, deep text. */
export function damageJson(text: string, r: Random): { bytes: Buffer; note: string } {
  const pick = r.int(14);
  switch (pick) {
    case 0: {
      const at = r.int(text.length + 1);
      return { bytes: Buffer.from(text.slice(0, at)), note: `truncated at ${at}` };
    }
    case 1:
      return { bytes: Buffer.from(text + r.pick(['}', ']', ' garbage', '{}', '\u0000', '\n{"a":1}'])), note: 'trailing data' };
    case 2:
      return { bytes: Buffer.from(text.replace(/^\{/, '{"metadata":{"name":"dup"},')), note: 'duplicate metadata key' };
    case 3:
      return { bytes: Buffer.from(text.replace(/^\{/, `{"num":${oddNumberText(r)},`)), note: 'odd number literal' };
    case 4:
      return { bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), note: 'UTF-8 BOM' };
    case 5: {
      const b = Buffer.from(text);
      const at = r.int(b.length);
      return { bytes: Buffer.concat([b.subarray(0, at), Buffer.from(r.pick([[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80]])), b.subarray(at)]), note: 'invalid UTF-8' };
    }
    case 6:
      return { bytes: Buffer.from(text.replace(/^\{/, `{"deep":${deepJsonText(r, depthFor(r))},`)), note: 'deep JSON text' };
    case 7:
      return { bytes: Buffer.from(r.pick(['', ' ', 'null', '[]', '""', '0', 'true', '{}', '[{}]', '{"kind":"Status"}', 'NaN', '{"a":1,}', "{'a':1}", '/* c */{}'])), note: 'not an object' };
    case 8:
      return { bytes: Buffer.from(text.replace(/"([a-z])/g, (_m, c: string) => `"\\u00${c.charCodeAt(0).toString(16)}`)), note: 'escaped key letters' };
    case 9:
      return { bytes: Buffer.from(text.replace(/":/g, '": \t\r\n')), note: 'odd whitespace' };
    case 10:
      return { bytes: Buffer.from(text.replace(/^\{/, '{"s":"\\ud800\\udc00\\ud800 \\u0000",')), note: 'lone surrogate escapes' };
    case 11:
      return { bytes: Buffer.from(text.replace(/"metadata"/, '"Metadata"')), note: 'case-folded key' };
    case 12: {
      const b = Buffer.from(text);
      for (let i = 0; i < 3; i++) b[r.int(b.length)] = r.int(256);
      return { bytes: b, note: 'garbled bytes' };
    }
    default:
      return { bytes: Buffer.from(`{"big":"${'x'.repeat(r.pick([1024 * 1024, 3 * 1024 * 1024 + 10]))}"}`), note: 'big body' };
  }
}

/** Damage that only YAML has: aliases, recursive anchors, tags, documents, tabs. */
export function damageYaml(text: string, r: Random): { bytes: Buffer; note: string } {
  const pick = r.int(12);
  switch (pick) {
    case 0:
      return { bytes: Buffer.from(`${text}extra: &a [*a]\n`), note: 'recursive alias' };
    case 1: {
      // Aliases that expand exponentially (the "billion laughs").
      let y = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
      for (let i = 1; i < 10; i++) y += `a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
      return { bytes: Buffer.from(text + y), note: 'alias bomb' };
    }
    case 2:
      return { bytes: Buffer.from(`${text}---\n${text}`), note: 'two documents' };
    case 3:
      return { bytes: Buffer.from(text.replace(/^kind: .*$/m, 'kind: !!binary aGVsbG8=').replace(/^apiVersion: .*$/m, 'apiVersion: !!python/object:os.system x')), note: 'tags' };
    case 4:
      return { bytes: Buffer.from(text.replace(/^ {2}/gm, '\t')), note: 'tabs for indentation' };
    case 5:
      return { bytes: Buffer.from(`${text}deep: ${'['.repeat(depthFor(r))}`), note: 'deep unterminated flow' };
    case 6: {
      const d = depthFor(r);
      return { bytes: Buffer.from(`${text}deep: ${'['.repeat(d)}1${']'.repeat(d)}\n`), note: `flow nested ${d} deep` };
    }
    case 7:
      return { bytes: Buffer.from(`${text}${'k'.repeat(2000)}: v\n? [complex, key]\n: v\n`), note: 'long and complex keys' };
    case 8:
      return { bytes: Buffer.from(`base: &b {x: 1}\n${text}merged:\n  <<: *b\n  <<: [*b, *b]\n`), note: 'merge keys' };
    case 9:
      return { bytes: Buffer.from(`%YAML 1.1\n%TAG ! tag:x,2000:\n---\n${text}...\n`), note: 'directives' };
    case 10:
      return { bytes: Buffer.from(text.replace(/: /, `: ${r.pick(['0x1F', '0o17', '1_000', '.inf', '-.nan', '2001-12-14t21:59:43.10-05:00', 'yes', 'off', '~', '"\\x00"'])}\n  dup: `)), note: 'YAML 1.1 scalars' };
    default: {
      const d = damageJson(JSON.stringify({ a: text }), r);
      return { bytes: d.bytes, note: `JSON in a YAML body: ${d.note}` };
    }
  }
}
