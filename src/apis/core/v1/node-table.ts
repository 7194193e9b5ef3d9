/** Node columns: STATUS from the Ready condition, ROLES from the node-role labels, VERSION; addresses and system info for -o wide. */
import { age, ageColumn, column, defineTable, nameColumn, type TableContext } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/index.js';

type NodeShape = KubeObject & {
  spec?: { unschedulable?: boolean };
  status?: {
    conditions?: { type?: string; status?: string }[];
    addresses?: { type?: string; address?: string }[];
    nodeInfo?: { kubeletVersion?: string; osImage?: string; kernelVersion?: string; containerRuntimeVersion?: string };
  };
};

function nodeStatus(node: NodeShape): string {
  const status: string[] = [];
  const ready = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').pop();
  if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  else status.push('Unknown');
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

/** Roles from `node-role.<domain>/<role>` keys and the `<domain>/role` label, sorted. */
function nodeRoles(node: NodeShape, ctx: TableContext): string {
  const prefix = ctx.names.labelSubKey('node-role', '');
  const roleLabel = ctx.names.labelKey('role');
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith(prefix) && k.length > prefix.length) roles.add(k.slice(prefix.length));
    else if (k === roleLabel && v !== '') roles.add(v);
  }
  return roles.size ? [...roles].sort().join(',') : '<none>';
}

function address(node: NodeShape, type: string): string {
  return node.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
}

export const nodeTable = defineTable<NodeShape>({
  columns: [
    nameColumn,
    column('Status', 'The status of the node'),
    column('Roles', 'The roles of the node'),
    ageColumn,
    column('Version', 'The version of the kubelet the node reports'),
    column('Internal-IP', 'The first internal address of the node', { priority: 1 }),
    column('External-IP', 'The first external address of the node', { priority: 1 }),
    column('OS-Image', 'The operating system image the node reports', { priority: 1 }),
    column('Kernel-Version', 'The kernel version the node reports', { priority: 1 }),
    column('Container-Runtime', 'The container runtime and its version the node reports', { priority: 1 }),
  ],
  cells: (node, ctx) => {
    const info = node.status?.nodeInfo ?? {};
    return [
      node.metadata.name ?? '',
      nodeStatus(node),
      nodeRoles(node, ctx),
      age(node, ctx),
      info.kubeletVersion ?? '',
      address(node, 'InternalIP'),
      address(node, 'ExternalIP'),
      info.osImage || '<unknown>',
      info.kernelVersion || '<unknown>',
      info.containerRuntimeVersion || '<unknown>',
    ];
  },
});
