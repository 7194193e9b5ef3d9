/**
 * Writes through /scale (the test kind's view of spec.replicas, as Kubernetes' scale handler
 * keeps it): every write type records an entry with subresource "scale" on the parent, owning the
 * parent's spec.replicas at the parent's version; appliers of replicas on the main resource and
 * on /scale conflict with each other unless forced; the Scale's spec.replicas is owned, nothing
 * else of the parent is.
 */
import type { ExpectedEntry, Scenario } from '../scenario-runner.js';

const REPLICAS = { 'f:spec': { 'f:replicas': {} } };
const PAUSED = { 'f:spec': { 'f:paused': {} } };
const scaleEntry = (manager: string, operation: 'Apply' | 'Update'): ExpectedEntry => ({ manager, operation, subresource: 'scale', fields: REPLICAS });

export const scale: Scenario[] = [
  {
    name: 'apply to /scale with the same value shares spec.replicas with the main-resource applier',
    steps: [
      { manager: 'owner', apply: { spec: { replicas: 2, paused: true } } },
      {
        manager: 'scaler',
        subresource: 'scale',
        apply: { spec: { replicas: 2 } },
        expect: {
          object: { spec: { replicas: 2, paused: true } },
          managedFields: [{ manager: 'owner', operation: 'Apply', fields: { 'f:spec': { 'f:paused': {}, 'f:replicas': {} } } }, scaleEntry('scaler', 'Apply')],
        },
      },
    ],
  },
  {
    name: 'apply to /scale conflicts with the main-resource applier of spec.replicas; force takes it; and the other way round',
    steps: [
      { manager: 'owner', apply: { spec: { replicas: 2, paused: true } } },
      {
        manager: 'scaler',
        subresource: 'scale',
        apply: { spec: { replicas: 5 } },
        expect: {
          status: 409,
          message: 'Apply failed with 1 conflict: conflict with "owner": .spec.replicas',
          conflicts: [['conflict with "owner"', '.spec.replicas']],
        },
      },
      {
        manager: 'scaler',
        subresource: 'scale',
        force: true,
        apply: { spec: { replicas: 5 } },
        expect: {
          object: { spec: { replicas: 5, paused: true } },
          managedFields: [{ manager: 'owner', operation: 'Apply', fields: PAUSED }, scaleEntry('scaler', 'Apply')],
        },
      },
      {
        manager: 'owner',
        apply: { spec: { replicas: 2, paused: true } },
        expect: {
          status: 409,
          message: 'Apply failed with 1 conflict: conflict with "scaler" with subresource "scale": .spec.replicas',
          conflicts: [['conflict with "scaler" with subresource "scale"', '.spec.replicas']],
        },
      },
      {
        manager: 'owner',
        force: true,
        apply: { spec: { replicas: 2, paused: true } },
        expect: {
          object: { spec: { replicas: 2, paused: true } },
          managedFields: [{ manager: 'owner', operation: 'Apply', fields: { 'f:spec': { 'f:paused': {}, 'f:replicas': {} } } }],
        },
      },
    ],
  },
  {
    name: 'every non-apply write to /scale records an Update entry with subresource scale, taking spec.replicas from the last writer',
    steps: [
      { manager: 'owner', apply: { spec: { replicas: 2, paused: true } } },
      {
        manager: 'merge',
        subresource: 'scale',
        mergePatch: { spec: { replicas: 3 } },
        expect: { object: { spec: { replicas: 3, paused: true } }, managedFields: [{ manager: 'owner', operation: 'Apply', fields: PAUSED }, scaleEntry('merge', 'Update')] },
      },
      {
        manager: 'json',
        subresource: 'scale',
        jsonPatch: [{ op: 'replace', path: '/spec/replicas', value: 4 }],
        expect: { object: { spec: { replicas: 4, paused: true } }, managedFields: [{ manager: 'owner', operation: 'Apply', fields: PAUSED }, scaleEntry('json', 'Update')] },
      },
      {
        manager: 'smp',
        subresource: 'scale',
        strategicPatch: { spec: { replicas: 6 } },
        expect: { object: { spec: { replicas: 6, paused: true } }, managedFields: [{ manager: 'owner', operation: 'Apply', fields: PAUSED }, scaleEntry('smp', 'Update')] },
      },
      {
        manager: 'put',
        subresource: 'scale',
        update: { spec: { replicas: 7 } },
        expect: { object: { spec: { replicas: 7, paused: true } }, managedFields: [{ manager: 'owner', operation: 'Apply', fields: PAUSED }, scaleEntry('put', 'Update')] },
      },
      // The same value again changes nothing: the last writer stays the only owner.
      {
        manager: 'merge',
        subresource: 'scale',
        mergePatch: { spec: { replicas: 7 } },
        expect: { managedFields: [{ manager: 'owner', operation: 'Apply', fields: PAUSED }, scaleEntry('put', 'Update')] },
      },
      // An applier of /scale conflicts with the updater, naming it as the Scale sees it.
      {
        manager: 'scaler',
        subresource: 'scale',
        apply: { spec: { replicas: 1 } },
        expect: {
          status: 409,
          message: 'Apply failed with 1 conflict: conflict with "put" with subresource "scale" using autoscaling/v1: .spec.replicas',
          conflicts: [['conflict with "put" with subresource "scale" using autoscaling/v1', '.spec.replicas']],
        },
      },
    ],
  },
  {
    name: 'an applier of /scale that stops sending replicas: the Scale drops them (zero); its entry goes with its last field in the Scale',
    steps: [
      { manager: 'owner', apply: { spec: { paused: true } } },
      // Nobody owns the defaulted replicas, so the Scale has no entries: as in Kubernetes its first
      // apply meets what it held as before-first-apply, and must force a new value.
      {
        manager: 'scaler',
        subresource: 'scale',
        apply: { spec: { replicas: 4 } },
        expect: { status: 409, conflicts: [['conflict with "before-first-apply" with subresource "scale" using autoscaling/v1', '.spec.replicas']] },
      },
      {
        manager: 'scaler',
        subresource: 'scale',
        force: true,
        apply: { spec: { replicas: 4 } },
        expect: { object: { spec: { replicas: 4, paused: true } }, managedFields: [{ manager: 'owner', operation: 'Apply', fields: PAUSED }, scaleEntry('scaler', 'Apply')] },
      },
      // An empty spec: the Scale loses its replicas (zero on the parent), but the applier still has
      // an entry in the Scale (owning spec), so, as in Kubernetes, its parent entry stays as it was.
      {
        manager: 'scaler',
        subresource: 'scale',
        apply: { spec: {} },
        expect: { object: { spec: { replicas: 0, paused: true } }, managedFields: [{ manager: 'owner', operation: 'Apply', fields: PAUSED }, scaleEntry('scaler', 'Apply')] },
      },
      // Nothing at all: the applier owns nothing in the Scale, so the parent entry goes too.
      {
        manager: 'scaler',
        subresource: 'scale',
        apply: {},
        expect: { object: { spec: { replicas: 0, paused: true } }, managedFields: [{ manager: 'owner', operation: 'Apply', fields: PAUSED }] },
      },
    ],
  },
  {
    name: 'an untracked parent: updates through /scale stay untracked; an apply records what the Scale held as before-first-apply',
    steps: [
      { manager: 'owner', apply: { spec: { replicas: 2, paused: true } } },
      { manager: 'reset', mergePatch: { metadata: { managedFields: [{}] } }, expect: { managedFields: [] } },
      { manager: 'hpa', subresource: 'scale', mergePatch: { spec: { replicas: 3 } }, expect: { object: { spec: { replicas: 3, paused: true } }, managedFields: [] } },
      {
        manager: 'scaler',
        subresource: 'scale',
        apply: { spec: { replicas: 8 } },
        expect: {
          status: 409,
          message: 'Apply failed with 1 conflict: conflict with "before-first-apply" with subresource "scale" using autoscaling/v1: .spec.replicas',
        },
      },
      {
        manager: 'scaler',
        subresource: 'scale',
        apply: { spec: { replicas: 3 } },
        expect: { managedFields: [scaleEntry('before-first-apply', 'Update'), scaleEntry('scaler', 'Apply')] },
      },
    ],
  },
  {
    name: 'apply to /scale takes a Scale only, without managedFields, and needs the object to exist',
    steps: [
      { manager: 'owner', apply: { spec: { replicas: 2 } } },
      {
        manager: 'scaler',
        subresource: 'scale',
        apply: { apiVersion: 'apply.example.com/v1', kind: 'Marker', spec: { replicas: 2 } },
        expect: { status: 400, message: 'invalid object type: apply.example.com/v1, Kind=Marker' },
      },
      {
        manager: 'scaler',
        subresource: 'scale',
        apply: { metadata: { managedFields: [] }, spec: { replicas: 2 } },
        expect: { status: 400, message: 'metadata.managedFields must be nil' },
      },
      { subresource: 'scale', apply: { spec: { replicas: 2 } }, expect: { status: 422 } },
    ],
  },
];
