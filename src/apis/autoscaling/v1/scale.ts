/**
 * autoscaling/v1 Scale: the replica count of a scalable resource and the selector of its pods. Not
 * a stored kind: the `/scale` subresources of Deployment and ReplicaSet answer with it.
 */
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';

export const ScaleSpec = t.struct('autoscaling.v1.ScaleSpec', {
  replicas: t.field(1, t.int32(), { description: 'The desired number of instances.' }),
}, { description: 'What the scaled resource should be.' });

export const ScaleStatus = t.struct('autoscaling.v1.ScaleStatus', {
  replicas: t.required(1, t.int32(), { always: true, description: 'The number of instances observed.' }),
  selector: t.field(2, t.string(), { description: 'The label selector of the pods, in the string form of label queries.' }),
}, { description: 'What the scaled resource is, as last observed.' });

export const ScaleSchema = t.struct('autoscaling.v1.Scale', {
  ...objectHeader,
  spec: t.field(2, ScaleSpec, { description: 'The desired scale.' }),
  status: t.field(3, ScaleStatus, { description: 'The current scale. Read-only.' }),
}, { description: 'The scale of a resource that runs a number of replicas.' });
export type Scale = ObjectOf<typeof ScaleSchema>;
