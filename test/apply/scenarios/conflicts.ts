/**
 * Conflicts between several managers: one cause per field, the message grouping fields by manager
 * (appliers by name, updaters with their version), and force taking every field from every owner.
 */
import type { Scenario } from '../scenario-runner.js';

const twoOwners = [
  { manager: 'a', apply: { spec: { replicas: 2, settings: { a: '1' } } } },
  { manager: 'b', apply: { spec: { paused: true, settings: { b: '1' } } } },
];

export const conflicts: Scenario[] = [
  {
    name: 'four conflicts with two appliers, listed by manager',
    steps: [
      ...twoOwners,
      {
        manager: 'c',
        apply: { spec: { replicas: 9, paused: false, settings: { a: 'x', b: 'y' } } },
        expect: {
          status: 409,
          message: 'Apply failed with 4 conflicts: conflicts with "a":\n- .spec.replicas\n- .spec.settings.a\nconflicts with "b":\n- .spec.paused\n- .spec.settings.b',
          conflicts: [
            ['conflict with "a"', '.spec.replicas'],
            ['conflict with "a"', '.spec.settings.a'],
            ['conflict with "b"', '.spec.paused'],
            ['conflict with "b"', '.spec.settings.b'],
          ],
        },
      },
    ],
  },
  {
    name: 'force takes the fields from every owner; owners left with nothing disappear',
    steps: [
      ...twoOwners,
      { manager: 'u', mergePatch: { spec: { settings: { u: '1' } } } },
      {
        manager: 'c',
        force: true,
        apply: { spec: { replicas: 9, paused: true, settings: { a: 'x', b: 'y' } } },
        expect: {
          object: { spec: { replicas: 9, paused: true, settings: { a: 'x', b: 'y', u: '1' } } },
          managedFields: [
            // b keeps paused: the same value is shared, not taken.
            { manager: 'b', operation: 'Apply', fields: { 'f:spec': { 'f:paused': {} } } },
            { manager: 'c', operation: 'Apply', fields: { 'f:spec': { 'f:paused': {}, 'f:replicas': {}, 'f:settings': { 'f:a': {}, 'f:b': {} } } } },
            { manager: 'u', operation: 'Update', fields: { 'f:spec': { 'f:settings': { 'f:u': {} } } } },
          ],
        },
      },
    ],
  },
  {
    name: 'conflicts with appliers and updaters together, updaters named with their version and subresource',
    steps: [
      { manager: 'a', apply: { spec: { replicas: 2 } } },
      { manager: 'patcher', mergePatch: { spec: { settings: { p: '1' } } } },
      { manager: 'statusbot', subresource: 'status', mergePatch: { status: { phase: 'Up' } } },
      {
        manager: 'z',
        apply: { spec: { replicas: 3, settings: { p: '2' } } },
        expect: {
          status: 409,
          message: 'Apply failed with 2 conflicts: conflicts with "a":\n- .spec.replicas\nconflicts with "patcher" using apply.example.com/v1:\n- .spec.settings.p',
          conflicts: [
            ['conflict with "a"', '.spec.replicas'],
            ['conflict with "patcher" using apply.example.com/v1', '.spec.settings.p'],
          ],
        },
      },
      {
        manager: 'z',
        subresource: 'status',
        apply: { status: { phase: 'Down' } },
        expect: {
          status: 409,
          message: 'Apply failed with 1 conflict: conflict with "statusbot" with subresource "status" using apply.example.com/v1: .status.phase',
          conflicts: [['conflict with "statusbot" with subresource "status" using apply.example.com/v1', '.status.phase']],
        },
      },
    ],
  },
  {
    name: 'updates never conflict, whoever owns the fields',
    steps: [
      ...twoOwners,
      {
        manager: 'u',
        update: { spec: { replicas: 5, paused: false, settings: { z: '1' } } },
        expect: {
          object: { spec: { replicas: 5, settings: { z: '1' } } },
          managedFields: [{ manager: 'u', operation: 'Update', fields: { 'f:spec': { 'f:replicas': {}, 'f:settings': { 'f:z': {} } } } }],
        },
      },
    ],
  },
];
