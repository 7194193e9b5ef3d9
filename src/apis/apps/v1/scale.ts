/**
 * `/scale` of the replicated kinds (Deployment, ReplicaSet, StatefulSet, ReplicationController): the parent seen as an autoscaling/v1
 * Scale. A write changes only spec.replicas and goes through the parent's own strategy, so it is
 * validated as the parent and bumps its generation.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { errors } from '../../../machinery/errors.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { labelSelectorFromStructured, type StructuredLabelSelector } from '../../../machinery/labels.js';
import type { ViewSubresource } from '../../../registry/define-resource.js';
import type { KubeObject, LabelSelector } from '../../../schema/index.js';
import { ScaleSchema, type Scale } from '../../autoscaling/v1/scale.js';
import { scaleTable } from './tables.js';

/** What a kind needs to be scalable. */
export interface Scalable extends KubeObject {
  spec: { replicas?: number; selector?: LabelSelector | Record<string, string> };
  status: { replicas?: number };
}

/** Where the scaled kind differs from the apps kinds: its group, and a selector that is a plain label map (ReplicationController). */
export interface ScaleOptions {
  readonly group?: string;
  readonly mapSelector?: boolean;
}

/** The selector in the string form of label queries (`app=web,tier in (a,b)`). */
export function selectorString(sel: LabelSelector | undefined): string {
  return labelSelectorFromStructured(sel as StructuredLabelSelector | undefined).toString();
}

export function scaleSubresource<T extends Scalable>(names: ApiNames, resource: string, opts: ScaleOptions = {}): ViewSubresource<T> {
  const selectorOf = (parent: T): string =>
    opts.mapSelector ? selectorString({ matchLabels: parent.spec.selector as Record<string, string> | undefined }) : selectorString(parent.spec.selector as LabelSelector | undefined);
  return {
    kind: 'view',
    verbs: ['get', 'patch', 'update'],
    view: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
    schema: ScaleSchema,
    // Kubernetes' scale handler: ownership of the Scale's replicas is the parent's spec.replicas.
    ownedField: { view: ['spec', 'replicas'], parent: ['spec', 'replicas'] },
    table: scaleTable,
    toView(parent) {
      const m = parent.metadata;
      const replicas = parent.spec.replicas ?? 0;
      return {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: {
          name: m.name,
          namespace: m.namespace,
          uid: m.uid,
          resourceVersion: m.resourceVersion,
          creationTimestamp: m.creationTimestamp,
        },
        // ScaleSpec.replicas is omitempty: zero replicas print as an empty spec, as in Kubernetes.
        spec: replicas ? { replicas } : {},
        status: { replicas: parent.status.replicas ?? 0, selector: selectorOf(parent) },
      };
    },
    fromView(view, parent) {
      const scale = view as Scale;
      if (scale.metadata.uid && scale.metadata.uid !== parent.metadata.uid) {
        throw errors.conflict(
          { group: opts.group ?? 'apps', resource: `${resource}/scale` },
          parent.metadata.name ?? '',
          `Precondition failed: UID in precondition: ${scale.metadata.uid}, UID in object meta: ${parent.metadata.uid ?? ''}`,
        );
      }
      const next = structuredClone(parent);
      next.spec.replicas = scale.spec.replicas ?? 0;
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
