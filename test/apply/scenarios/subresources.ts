/**
 * Writes to /status: entries record the subresource; apply to /status owns status only, apply to
 * the main resource owns no status; conflicts name the subresource.
 */
import type { Scenario } from '../scenario-runner.js';

export const subresources: Scenario[] = [
  {
    name: 'apply to /status and to the main resource: separate entries, each owning its part',
    steps: [
      { manager: 'ctl', apply: { spec: { replicas: 2 } } },
      {
        manager: 'ctl',
        subresource: 'status',
        apply: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
        expect: {
          object: { spec: { replicas: 2 }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
          managedFields: [
            { manager: 'ctl', operation: 'Apply', fields: { 'f:spec': { 'f:replicas': {} } } },
            {
              manager: 'ctl',
              operation: 'Apply',
              subresource: 'status',
              fields: { 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:status': {}, 'f:type': {} } }, 'f:phase': {} } },
            },
          ],
        },
      },
    ],
  },
  {
    name: 'apply to the main resource does not set or own status; apply to /status does not set or own spec',
    steps: [
      {
        manager: 'a',
        apply: { spec: { replicas: 2 }, status: { phase: 'Ignored' } },
        expect: { object: { spec: { replicas: 2 }, status: {} }, managedFields: [{ manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:replicas': {} } } }] },
      },
      {
        manager: 's',
        subresource: 'status',
        apply: { spec: { replicas: 9 }, status: { phase: 'Up' } },
        expect: {
          object: { spec: { replicas: 2 }, status: { phase: 'Up' } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:replicas': {} } } },
            { manager: 's', operation: 'Apply', subresource: 'status', fields: { 'f:status': { 'f:phase': {} } } },
          ],
        },
      },
    ],
  },
  {
    name: 'status appliers conflict with each other, naming the subresource; condition items are owned one by one',
    steps: [
      { manager: 'a', apply: { spec: {} } },
      { manager: 'one', subresource: 'status', apply: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } } },
      { manager: 'two', subresource: 'status', apply: { status: { conditions: [{ type: 'Synced', status: 'True' }] } } },
      {
        manager: 'two',
        subresource: 'status',
        apply: { status: { phase: 'Failed' } },
        expect: {
          status: 409,
          message: 'Apply failed with 1 conflict: conflict with "one" with subresource "status": .status.phase',
          conflicts: [['conflict with "one" with subresource "status"', '.status.phase']],
          object: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }, { type: 'Synced', status: 'True' }] } },
        },
      },
    ],
  },
  {
    name: 'a merge patch to /status records an Update entry with the subresource; a later status apply conflicts with it',
    steps: [
      { manager: 'a', apply: { spec: { replicas: 1 } } },
      {
        manager: 'ctrl',
        subresource: 'status',
        mergePatch: { status: { observed: 4 }, spec: { replicas: 50 } },
        expect: {
          object: { spec: { replicas: 1 }, status: { observed: 4 } },
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:replicas': {} } } },
            { manager: 'ctrl', operation: 'Update', subresource: 'status', fields: { 'f:status': { 'f:observed': {} } } },
          ],
        },
      },
      {
        manager: 'b',
        subresource: 'status',
        apply: { status: { observed: 5 } },
        expect: { status: 409, conflicts: [['conflict with "ctrl" with subresource "status" using apply.example.com/v1', '.status.observed']] },
      },
    ],
  },
  {
    name: 'a PUT to /status ignores managedFields it carries: the live ones stay the starting point',
    steps: [
      { manager: 'a', apply: { spec: { replicas: 3 } } },
      {
        manager: 'ctrl',
        subresource: 'status',
        update: { metadata: { managedFields: [{}] }, spec: { replicas: 3 }, status: { phase: 'Done' } },
        expect: {
          managedFields: [
            { manager: 'a', operation: 'Apply', fields: { 'f:spec': { 'f:replicas': {} } } },
            { manager: 'ctrl', operation: 'Update', subresource: 'status', fields: { 'f:status': { 'f:phase': {} } } },
          ],
        },
      },
    ],
  },
];
