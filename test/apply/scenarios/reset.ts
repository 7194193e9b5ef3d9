/**
 * Resetting managedFields: a write setting them to one empty entry clears them before its own
 * changes are recorded; an empty list does not reset.
 */
import type { Scenario } from '../scenario-runner.js';

const setup = [
  { manager: 'a', apply: { spec: { replicas: 3, settings: { a: '1' } } } },
  { manager: 'b', mergePatch: { spec: { paused: true } } },
];

export const reset: Scenario[] = [
  {
    name: 'a merge patch setting managedFields to [{}] clears them',
    steps: [
      ...setup,
      {
        manager: 'c',
        mergePatch: { metadata: { managedFields: [{}] } },
        expect: { object: { spec: { replicas: 3, paused: true, settings: { a: '1' } } }, managedFields: [] },
      },
    ],
  },
  {
    name: 'a JSON patch replacing managedFields with [{}] clears them',
    steps: [...setup, { manager: 'c', jsonPatch: [{ op: 'replace', path: '/metadata/managedFields', value: [{}] }], expect: { managedFields: [] } }],
  },
  {
    name: 'the reset comes first: the same request owns what it changes',
    steps: [
      ...setup,
      {
        manager: 'c',
        mergePatch: { metadata: { managedFields: [{}] }, spec: { settings: { c: '3' } } },
        expect: { managedFields: [{ manager: 'c', operation: 'Update', fields: { 'f:spec': { 'f:settings': { 'f:c': {} } } } }] },
      },
      // Nobody owns replicas any more: a different value applies without a conflict.
      { manager: 'd', apply: { spec: { replicas: 9 } }, expect: { object: { spec: { replicas: 9, paused: true, settings: { a: '1', c: '3' } } } } },
    ],
  },
  {
    name: 'an empty list does not reset',
    steps: [
      ...setup,
      {
        manager: 'c',
        mergePatch: { metadata: { managedFields: [] } },
        expect: {
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:replicas': {}, 'f:settings': { 'f:a': {} } } } },
            { manager: 'b', operation: 'Update', fields: { 'f:spec': { 'f:paused': {} } } },
          ],
        },
      },
      {
        manager: 'c',
        jsonPatch: [{ op: 'replace', path: '/metadata/managedFields', value: [] }],
        expect: { managedFields: [{ manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:replicas': {}, 'f:settings': { 'f:a': {} } } } }, { manager: 'b', operation: 'Update', fields: { 'f:spec': { 'f:paused': {} } } }] },
      },
    ],
  },
  {
    name: 'after a bare reset nothing is tracked: updates record nothing, the first apply meets the object as before-first-apply',
    steps: [
      ...setup,
      { manager: 'c', mergePatch: { metadata: { managedFields: [{}] } }, expect: { managedFields: [] } },
      { manager: 'd', mergePatch: { spec: { tags: ['x'] } }, expect: { managedFields: [] } },
      {
        manager: 'e',
        apply: { spec: { replicas: 5 } },
        expect: { status: 409, conflicts: [['conflict with "before-first-apply" using apply.example.com/v1', '.spec.replicas']] },
      },
      {
        manager: 'e',
        apply: { spec: { replicas: 3 } },
        expect: {
          managedFields: [
            { manager: 'before-first-apply', operation: 'Update', fields: { 'f:spec': { 'f:paused': {}, 'f:replicas': {}, 'f:settings': { '.': {}, 'f:a': {} }, 'f:tags': { '.': {}, 'v:"x"': {} } } } },
            { manager: 'e', operation: 'Apply', fields: { 'f:spec': { 'f:replicas': {} } } },
          ],
        },
      },
    ],
  },
  {
    name: 'a PUT carrying [{}] resets too',
    steps: [...setup, { manager: 'c', update: { metadata: { managedFields: [{}] }, spec: { replicas: 3, paused: true, settings: { a: '1' } } }, expect: { managedFields: [] } }],
  },
];
