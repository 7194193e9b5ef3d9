/**
 * Query strings for each verb: every parameter of the verb's options kind with good and bad values,
 * huge numbers, repeated keys, unknown keys and odd encodings.
 */
import type { Random } from './random.js';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

type Param = readonly [string, () => string];

const hugeInts = ['99999999999999', '9007199254740993', '99999999999999999999', '1e30', '-1', '-99999999999999', '0', '1', '2147483648', '18446744073709551616'];
const badInts = ['abc', '', ' 1', '1.5', '0x10', '+1', '1e3', '١', 'NaN', 'Infinity', '--1'];

function intValue(r: Random, good: () => string): string {
  return r.weighted<() => string>([
    [3, good],
    [2, () => r.pick(hugeInts)],
    [1, () => r.pick(badInts)],
  ])();
}

function boolValue(r: Random): string {
  return r.pick(['true', 'false', '1', '0', '', 'TRUE', 'yes', 'maybe', 't']);
}

function continueToken(r: Random): string {
  const b64 = (s: string): string => Buffer.from(s).toString(r.chance(0.5) ? 'base64' : 'base64url');
  return r.pick([
    b64('null'),
    b64('{}'),
    b64('[]'),
    b64('"x"'),
    b64('{"v":"continue/v1","rv":1,"start":"x"}'),
    b64('{"v":"continue/v1","rv":-5,"start":"\\u0000"}'),
    b64('{"v":"continue/v1","rv":99999999999999999999,"start":"a"}'),
    b64('{"v":"continue/v1","rv":"1","start":1}'),
    b64('{"v":"meta.k8s.io/v1","rv":1,"start":"../../x"}'),
    b64('{"v":"continue/v1","rv":1e308,"start":"' + 'a'.repeat(5000) + '"}'),
    b64('{"v":"continue/v1","rv":1,"start":"/../../registry/secrets/"}'),
    'not base64!',
    '====',
    '',
    'x'.repeat(10_000),
  ]);
}

function selector(r: Random, field: boolean): string {
  if (field) {
    return r.pick(['metadata.name=f-1', 'metadata.namespace!=default', 'metadata.name==x', 'spec.bogus=1', 'metadata.name', '=', 'a=b=c', 'metadata.name=a\\,b', 'metadata.name=\\', ',', 'status.phase=Running', 'type=Opaque', 'metadata.name in (a)']);
  }
  return r.pick(['app=web', 'app!=web', 'app in (web,db)', 'app notin (x)', 'app', '!app', 'tier=a,app=web', 'app in (', '!!', '=', 'a==b', 'a=' + 'x'.repeat(64), 'x'.repeat(300) + '=a', 'orch.io/x=y', 'app in ()', 'é=1', 'a > 1', 'a<1', 'app=web,,']);
}

const readParams = (r: Random): Param[] => [
  ['resourceVersion', () => r.pick(['0', '', '1', 'abc', '-1', '99999999999999999999', '18446744073709551615', '1e3', ' ', '0x1'])],
  ['pretty', () => boolValue(r)],
];

const listParams = (r: Random): Param[] => [
  ...readParams(r),
  ['limit', () => intValue(r, () => String(r.range(1, 20)))],
  ['continue', () => continueToken(r)],
  ['labelSelector', () => selector(r, false)],
  ['fieldSelector', () => selector(r, true)],
  ['resourceVersionMatch', () => r.pick(['NotOlderThan', 'Exact', '', 'exact', 'Bogus'])],
  ['timeoutSeconds', () => intValue(r, () => String(r.range(1, 5)))],
  ['allowWatchBookmarks', () => boolValue(r)],
  ['sendInitialEvents', () => boolValue(r)],
  ['watch', () => boolValue(r)],
];

const writeParams = (r: Random): Param[] => [
  ['dryRun', () => r.pick(['All', 'All', '', 'all', 'None', 'bogus'])],
  ['fieldManager', () => r.pick(['fuzz', '', 'x'.repeat(128), 'x'.repeat(129), 'é', 'a\tb', 'kubectl-client-side-apply', '\u0001'])],
  ['fieldValidation', () => r.pick(['Strict', 'Warn', 'Ignore', '', 'strict', 'bogus'])],
  ['pretty', () => boolValue(r)],
];

const deleteParams = (r: Random): Param[] => [
  ['dryRun', () => r.pick(['All', '', 'bogus'])],
  ['gracePeriodSeconds', () => intValue(r, () => String(r.range(0, 30)))],
  ['propagationPolicy', () => r.pick(['Orphan', 'Foreground', 'Background', '', 'orphan', 'Bogus'])],
  ['orphanDependents', () => boolValue(r)],
];

function paramsFor(verb: Verb, r: Random): Param[] {
  switch (verb) {
    case 'get':
      return readParams(r);
    case 'list':
    case 'watch':
      return listParams(r);
    case 'create':
    case 'update':
      return writeParams(r);
    case 'patch':
      return [...writeParams(r), ['force', () => boolValue(r)]];
    case 'delete':
      return deleteParams(r);
    case 'deletecollection':
      return [...deleteParams(r), ...listParams(r)];
  }
}

function encodeKey(k: string, r: Random): string {
  return r.chance(0.05) ? k.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`) : k;
}

function encodeValue(v: string, r: Random): string {
  if (r.chance(0.05)) return v.replace(/ /g, '+');
  return encodeURIComponent(v);
}

/**
 * The query string (without `?`) for a verb. `bad` brings in wrong values, repeats and odd keys;
 * `base` are parameters the request needs (e.g. watch=1, fieldManager for apply) and comes first.
 */
export function queryFor(verb: Verb, r: Random, bad: boolean, base: [string, string][] = []): { query: string; note: string } {
  const pairs: string[] = base.map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  const notes: string[] = [];
  const params = paramsFor(verb, r);
  const n = bad ? r.range(1, 4) : r.weighted([
    [3, 0],
    [1, 1],
  ]);
  for (let i = 0; i < n; i++) {
    const [k, gen] = r.pick(params);
    const v = gen();
    pairs.push(`${encodeKey(k, r)}=${encodeValue(v, r)}`);
    notes.push(k);
    if (bad && r.chance(0.15)) {
      pairs.push(`${k}=${encodeValue(gen(), r)}`);
      notes.push(`${k} repeated`);
    }
  }
  if (bad && r.chance(0.2)) {
    pairs.push(
      r.pick(['unknown=1', '=', '&&', 'a', '%zz=1', 'limit=%zz', 'x=%', 'watch=%00', 'labelSelector=%C0%AF', `long=${'x'.repeat(r.pick([1000, 10_000, 100_000]))}`, 'a[]=1', 'a.b=c', ';=;']),
    );
    notes.push('odd pair');
  }
  return { query: pairs.join('&'), note: notes.join(', ') };
}
