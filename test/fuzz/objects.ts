/**
 * Objects to send: a valid one for a kind, and structural mutations of it (unknown fields, wrong types,
 * odd metadata, deep or wide values, mismatched identity). Encoding into bytes is bodies.ts's job.
 */
import { apiVersionOf, type Kind } from './catalogue.js';
import type { Random } from './random.js';
import { deepValue, depthFor, oddName, oddNumber, oddScalar, oddString, unknownFieldName, wideObject, type Json } from './values.js';

export type JsonObject = { [k: string]: Json };

export function validObject(kind: Kind, name: string, namespace: string | undefined, r: Random): JsonObject {
  const metadata: JsonObject = { name };
  if (namespace !== undefined && kind.namespaced) metadata.namespace = namespace;
  if (r.chance(0.3)) metadata.labels = { app: 'web', tier: r.pick(['a', 'b', 'c']) };
  if (r.chance(0.2)) metadata.annotations = { note: r.string(r.range(1, 40)) };
  // A deep copy: mutations must not reach values the samples share (a pod template).
  return { apiVersion: apiVersionOf(kind), kind: kind.kind, metadata, ...(structuredClone(kind.sample()) as JsonObject) };
}

/** Applies one to three structural mutations; returns a note of what was done. */
export function mutateObject(obj: JsonObject, r: Random): string {
  const notes: string[] = [];
  const n = r.range(1, 3);
  for (let i = 0; i < n; i++) notes.push(r.pick(MUTATIONS)(obj, r));
  return notes.join(', ');
}

type Mutation = (obj: JsonObject, r: Random) => string;

const meta = (obj: JsonObject): JsonObject => {
  const m = obj.metadata;
  if (m && typeof m === 'object' && !Array.isArray(m)) return m;
  const fresh: JsonObject = {};
  obj.metadata = fresh;
  return fresh;
};

/** A random path of existing object keys, to hang a mutation on. */
function randomContainer(obj: JsonObject, r: Random): JsonObject {
  let cur: JsonObject = obj;
  for (let d = 0; d < 4; d++) {
    const keys = Object.keys(cur).filter((k) => {
      const v = cur[k];
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    });
    if (keys.length === 0 || r.chance(0.3)) break;
    cur = cur[r.pick(keys)] as JsonObject;
  }
  return cur;
}

const MUTATIONS: readonly Mutation[] = [
  (o, r) => {
    const name = unknownFieldName(r);
    randomContainer(o, r)[name] = oddScalar(r);
    return `unknown field ${JSON.stringify(name.slice(0, 20))}`;
  },
  (o, r) => {
    const c = randomContainer(o, r);
    const keys = Object.keys(c);
    if (keys.length === 0) return 'nothing to retype';
    const k = r.pick(keys);
    c[k] = oddScalar(r);
    return `retyped ${k}`;
  },
  (o, r) => {
    const c = randomContainer(o, r);
    const keys = Object.keys(c);
    if (keys.length === 0) return 'nothing to drop';
    const k = r.pick(keys);
    delete c[k];
    return `dropped ${k}`;
  },
  (o, r) => {
    // Deeper than this is sent as text (bodies.ts): encoding a value this deep would recurse too far here.
    const depth = Math.min(depthFor(r), 500);
    randomContainer(o, r)[r.pick(['deep', 'spec', 'data', 'labels'])] = deepValue(r, depth);
    return `nested ${depth} deep`;
  },
  (o, r) => {
    const keys = r.pick([100, 1000, 5000]);
    randomContainer(o, r)[r.pick(['wide', 'data', 'labels', 'annotations'])] = wideObject(r, keys);
    return `${keys} keys wide`;
  },
  (o, r) => {
    meta(o).name = oddName(r);
    return 'odd metadata.name';
  },
  (o, r) => {
    meta(o).namespace = r.pick([oddName(r), 'other', '', 'default']);
    return 'odd metadata.namespace';
  },
  (o, r) => {
    const m = meta(o);
    delete m.name;
    if (r.chance(0.5)) m.generateName = r.pick(['gen-', 'Gen-', '', '..', 'x'.repeat(300)]);
    return 'no name, generateName maybe';
  },
  (o, r) => {
    meta(o).resourceVersion = r.pick(['', '0', '1', 'abc', '-1', '99999999999999999999', '1e3', ' 1', '18446744073709551615']);
    return 'odd metadata.resourceVersion';
  },
  (o, r) => {
    const m = meta(o);
    const field = r.pick(['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation', 'selfLink', 'managedFields', 'finalizers', 'ownerReferences']);
    m[field] = r.weighted<() => Json>([
      [2, () => oddScalar(r)],
      [1, () => r.pick(['2024-01-02T03:04:05Z', 'yesterday', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999Z'])],
      [1, () => [{ manager: 'x', operation: r.pick(['Apply', 'Update', 'Bogus']), apiVersion: 'v1', fieldsType: r.pick(['FieldsV1', 'X']), fieldsV1: { 'f:data': { '.': {} } } }]],
      [1, () => [r.pick(['orch.io/x', 'foregroundDeletion', 'orphan', 'bad finalizer!', ''])]],
      [1, () => [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: r.pick(['', 'u-1', 'x'.repeat(100)]), controller: r.chance(0.5), blockOwnerDeletion: r.chance(0.5) }]],
    ])();
    return `odd metadata.${field}`;
  },
  (o, r) => {
    const m = meta(o);
    const which = r.pick(['labels', 'annotations']);
    m[which] = { [r.pick(['ok', 'bad key!', 'a/b/c', '/x', 'x'.repeat(64), 'orch.io/x', '€'])]: r.pick(['v', 'bad value!', 'x'.repeat(64), '', '€']) };
    return `odd ${which}`;
  },
  (o, r) => {
    o.apiVersion = r.pick(['v1', 'v2', '', 'apps/v1', 'apps/v1beta1', 'bogus/v1', '/v1', 'v1/', 'a/b/c', 42, null]) as Json;
    return 'odd apiVersion';
  },
  (o, r) => {
    o.kind = r.pick(['', 'ConfigMap', 'configmap', 'Status', 'List', 'Pod', 'DeleteOptions', 'Bogus', 7, null]) as Json;
    return 'odd kind';
  },
  (o, r) => {
    delete o[r.pick(['apiVersion', 'kind', 'metadata'])];
    return 'identity field dropped';
  },
  (o, r) => {
    randomContainer(o, r)[r.pick(['replicas', 'port', 'data', 'spec'])] = oddNumber(r);
    return 'odd number';
  },
  (o, r) => {
    randomContainer(o, r)[r.pick(['data', 'note', 'image'])] = oddString(r);
    return 'odd string';
  },
];
