/**
 * A custom resource's `/scale`: the object seen as an autoscaling/v1 Scale through the paths the
 * CRD names (specReplicasPath, statusReplicasPath, labelSelectorPath). A write sets only the spec
 * replicas path and is field-managed as that field of the parent, as for the built-in kinds.
 */
import { errors } from '../../../../machinery/errors.js';
import { fieldErr, FieldPath, type FieldError } from '../../../../machinery/field-errors.js';
import type { ViewSubresource } from '../../../../registry/define-resource.js';
import type { KubeObject } from '../../../../schema/index.js';
import { ScaleSchema, type Scale } from '../../../autoscaling/v1/scale.js';
import { scaleTable } from '../../../apps/v1/tables.js';
import { fieldPathOf } from './jsonpath.js';

interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

function read(obj: unknown, path: readonly string[] | undefined): unknown {
  let at = obj;
  for (const p of path ?? []) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[p] : undefined;
  return at;
}

export function customResourceScale(paths: ScalePaths, group: string, resource: string, _hasStatus: boolean): ViewSubresource {
  const spec = fieldPathOf(paths.specReplicasPath) ?? ['spec', 'replicas'];
  const status = fieldPathOf(paths.statusReplicasPath);
  const selector = paths.labelSelectorPath ? fieldPathOf(paths.labelSelectorPath) : undefined;
  return {
    kind: 'view',
    verbs: ['get', 'patch', 'update'],
    view: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
    schema: ScaleSchema,
    ownedField: { view: ['spec', 'replicas'], parent: spec },
    table: scaleTable,
    toView(parent) {
      const m = parent.metadata;
      const replicas = read(parent, spec);
      const statusReplicas = read(parent, status);
      const sel = read(parent, selector);
      return {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
        spec: typeof replicas === 'number' && replicas ? { replicas } : {},
        status: { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0, ...(typeof sel === 'string' && sel ? { selector: sel } : {}) },
      };
    },
    fromView(view, parent) {
      const scale = view as Scale;
      if (scale.metadata.uid && scale.metadata.uid !== parent.metadata.uid) {
        throw errors.conflict({ group, resource: `${resource}/scale` }, parent.metadata.name ?? '', `Precondition failed: UID in precondition: ${scale.metadata.uid}, UID in object meta: ${parent.metadata.uid ?? ''}`);
      }
      const next = structuredClone(parent) as KubeObject & Record<string, unknown>;
      let at: Record<string, unknown> = next;
      for (const p of spec.slice(0, -1)) {
        const child = at[p];
        at = (at[p] = typeof child === 'object' && child !== null ? child : {}) as Record<string, unknown>;
      }
      at[spec[spec.length - 1] as string] = scale.spec.replicas ?? 0;
      return next;
    },
    validateView(view) {
      const scale = view as Scale;
      const errs: FieldError[] = [];
      if (!scale.metadata.name) errs.push(fieldErr.required(FieldPath.root('metadata').child('name'), 'name or generateName is required'));
      const replicas = scale.spec.replicas ?? 0;
      if (replicas < 0) errs.push(fieldErr.invalid(FieldPath.root('spec').child('replicas'), replicas, 'must be greater than or equal to 0'));
      return errs;
    },
  };
}
