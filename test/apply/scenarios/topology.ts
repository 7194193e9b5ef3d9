/**
 * Topology changes (document 1): ownership recorded under an older schema, seeded here through a
 * PUT that carries managedFields (allowed on the main resource), meets the current schema.
 * granular → atomic: owning a part becomes owning the whole, so others conflict on the whole.
 * atomic → granular: the owner of the whole keeps it, and changes inside do not conflict with it.
 */
import type { Scenario } from '../scenario-runner.js';

const seeded = (fieldsV1: Record<string, unknown>) => [{ manager: 'old', operation: 'Apply', apiVersion: 'apply.example.com/v1', fieldsType: 'FieldsV1', fieldsV1 }];

export const topology: Scenario[] = [
  {
    name: 'a field that became atomic: the owner of a part owns the whole, and others conflict on the whole',
    steps: [
      { manager: 'seed', create: { spec: { selector: { app: 'x' } } } },
      {
        manager: 'seed',
        update: { metadata: { managedFields: seeded({ 'f:spec': { 'f:selector': { 'f:app': {} } } }) }, spec: { selector: { app: 'x' } } },
        expect: { managedFields: [{ manager: 'old', operation: 'Apply', fields: { 'f:spec': { 'f:selector': {} } } }] },
      },
      {
        manager: 'new',
        apply: { spec: { selector: { app: 'x', tier: 'y' } } },
        expect: { status: 409, conflicts: [['conflict with "old"', '.spec.selector']] },
      },
    ],
  },
  {
    name: 'a field that became granular: the owner keeps the whole; changes inside it do not conflict',
    steps: [
      { manager: 'seed', create: { spec: { config: { mode: 'm', level: 1 } } } },
      {
        manager: 'seed',
        update: { metadata: { managedFields: seeded({ 'f:spec': { 'f:config': {} } }) }, spec: { config: { mode: 'm', level: 1 } } },
        expect: { managedFields: [{ manager: 'old', operation: 'Apply', fields: { 'f:spec': { 'f:config': {} } } }] },
      },
      {
        manager: 'new',
        apply: { spec: { config: { mode: 'n' } } },
        expect: {
          object: { spec: { replicas: 1, config: { mode: 'n', level: 1 } } },
          managedFields: [
            { manager: 'new', operation: 'Apply', fields: { 'f:spec': { 'f:config': { 'f:mode': {} } } } },
            { manager: 'old', operation: 'Apply', fields: { 'f:spec': { 'f:config': {} } } },
          ],
        },
      },
    ],
  },
];
