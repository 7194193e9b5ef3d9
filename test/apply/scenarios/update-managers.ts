/**
 * Update entries: a manager's updates accumulate, removals leave nobody owning, names come from
 * the User-Agent when no fieldManager is sent, and at most ten Update entries are kept (the oldest
 * merge into `ancient-changes`). Apply entries never count toward the cap.
 */
import type { ExpectedEntry, Scenario, Step } from '../scenario-runner.js';

const eleven: Step[] = Array.from({ length: 11 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0');
  return { manager: `m${n}`, mergePatch: { spec: { settings: { [`k${n}`]: 'v' } } } };
});

const keepsTen: ExpectedEntry[] = [
  { manager: 'owner', operation: 'Apply', fields: { 'f:spec': { 'f:replicas': {} } } },
  { manager: 'ancient-changes', operation: 'Update', fields: { 'f:spec': { 'f:settings': { '.': {}, 'f:k01': {}, 'f:k02': {} } } } },
  ...Array.from({ length: 9 }, (_, i): ExpectedEntry => {
    const n = String(i + 3).padStart(2, '0');
    return { manager: `m${n}`, operation: 'Update', fields: { 'f:spec': { 'f:settings': { [`f:k${n}`]: {} } } } };
  }),
];

export const updateManagers: Scenario[] = [
  {
    name: "a manager's updates accumulate in one entry",
    steps: [
      { manager: 'u', create: { spec: { replicas: 2 } } },
      { manager: 'u', mergePatch: { spec: { paused: true } } },
      {
        manager: 'u',
        jsonPatch: [{ op: 'add', path: '/spec/tags', value: ['t'] }],
        expect: { managedFields: [{ manager: 'u', operation: 'Update', fields: { 'f:spec': { 'f:paused': {}, 'f:replicas': {}, 'f:tags': { '.': {}, 'v:"t"': {} } } } }] },
      },
    ],
  },
  {
    name: 'removing a field by update leaves nobody owning it; managers owning nothing disappear',
    steps: [
      { manager: 'a', apply: { spec: { settings: { a: '1' } } } },
      { manager: 'b', mergePatch: { spec: { settings: { a: null } } }, expect: { object: { spec: { replicas: 1 } }, managedFields: [] } },
    ],
  },
  {
    name: 'without fieldManager the User-Agent names the manager; a bare agent is used whole',
    steps: [
      { userAgent: 'kubectl/v1.27.3 (linux/amd64) kubernetes/abc', create: { spec: { replicas: 2 } } },
      {
        userAgent: 'curl',
        mergePatch: { spec: { paused: true } },
        expect: {
          managedFields: [
            { manager: 'curl', operation: 'Update', fields: { 'f:spec': { 'f:paused': {} } } },
            { manager: 'kubectl', operation: 'Update', fields: { 'f:spec': { 'f:replicas': {} } } },
          ],
        },
      },
    ],
  },
  {
    name: 'eleven update managers: the two oldest merge into ancient-changes',
    steps: [{ manager: 'owner', apply: { spec: { replicas: 3 } } }, ...eleven.slice(0, 10), { ...(eleven[10] as Step), expect: { managedFields: keepsTen } }],
  },
];
