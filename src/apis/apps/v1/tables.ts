/** Table columns of the apps/v1 kinds (Deployment, ReplicaSet, StatefulSet, DaemonSet, ControllerRevision) and of the Scale view. */
import { parseApiVersion } from '../../../machinery/gvk.js';
import { age, ageColumn, column, containerCells, defineTable, formatLabels, formatLabelSelector, nameColumn, selectorText } from '../../../registry/define-resource.js';
import type { KubeObject, LabelSelector } from '../../../schema/index.js';

type Replicated = KubeObject & {
  spec?: { replicas?: number; selector?: LabelSelector; template?: { spec?: { containers?: { name?: string; image?: string }[] } } };
  status?: { replicas?: number; readyReplicas?: number; updatedReplicas?: number; availableReplicas?: number };
};

const wideTemplateColumns = [
  column('Containers', 'Names of each container in the template.', { priority: 1 }),
  column('Images', 'Images referenced by each container in the template.', { priority: 1 }),
  column('Selector', 'The label selector of the pods it manages', { priority: 1 }),
];

export const deploymentTable = defineTable<Replicated>({
  columns: [
    nameColumn,
    column('Ready', 'Number of the pod with ready state'),
    column('Up-to-date', 'How many pods run the current template'),
    column('Available', 'How many pods have been ready for at least minReadySeconds'),
    ageColumn,
    ...wideTemplateColumns,
  ],
  cells: (d, ctx) => [
    d.metadata.name ?? '',
    `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}`,
    d.status?.updatedReplicas ?? 0,
    d.status?.availableReplicas ?? 0,
    age(d, ctx),
    ...containerCells(d.spec?.template?.spec?.containers),
    selectorText(d.spec?.selector),
  ],
});

export const replicaSetTable = defineTable<Replicated>({
  columns: [
    nameColumn,
    column('Desired', 'How many pods are wanted', { type: 'integer' }),
    column('Current', 'How many pods exist', { type: 'integer' }),
    column('Ready', 'How many pods are ready', { type: 'integer' }),
    ageColumn,
    ...wideTemplateColumns,
  ],
  cells: (rs, ctx) => [
    rs.metadata.name ?? '',
    rs.spec?.replicas ?? 0,
    rs.status?.replicas ?? 0,
    rs.status?.readyReplicas ?? 0,
    age(rs, ctx),
    ...containerCells(rs.spec?.template?.spec?.containers),
    formatLabelSelector(rs.spec?.selector),
  ],
});

export const statefulSetTable = defineTable<Replicated>({
  columns: [
    nameColumn,
    column('Ready', 'Number of the pod with ready state'),
    ageColumn,
    column('Containers', 'Names of each container in the template.', { priority: 1 }),
    column('Images', 'Images referenced by each container in the template.', { priority: 1 }),
  ],
  cells: (sts, ctx) => [
    sts.metadata.name ?? '',
    `${sts.status?.readyReplicas ?? 0}/${sts.spec?.replicas ?? 0}`,
    age(sts, ctx),
    ...containerCells(sts.spec?.template?.spec?.containers),
  ],
});

type DaemonSetRow = KubeObject & {
  spec?: { selector?: LabelSelector; template?: { spec?: { nodeSelector?: Record<string, string>; containers?: { name?: string; image?: string }[] } } };
  status?: { desiredNumberScheduled?: number; currentNumberScheduled?: number; numberReady?: number; updatedNumberScheduled?: number; numberAvailable?: number };
};

export const daemonSetTable = defineTable<DaemonSetRow>({
  columns: [
    nameColumn,
    column('Desired', 'The total number of nodes that should be running the daemon pod.', { type: 'integer' }),
    column('Current', 'The number of nodes running at least one daemon pod and are supposed to.', { type: 'integer' }),
    column('Ready', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.', { type: 'integer' }),
    column('Up-to-date', 'The total number of nodes that are running updated daemon pod', { type: 'integer' }),
    column('Available', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.', { type: 'integer' }),
    column('Node Selector', 'The node labels a node must have to run the pod.'),
    ageColumn,
    ...wideTemplateColumns,
  ],
  cells: (ds, ctx) => [
    ds.metadata.name ?? '',
    ds.status?.desiredNumberScheduled ?? 0,
    ds.status?.currentNumberScheduled ?? 0,
    ds.status?.numberReady ?? 0,
    ds.status?.updatedNumberScheduled ?? 0,
    ds.status?.numberAvailable ?? 0,
    formatLabels(ds.spec?.template?.spec?.nodeSelector),
    age(ds, ctx),
    ...containerCells(ds.spec?.template?.spec?.containers),
    formatLabelSelector(ds.spec?.selector),
  ],
});

/** The controller as `kind.group/name` (lowercase kind), `<none>` without one. */
function controllerOf(obj: KubeObject): string {
  const ref = (obj.metadata.ownerReferences ?? []).find((r) => r.controller);
  if (!ref) return '<none>';
  const { group } = parseApiVersion(ref.apiVersion ?? '');
  const kind = group ? `${ref.kind}.${group}` : ref.kind;
  return kind ? `${kind.toLowerCase()}/${ref.name}` : ref.name;
}

export const controllerRevisionTable = defineTable<KubeObject & { revision?: number }>({
  columns: [nameColumn, column('Controller', 'Controller of the object'), column('Revision', 'The revision this object represents'), ageColumn],
  cells: (cr, ctx) => [cr.metadata.name ?? '', controllerOf(cr), cr.revision ?? 0, age(cr, ctx)],
});

/** The Scale view (`/scale`): desired and current replicas. Its Name column has no name format, as in Kubernetes. */
export const scaleTable = defineTable<KubeObject & { spec?: { replicas?: number }; status?: { replicas?: number } }>({
  columns: [
    { name: 'Name', type: 'string', description: nameColumn.description },
    column('Desired', 'The desired number of replicas', { type: 'integer' }),
    column('Available', 'The current number of replicas', { type: 'integer' }),
    ageColumn,
  ],
  cells: (s, ctx) => [s.metadata.name ?? '', s.spec?.replicas ?? 0, s.status?.replicas ?? 0, age(s, ctx)],
});
