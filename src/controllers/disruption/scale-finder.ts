/**
 * Finds a pod's controller and its desired replicas, as the disruption controller's finders do:
 * a ReplicationController, a ReplicaSet (or the Deployment that owns it) or a StatefulSet. Reads
 * listers only.
 */
import type { Pod } from '../../apis/core/v1/pod.js';
import type { Lister } from '../../machinery/lister.js';
import type { KubeObject } from '../../schema/index.js';
import type { ControllerScale, ScaleFinder } from './status.js';

/** The part of a workload the finder reads. */
export interface ScaledObject extends KubeObject {
  spec?: { replicas?: number };
}

export interface OwnerListers {
  replicationControllers: Lister<ScaledObject>;
  replicaSets: Lister<ScaledObject>;
  deployments: Lister<ScaledObject>;
  statefulSets: Lister<ScaledObject>;
}

type OwnerRef = NonNullable<KubeObject['metadata']['ownerReferences']>[number];

function controllerOf(obj: KubeObject): OwnerRef | undefined {
  return (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

export function scaleFinder(owners: OwnerListers, appsGroup: string): ScaleFinder {
  const lookup = (lister: Lister<ScaledObject>, namespace: string, ref: OwnerRef): ScaledObject | undefined => {
    const found = lister.get(namespace, ref.name);
    return found && found.metadata.uid === ref.uid ? found : undefined;
  };
  const scaleOf = (o: ScaledObject): ControllerScale => ({ uid: o.metadata.uid ?? '', replicas: o.spec?.replicas ?? 1 });
  return (pod: Pod): ControllerScale => {
    const namespace = pod.metadata.namespace ?? '';
    const podName = pod.metadata.name ?? '';
    const ref = controllerOf(pod);
    if (!ref) return { error: `found no controller ref for pod "${podName}"` };
    const group = groupOf(ref.apiVersion);
    if (group === '' && ref.kind === 'ReplicationController') {
      const rc = lookup(owners.replicationControllers, namespace, ref);
      if (rc) return scaleOf(rc);
    } else if (group === appsGroup && ref.kind === 'ReplicaSet') {
      const rs = lookup(owners.replicaSets, namespace, ref);
      if (rs) {
        const parent = controllerOf(rs);
        if (parent && groupOf(parent.apiVersion) === appsGroup && parent.kind === 'Deployment') {
          const deployment = lookup(owners.deployments, namespace, parent);
          if (deployment) return scaleOf(deployment);
        } else {
          return scaleOf(rs);
        }
      }
    } else if (group === appsGroup && ref.kind === 'StatefulSet') {
      const sts = lookup(owners.statefulSets, namespace, ref);
      if (sts) return scaleOf(sts);
    }
    return { error: `found no controllers for pod "${podName}"` };
  };
}
