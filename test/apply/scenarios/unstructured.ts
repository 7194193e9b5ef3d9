/**
 * Objects without a schema (a spec with preserveUnknownFields): every key behaves as a struct
 * field (granular), every list is atomic.
 */
import type { Scenario } from '../scenario-runner.js';

export const unstructured: Scenario[] = [
  {
    name: 'untyped maps merge by key, lists are owned whole, dropped keys go',
    resource: 'looses',
    steps: [
      {
        manager: 'a',
        apply: { spec: { a: { x: 1, y: 'keep' }, list: [1, 2] } },
        expect: { managedFields: [{ manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:a': { '.': {}, 'f:x': {}, 'f:y': {} }, 'f:list': {} } } }] },
      },
      {
        manager: 'b',
        apply: { spec: { a: { z: true }, items: [{ name: 'n' }] } },
        expect: {
          object: { spec: { a: { x: 1, y: 'keep', z: true }, list: [1, 2], items: [{ name: 'n' }] } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:a': { '.': {}, 'f:x': {}, 'f:y': {} }, 'f:list': {} } } },
            { manager: 'b', operation: 'Apply', fields: { 'f:spec': { 'f:a': { '.': {}, 'f:z': {} }, 'f:items': {} } } },
          ],
        },
      },
      { manager: 'b', apply: { spec: { list: [3] } }, expect: { status: 409, conflicts: [['conflict with "a"', '.spec.list']] } },
      { manager: 'a', apply: { spec: { a: { y: 'keep' } } }, expect: { object: { spec: { a: { y: 'keep', z: true }, items: [{ name: 'n' }] } } } },
    ],
  },
];
