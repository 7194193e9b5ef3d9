/**
 * PATCH bodies of the four types (JSON patch, merge patch, strategic merge patch, apply), each valid or
 * bad: wrong operations and pointers, deep values, directives, non-object bodies.
 */
import type { Body } from './bodies.js';
import { damageJson, damageYaml, encodeObject } from './bodies.js';
import type { JsonObject } from './objects.js';
import type { Random } from './random.js';
import { deepJsonText, deepValue, depthFor, oddName, oddScalar, oddString, unknownFieldName, type Json } from './values.js';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

const label = (r: Random): string => r.pick(['app', 'tier', 'x', 'orch.io/y']);

function jsonPointer(r: Random): string {
  return r.weighted<() => string>([
    [4, () => r.pick(['/metadata/labels/fuzz', '/metadata/annotations/a', '/data/key', '/data/new', '/spec/replicas', '/metadata/labels', '/spec/ports/0/port', '/spec/containers/0/image', '/metadata/finalizers/-'])],
    [1, () => r.pick(['', '/', 'metadata', '/metadata/labels/a~1b', '/metadata/labels/~0', '/a~2b', '/~', '/spec/ports/-1', '/spec/ports/01', '/spec/ports/99999999999999999999', '/spec/ports/ 1'])],
    [1, () => '/metadata/name'],
    [1, () => '/a'.repeat(r.pick([100, 1000, 10_000]))],
    [1, () => `/${unknownFieldName(r)}`],
  ])();
}

function jsonPatchOp(r: Random): Json {
  const op = r.weighted<string>([
    [4, 'add'],
    [3, 'replace'],
    [2, 'remove'],
    [1, 'test'],
    [1, 'move'],
    [1, 'copy'],
    [1, r.pick(['Add', '', 'bogus', 'merge'])],
  ]);
  const out: { [k: string]: Json } = { op, path: jsonPointer(r) };
  if (op === 'move' || op === 'copy' || r.chance(0.05)) out.from = jsonPointer(r);
  if (op !== 'remove' || r.chance(0.1)) out.value = r.chance(0.6) ? r.pick(['v', 'web', 3, 'nginx:2']) : oddScalar(r);
  if (r.chance(0.05)) delete out.path;
  if (r.chance(0.05)) delete out.op;
  return out;
}

function jsonPatch(r: Random, bad: boolean): Body {
  const ct = PATCH_CONTENT_TYPES.json;
  if (!bad) {
    const ops: Json[] = [{ op: 'add', path: '/metadata/labels', value: { fuzz: r.string(4) } }];
    if (r.chance(0.5)) ops.push({ op: 'add', path: '/metadata/annotations', value: { n: String(r.int(1000)) } });
    return { bytes: Buffer.from(JSON.stringify(ops)), contentType: ct, note: 'json patch' };
  }
  const kind = r.int(6);
  if (kind === 0) {
    const depth = depthFor(r);
    return { bytes: Buffer.from(`[{"op":"add","path":"/metadata/annotations","value":${deepJsonText(r, depth)}}]`), contentType: ct, note: `json patch value ${depth} deep` };
  }
  if (kind === 1) {
    const n = r.pick([1000, 10_000]);
    const ops = Array.from({ length: n }, () => ({ op: 'test', path: '/metadata/name', value: 'x' }));
    return { bytes: Buffer.from(JSON.stringify(ops)), contentType: ct, note: `${n} operations` };
  }
  if (kind === 2) return { bytes: Buffer.from(JSON.stringify(oddScalar(r))), contentType: ct, note: 'json patch not an array' };
  const ops = Array.from({ length: r.range(1, 4) }, () => jsonPatchOp(r));
  const text = JSON.stringify(ops);
  if (kind === 3) {
    const d = damageJson(text, r);
    return { bytes: d.bytes, contentType: ct, note: `json patch: ${d.note}` };
  }
  return { bytes: Buffer.from(text), contentType: ct, note: 'json patch ops' };
}

function mergeLike(r: Random, strategic: boolean, bad: boolean): Body {
  const ct = strategic ? PATCH_CONTENT_TYPES.strategic : PATCH_CONTENT_TYPES.merge;
  const name = strategic ? 'strategic merge patch' : 'merge patch';
  if (!bad) {
    const patch: JsonObject = { metadata: { labels: { [label(r)]: r.pick(['a', 'b', null]) } } };
    if (r.chance(0.3)) patch.data = { key: r.string(5) };
    return { bytes: Buffer.from(JSON.stringify(patch)), contentType: ct, note: name };
  }
  const kind = r.int(7);
  if (kind === 0) {
    const depth = depthFor(r);
    return { bytes: Buffer.from(`{"metadata":{"annotations":${deepJsonText(r, depth)}}}`), contentType: ct, note: `${name} ${depth} deep` };
  }
  if (kind === 1) return { bytes: Buffer.from(JSON.stringify(oddScalar(r))), contentType: ct, note: `${name} not an object` };
  if (kind === 2 && strategic) {
    const directive = r.pick<Json>([
      { $patch: r.pick(['replace', 'delete', 'merge', 'bogus', '']) },
      { spec: { containers: [{ $patch: r.pick(['delete', 'replace', 'x']), name: 'app' }] } },
      { spec: { $setElementOrder: { containers: [{ name: 'x' }, { noname: 1 }] } } },
      { $setElementOrder: { finalizers: ['a', 'b'] } },
      { metadata: { $deleteFromPrimitiveList: { finalizers: ['a', 1, null] } } },
      { spec: { $retainKeys: ['ports', 42], ports: [{ port: 1 }] } },
      { spec: { ports: [{ noMergeKey: true }] } },
      { spec: { containers: [{ name: 'app', image: 'x' }, { name: 'app', image: 'y' }] } },
      { spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'A', value: 'b', $patch: 'delete' }] }] } } } },
      { metadata: { finalizers: [{ $patch: 'replace' }] } },
    ]);
    return { bytes: Buffer.from(JSON.stringify(directive)), contentType: ct, note: 'directives' };
  }
  if (kind === 3) {
    const d = damageJson(JSON.stringify({ metadata: { labels: { a: 'b' } } }), r);
    return { bytes: d.bytes, contentType: ct, note: `${name}: ${d.note}` };
  }
  const patch: JsonObject = {};
  patch[r.pick(['metadata', 'spec', 'data', 'status', unknownFieldName(r)])] = r.chance(0.5) ? oddScalar(r) : deepValue(r, r.range(1, 5));
  if (r.chance(0.3)) patch.metadata = { name: oddName(r), resourceVersion: r.pick(['1', 'abc', '']) };
  if (r.chance(0.2)) patch.apiVersion = r.pick(['v2', 'bogus/v1', '']);
  if (r.chance(0.2)) patch.kind = r.pick(['Other', '']);
  return { bytes: Buffer.from(JSON.stringify(patch)), contentType: ct, note: `${name} odd fields` };
}

function applyPatch(obj: JsonObject, r: Random, bad: boolean): Body {
  const ct = r.weighted<string>([
    [8, PATCH_CONTENT_TYPES.apply],
    [1, 'application/apply-patch+json'],
    [1, 'application/apply-patch+cbor'],
  ]);
  const asJson = r.chance(0.4);
  const text = (o: JsonObject): Buffer => (asJson ? Buffer.from(JSON.stringify(o)) : encodeObject(o, 'yaml'));
  if (!bad) return { bytes: text(obj), contentType: ct, note: `apply ${asJson ? 'json' : 'yaml'}` };
  const kind = r.int(5);
  if (kind === 0) {
    const d = asJson ? damageJson(JSON.stringify(obj), r) : damageYaml(encodeObject(obj, 'yaml').toString('utf8'), r);
    return { bytes: d.bytes, contentType: ct, note: `apply: ${d.note}` };
  }
  if (kind === 1) {
    const m = obj.metadata !== null && typeof obj.metadata === 'object' && !Array.isArray(obj.metadata) ? obj.metadata : (obj.metadata = {});
    m.managedFields = [{ manager: 'm', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: {} }];
    return { bytes: text(obj), contentType: ct, note: 'apply with managedFields' };
  }
  if (kind === 2) return { bytes: Buffer.from(oddString(r)), contentType: ct, note: 'apply body a string' };
  const copy = { ...obj };
  delete copy[r.pick(['apiVersion', 'kind', 'metadata'])];
  return { bytes: text(copy), contentType: ct, note: 'apply without an identity field' };
}

export function patchBody(type: PatchType, obj: JsonObject, r: Random, bad: boolean): Body {
  switch (type) {
    case 'json':
      return jsonPatch(r, bad);
    case 'merge':
      return mergeLike(r, false, bad);
    case 'strategic':
      return mergeLike(r, true, bad);
    case 'apply':
      return applyPatch(obj, r, bad);
  }
}
