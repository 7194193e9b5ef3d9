/**
 * Document 1, "Field ownership under apply": one scenario per row of the table, plus the notes
 * under it (a shared field cannot be changed by one sharer; managers owning nothing disappear).
 */
import type { Scenario } from '../scenario-runner.js';

const replicas = { 'f:spec': { 'f:replicas': {} } };

export const ownershipTable: Scenario[] = [
  {
    name: 'owned by A, apply by B with a different value, no force: conflict, ownership unchanged',
    steps: [
      { manager: 'a', apply: { spec: { replicas: 3 } }, expect: { object: { spec: { replicas: 3 } }, managedFields: [{ manager: 'a', operation: 'Apply', fields: replicas }] } },
      {
        manager: 'b',
        apply: { spec: { replicas: 5 } },
        expect: {
          status: 409,
          message: 'Apply failed with 1 conflict: conflict with "a": .spec.replicas',
          conflicts: [['conflict with "a"', '.spec.replicas']],
          object: { spec: { replicas: 3 } },
          managedFields: [{ manager: 'a', operation: 'Apply', fields: replicas }],
        },
      },
    ],
  },
  {
    name: 'owned by A (and C), apply by B with force: B is the only owner, the field leaves every other entry',
    steps: [
      { manager: 'a', apply: { spec: { replicas: 3, paused: true } } },
      { manager: 'c', apply: { spec: { replicas: 3 } } },
      {
        manager: 'b',
        force: true,
        apply: { spec: { replicas: 5 } },
        expect: {
          object: { spec: { replicas: 5, paused: true } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:paused': {} } } },
            { manager: 'b', operation: 'Apply', fields: replicas },
          ],
        },
      },
    ],
  },
  {
    name: 'owned by A, apply by B with the live value: A and B share it',
    steps: [
      { manager: 'a', apply: { spec: { replicas: 3 } } },
      {
        manager: 'b',
        apply: { spec: { replicas: 3 } },
        expect: {
          object: { spec: { replicas: 3 } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: replicas },
            { manager: 'b', operation: 'Apply', fields: replicas },
          ],
        },
      },
    ],
  },
  {
    name: 'owned by A and B, B applies without it: A stays owner, value unchanged',
    steps: [
      { manager: 'a', apply: { spec: { replicas: 3 } } },
      { manager: 'b', apply: { spec: { replicas: 3, settings: { b: '1' } } } },
      {
        manager: 'b',
        apply: { spec: { settings: { b: '1' } } },
        expect: {
          object: { spec: { replicas: 3, settings: { b: '1' } } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: replicas },
            { manager: 'b', operation: 'Apply', fields: { 'f:spec': { 'f:settings': { 'f:b': {} } } } },
          ],
        },
      },
    ],
  },
  {
    name: 'owned by A alone, A applies without it: the field is removed from the live object',
    steps: [
      { manager: 'a', apply: { spec: { settings: { x: '1', y: '2' }, tags: ['t1', 't2'] } } },
      {
        manager: 'a',
        apply: { spec: { settings: { x: '1' }, tags: ['t1'] } },
        expect: {
          object: { spec: { replicas: 1, settings: { x: '1' }, tags: ['t1'] } },
          managedFields: [{ manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:settings': { 'f:x': {} }, 'f:tags': { 'v:"t1"': {} } } } }],
        },
      },
    ],
  },
  {
    name: 'owned by A alone, A applies without a defaulted field: removed, then reset to its default',
    steps: [
      { manager: 'a', apply: { spec: { replicas: 4, paused: true } }, expect: { object: { spec: { replicas: 4, paused: true } } } },
      {
        manager: 'a',
        apply: { spec: { paused: true } },
        expect: {
          object: { spec: { replicas: 1, paused: true } },
          managedFields: [{ manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:paused': {} } } }],
        },
      },
    ],
  },
  {
    name: 'owned by A and another manager, A applies without it: the field stays',
    steps: [
      { manager: 'a', apply: { spec: { replicas: 4, paused: true } } },
      { manager: 'b', apply: { spec: { replicas: 4 } } },
      {
        manager: 'a',
        apply: { spec: { paused: true } },
        expect: {
          object: { spec: { replicas: 4, paused: true } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:paused': {} } } },
            { manager: 'b', operation: 'Apply', fields: replicas },
          ],
        },
      },
    ],
  },
  {
    name: 'owned by A, a merge patch by B changes it: B becomes the manager without a conflict, A (owning nothing more) disappears',
    steps: [
      { manager: 'a', apply: { spec: { replicas: 3 } } },
      {
        manager: 'b',
        mergePatch: { spec: { replicas: 7 } },
        expect: { object: { spec: { replicas: 7 } }, managedFields: [{ manager: 'b', operation: 'Update', fields: replicas }] },
      },
    ],
  },
  {
    name: 'owned by A, a PUT by B changes it: B becomes the manager; A keeps what B left alone',
    steps: [
      { manager: 'a', apply: { spec: { replicas: 3, paused: true } } },
      {
        manager: 'b',
        update: { spec: { replicas: 8, paused: true } },
        expect: {
          object: { spec: { replicas: 8, paused: true } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:paused': {} } } },
            { manager: 'b', operation: 'Update', fields: replicas },
          ],
        },
      },
    ],
  },
  {
    name: 'created by B (POST): B owns what it set; an apply by A with other values conflicts with the updater',
    steps: [
      {
        manager: 'b',
        create: { spec: { replicas: 2, settings: { k: 'v' } } },
        expect: {
          managedFields: [{ manager: 'b', operation: 'Update', fields: { 'f:spec': { 'f:replicas': {}, 'f:settings': { '.': {}, 'f:k': {} } } } }],
        },
      },
      {
        manager: 'a',
        apply: { spec: { replicas: 6 } },
        expect: {
          status: 409,
          message: 'Apply failed with 1 conflict: conflict with "b" using apply.example.com/v1: .spec.replicas',
          conflicts: [['conflict with "b" using apply.example.com/v1', '.spec.replicas']],
        },
      },
    ],
  },
  {
    name: 'a field shared by A and B cannot be changed by A alone',
    steps: [
      { manager: 'a', apply: { spec: { replicas: 3 } } },
      { manager: 'b', apply: { spec: { replicas: 3 } } },
      { manager: 'a', apply: { spec: { replicas: 4 } }, expect: { status: 409, conflicts: [['conflict with "b"', '.spec.replicas']] } },
    ],
  },
];
