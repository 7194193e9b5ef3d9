/**
 * fieldValidation=Strict|Warn|Ignore (default Warn) for every write: create and update in JSON and
 * YAML, each patch type, the status subresource and the /scale view. Each request carries unknown
 * and repeated fields; Strict must fail with every problem named and change nothing, Warn must
 * succeed with one Warning per problem (in Kubernetes' order), Ignore must be silent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';
import { expectStatus, warningsOf } from '../rest/fixtures.js';
import { GROUP, JSONPATCH, MERGE, PATCH_TEST_RESOURCES, RIGS, rig, SMP } from './fixtures.js';

const jsonBody = (name: string): string => `{
  "apiVersion": "${GROUP}/v1",
  "kind": "Rig",
  "metadata": {"name": "${name}", "labels": {"app": "x", "app": "y"}},
  "spec": {
    "unknown1": "v",
    "unknownDupe": "a",
    "unknownDupe": "b",
    "paused": true,
    "paused": false,
    "containers": [{"name": "web", "image": "nginx", "unknownNested": "v", "image": "nginx:2"}]
  }
}`;

const yamlBody = (name: string): string => `apiVersion: ${GROUP}/v1
kind: Rig
metadata:
  name: ${name}
  labels:
    app: x
    app: y
spec:
  unknown1: v
  unknownDupe: a
  unknownDupe: b
  paused: true
  paused: false
  containers:
  - name: web
    image: nginx
    unknownNested: v
    image: nginx:2
`;

/** What Kubernetes reports for the JSON body, in document order (an unknown field repeated is reported once, as unknown). */
const JSON_PROBLEMS = [
  'duplicate field "metadata.labels.app"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  'unknown field "spec.containers[0].unknownNested"',
  'duplicate field "spec.containers[0].image"',
];

/** YAML: the repeated keys of every mapping as one YAML error, then unknown fields in sorted-key order. */
const YAML_DUPLICATES = [
  'line 7: key "app" already set in map',
  'line 11: key "unknownDupe" already set in map',
  'line 13: key "paused" already set in map',
  'line 18: key "image" already set in map',
];
const YAML_UNKNOWN = ['unknown field "spec.containers[0].unknownNested"', 'unknown field "spec.unknown1"', 'unknown field "spec.unknownDupe"'];

const patchBody = `{
  "metadata": {"labels": {"x": "1", "x": "2"}},
  "spec": {
    "unknown1": "v",
    "unknownDupe": "a",
    "unknownDupe": "b",
    "paused": true,
    "paused": false,
    "strategy-x": 1,
    "strategy": {"zzz": 1},
    "containers": [{"name": "web", "unknownNested": "v", "image": "a", "image": "b"}]
  }
}`;

const PATCH_DUPLICATES = ['duplicate field "metadata.labels.x"', 'duplicate field "spec.unknownDupe"', 'duplicate field "spec.paused"', 'duplicate field "spec.containers[0].image"'];

const jsonPatchBody = `[
  {"op": "add", "path": "/spec/unknown1", "value": "v", "foo": 1},
  {"op": "add", "path": "/spec/paused", "path": "/spec/paused", "value": true},
  {"op": "add", "path": "/metadata/labels", "value": {"k": "1", "k": "2"}}
]`;

interface Write {
  name: string;
  /** Sends the write for the object `name` (created beforehand unless `creates`). */
  send(s: TestServer, name: string, query: string): Promise<Reply>;
  creates?: boolean;
  /** The problems, in order, as Warn reports them. */
  warnings: string[];
  /** How Strict fails. */
  strict: { code: number; reason: string; message: (name: string) => string | RegExp };
  /** Checks the object after a write that succeeded (Warn, Ignore). */
  written?: (obj: any) => void;
}

const strictBody = (kind: string, problems: string[]): ((name: string) => string) => () => `${kind} in version "v1" cannot be handled as a ${kind}: strict decoding error: ${problems.join(', ')}`;
const yamlStrict = `yaml: unmarshal errors:\n${YAML_DUPLICATES.map((l) => `  ${l}`).join('\n')}`;
/** Strict on a patch: 422 naming `patch`, its value the patched object (or the patch) and then the problems. */
const strictPatch = (problems: string[]): (() => RegExp) => () =>
  new RegExp(`^ "" is invalid: patch: Invalid value: ".*": ${escape(`strict decoding error: ${problems.join(', ')}`)}$`, 's');
function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const lastWins = (obj: any): void => {
  expect(obj.metadata.labels).toEqual({ app: 'y' });
  expect(obj.spec.containers[0].image).toBe('nginx:2');
  expect(obj.spec.paused).toBeUndefined();
};

const WRITES: Write[] = [
  {
    name: 'create (JSON)',
    creates: true,
    send: (s, name, q) => s.post(`${RIGS}${q}`, jsonBody(name)),
    warnings: JSON_PROBLEMS,
    strict: { code: 400, reason: 'BadRequest', message: strictBody('Rig', JSON_PROBLEMS) },
    written: lastWins,
  },
  {
    name: 'create (YAML)',
    creates: true,
    send: (s, name, q) => s.post(`${RIGS}${q}`, yamlBody(name), { contentType: 'application/yaml' }),
    warnings: [...YAML_DUPLICATES, ...YAML_UNKNOWN],
    strict: { code: 400, reason: 'BadRequest', message: strictBody('Rig', [yamlStrict, ...YAML_UNKNOWN]) },
    written: lastWins,
  },
  {
    name: 'update (JSON)',
    send: (s, name, q) => s.put(`${RIGS}/${name}${q}`, jsonBody(name)),
    warnings: JSON_PROBLEMS,
    strict: { code: 400, reason: 'BadRequest', message: strictBody('Rig', JSON_PROBLEMS) },
    written: lastWins,
  },
  {
    name: 'update (YAML)',
    send: (s, name, q) => s.put(`${RIGS}/${name}${q}`, yamlBody(name), { contentType: 'application/yaml' }),
    warnings: [...YAML_DUPLICATES, ...YAML_UNKNOWN],
    strict: { code: 400, reason: 'BadRequest', message: strictBody('Rig', [yamlStrict, ...YAML_UNKNOWN]) },
    written: lastWins,
  },
  {
    name: 'merge patch',
    send: (s, name, q) => s.patch(`${RIGS}/${name}${q}`, patchBody, MERGE),
    // The patch's repeats first, then the result's unknown fields in sorted-key order.
    warnings: [
      ...PATCH_DUPLICATES,
      'unknown field "spec.containers[0].unknownNested"',
      'unknown field "spec.strategy.zzz"',
      'unknown field "spec.strategy-x"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
    ],
    strict: {
      code: 422,
      reason: 'Invalid',
      message: strictPatch([
        ...PATCH_DUPLICATES,
        'unknown field "spec.containers[0].unknownNested"',
        'unknown field "spec.strategy.zzz"',
        'unknown field "spec.strategy-x"',
        'unknown field "spec.unknown1"',
        'unknown field "spec.unknownDupe"',
      ]),
    },
    written: (obj) => {
      expect(obj.metadata.labels).toEqual({ x: '2' });
      expect(obj.spec.containers).toEqual([{ name: 'web', image: 'b' }]);
    },
  },
  {
    name: 'strategic merge patch',
    send: (s, name, q) => s.patch(`${RIGS}/${name}${q}`, patchBody, SMP),
    // Unknown fields sorted as text, which puts "strategy-x" before "strategy.zzz".
    warnings: [
      ...PATCH_DUPLICATES,
      'unknown field "spec.containers[0].unknownNested"',
      'unknown field "spec.strategy-x"',
      'unknown field "spec.strategy.zzz"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
    ],
    strict: {
      code: 422,
      reason: 'Invalid',
      message: strictPatch([
        ...PATCH_DUPLICATES,
        'unknown field "spec.containers[0].unknownNested"',
        'unknown field "spec.strategy-x"',
        'unknown field "spec.strategy.zzz"',
        'unknown field "spec.unknown1"',
        'unknown field "spec.unknownDupe"',
      ]),
    },
    written: (obj) => {
      expect(obj.metadata.labels).toMatchObject({ x: '2' });
      expect(obj.spec.containers.map((c: any) => [c.name, c.image])).toEqual([
        ['web', 'b'],
        ['side', 'busybox'],
      ]);
    },
  },
  {
    name: 'JSON patch',
    send: (s, name, q) => s.patch(`${RIGS}/${name}${q}`, jsonPatchBody, JSONPATCH),
    warnings: ['json patch unknown field "[0].foo"', 'json patch duplicate field "[1].path"', 'json patch duplicate field "[2].value.k"', 'unknown field "spec.unknown1"'],
    strict: {
      code: 422,
      reason: 'Invalid',
      message: strictPatch(['json patch unknown field "[0].foo"', 'json patch duplicate field "[1].path"', 'json patch duplicate field "[2].value.k"', 'unknown field "spec.unknown1"']),
    },
    written: (obj) => {
      expect(obj.spec.paused).toBe(true);
      expect(obj.metadata.labels).toEqual({ k: '2' });
    },
  },
  {
    name: 'update of the status subresource',
    send: (s, name, q) => s.put(`${RIGS}/${name}/status${q}`, `{"metadata": {"name": "${name}"}, "spec": {}, "status": {"replicas": 1, "replicas": 3, "bogus": true}}`),
    warnings: ['duplicate field "status.replicas"', 'unknown field "status.bogus"'],
    strict: { code: 400, reason: 'BadRequest', message: strictBody('Rig', ['duplicate field "status.replicas"', 'unknown field "status.bogus"']) },
    written: (obj) => expect(obj.status.replicas).toBe(3),
  },
  {
    name: 'strategic merge patch of the status subresource',
    send: (s, name, q) => s.patch(`${RIGS}/${name}/status${q}`, '{"status": {"conditions": [{"type": "Ready", "status": "True", "status": "False", "why": "x"}]}}', SMP),
    warnings: ['duplicate field "status.conditions[0].status"', 'unknown field "status.conditions[0].why"'],
    strict: { code: 422, reason: 'Invalid', message: strictPatch(['duplicate field "status.conditions[0].status"', 'unknown field "status.conditions[0].why"']) },
    written: (obj) => expect(obj.status.conditions).toEqual([{ type: 'Ready', status: 'False' }]),
  },
  {
    name: 'update of the scale view',
    send: (s, name, q) => s.put(`${RIGS}/${name}/scale${q}`, `{"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": {"name": "${name}"}, "spec": {"replicas": 3, "replicas": 4, "bogus": 1}}`),
    warnings: ['duplicate field "spec.replicas"', 'unknown field "spec.bogus"'],
    strict: { code: 400, reason: 'BadRequest', message: strictBody('Scale', ['duplicate field "spec.replicas"', 'unknown field "spec.bogus"']) },
    written: (scale) => expect(scale.spec.replicas).toBe(4),
  },
  {
    name: 'merge patch of the scale view',
    send: (s, name, q) => s.patch(`${RIGS}/${name}/scale${q}`, '{"spec": {"replicas": 6, "replicas": 7, "bogus": 1}}', MERGE),
    warnings: ['duplicate field "spec.replicas"', 'unknown field "spec.bogus"'],
    strict: { code: 422, reason: 'Invalid', message: strictPatch(['duplicate field "spec.replicas"', 'unknown field "spec.bogus"']) },
    written: (scale) => expect(scale.spec.replicas).toBe(7),
  },
  {
    name: 'unknown $ directives in a strategic merge patch',
    send: (s, name, q) => s.patch(`${RIGS}/${name}${q}`, '{"spec": {"$foo": 1, "strategy": {"$bar": [1]}}, "$patch2": "x"}', SMP),
    warnings: ['unknown field "$patch2"', 'unknown field "spec.$foo"', 'unknown field "spec.strategy.$bar"'],
    strict: { code: 422, reason: 'Invalid', message: strictPatch(['unknown field "$patch2"', 'unknown field "spec.$foo"', 'unknown field "spec.strategy.$bar"']) },
  },
  {
    name: 'strategic merge directives in a merge patch',
    send: (s, name, q) => s.patch(`${RIGS}/${name}${q}`, '{"spec": {"$retainKeys": ["type"], "containers": [{"name": "web", "$patch": "delete"}]}}', MERGE),
    warnings: ['unknown field "spec.$retainKeys"', 'unknown field "spec.containers[0].$patch"'],
    strict: { code: 422, reason: 'Invalid', message: strictPatch(['unknown field "spec.$retainKeys"', 'unknown field "spec.containers[0].$patch"']) },
  },
];

const MODES = [
  { mode: 'Strict', query: '?fieldValidation=Strict' },
  { mode: 'Warn', query: '?fieldValidation=Warn' },
  { mode: 'Ignore', query: '?fieldValidation=Ignore' },
  { mode: 'default (Warn)', query: '' },
] as const;

describe('field validation', () => {
  let s: TestServer;
  let seq = 0;
  beforeAll(async () => {
    s = await startTestServer({ resources: PATCH_TEST_RESOURCES });
  });
  afterAll(() => s.close());

  const cases = WRITES.flatMap((w) => MODES.map((m) => [`${w.name}, ${m.mode}`, w, m] as const));

  it.each(cases)('%s', async (_, w, m) => {
    const name = `fv-${seq++}`;
    let before: any;
    if (!w.creates) {
      const r = await s.post(RIGS, rig(name));
      expect(r.status, r.text).toBe(201);
      before = r.body;
    }
    const r = await w.send(s, name, m.query);
    const stored = await s.get(`${RIGS}/${name}`);
    if (m.mode === 'Strict') {
      const st = expectStatus(r, w.strict.code, w.strict.reason);
      const want = w.strict.message(name);
      if (typeof want === 'string') expect(st.message).toBe(want);
      else expect(st.message).toMatch(want);
      if (w.strict.code === 422) expect(st.details.causes).toEqual([expect.objectContaining({ reason: 'FieldValueInvalid', field: 'patch' })]);
      expect(warningsOf(r)).toEqual([]);
      // Nothing changed.
      if (w.creates) expect(stored.status).toBe(404);
      else expect(stored.body).toEqual(before);
      return;
    }
    expect(r.status, r.text).toBeLessThan(300);
    expect(warningsOf(r)).toEqual(m.mode === 'Ignore' ? [] : w.warnings);
    w.written?.(r.body);
  });
});
