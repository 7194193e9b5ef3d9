/**
 * Node (core/v1, cluster-scoped): a machine pods run on. Unlike other kinds, a node may be created
 * with its status (the kubelet registers that way); later status writes go through `/status`.
 * Pod CIDRs and the provider ID are set once; taints and schedulability change freely.
 */
import { isIP } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { isDns1123Label, isDns1123Subdomain, nameValidators } from '../../../machinery/name-validation.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { validateConfigKey } from './config-key.js';
import { ResourceList, Taint } from './types/index.js';
import { validateResourceQuantityValue } from './validation/resources.js';
import { validateTaints } from './validation/scheduling.js';
import { nodeTable } from './node-table.js';

export const NODE_PHASES = ['Pending', 'Running', 'Terminated'] as const;

export const ConfigMapNodeConfigSource = t.struct('core.v1.ConfigMapNodeConfigSource', {
  namespace: t.required(1, t.string(), { always: true }),
  name: t.required(2, t.string(), { always: true }),
  uid: t.field(3, t.string()),
  resourceVersion: t.field(4, t.string()),
  kubeletConfigKey: t.required(5, t.string(), { always: true }),
});

export const NodeConfigSource = t.struct('core.v1.NodeConfigSource', {
  configMap: t.field(2, ConfigMapNodeConfigSource, { pointer: true }),
});

export const NodeSpec = t.struct('core.v1.NodeSpec', {
  podCIDR: t.field(1, t.string(), { description: 'The pod IP range of the node; the same as podCIDRs[0].' }),
  podCIDRs: t.field(7, t.list(t.string(), { patchStrategy: 'merge' }), {
    description: 'The pod IP ranges of the node, at most one per IP family. Set once.',
  }),
  providerID: t.field(3, t.string(), { description: "The node's ID in the cloud provider: <provider>://<id>. Set once." }),
  unschedulable: t.field(4, t.bool(), { description: 'When true, no new pods are scheduled onto the node.' }),
  taints: t.field(5, t.list(Taint), { description: 'Taints that keep pods without a matching toleration off the node.' }),
  configSource: t.field(6, NodeConfigSource, { pointer: true, description: 'Deprecated: dynamic kubelet configuration was removed; the field is ignored.' }),
  externalID: t.field(2, t.string(), { description: 'Deprecated; not used.' }),
}, { description: 'How the node should be used.' });

export const NodeCondition = t.struct('core.v1.NodeCondition', {
  type: t.required(1, t.string(), { always: true }),
  status: t.required(2, t.string(), { always: true }),
  lastHeartbeatTime: t.field(3, t.time()),
  lastTransitionTime: t.field(4, t.time()),
  reason: t.field(5, t.string()),
  message: t.field(6, t.string()),
});

export const NodeAddress = t.struct('core.v1.NodeAddress', {
  type: t.required(1, t.string(), { always: true }),
  address: t.required(2, t.string(), { always: true }),
});

export const DaemonEndpoint = t.struct('core.v1.DaemonEndpoint', {
  Port: t.required(1, t.int32(), { always: true }),
});

export const NodeDaemonEndpoints = t.struct('core.v1.NodeDaemonEndpoints', {
  kubeletEndpoint: t.field(1, DaemonEndpoint),
});

const info = () => t.string();
export const NodeSystemInfo = t.struct('core.v1.NodeSystemInfo', {
  machineID: t.required(1, info(), { always: true }),
  systemUUID: t.required(2, info(), { always: true }),
  bootID: t.required(3, info(), { always: true }),
  kernelVersion: t.required(4, info(), { always: true }),
  osImage: t.required(5, info(), { always: true }),
  containerRuntimeVersion: t.required(6, info(), { always: true }),
  kubeletVersion: t.required(7, info(), { always: true }),
  kubeProxyVersion: t.required(8, info(), { always: true }),
  operatingSystem: t.required(9, info(), { always: true }),
  architecture: t.required(10, info(), { always: true }),
});

export const ContainerImage = t.struct('core.v1.ContainerImage', {
  names: t.field(1, t.list(t.string()), { always: true }),
  sizeBytes: t.field(2, t.int64()),
});

export const AttachedVolume = t.struct('core.v1.AttachedVolume', {
  name: t.required(1, t.string(), { always: true }),
  devicePath: t.required(2, t.string(), { always: true }),
});

export const NodeConfigStatus = t.struct('core.v1.NodeConfigStatus', {
  assigned: t.field(1, NodeConfigSource, { pointer: true }),
  active: t.field(2, NodeConfigSource, { pointer: true }),
  lastKnownGood: t.field(3, NodeConfigSource, { pointer: true }),
  error: t.field(4, t.string()),
});

export const NodeStatus = t.struct('core.v1.NodeStatus', {
  capacity: t.field(1, ResourceList, { description: 'The total resources of the node.' }),
  allocatable: t.field(2, ResourceList, { description: 'The resources available to pods; capacity by default.' }),
  phase: t.field(3, t.string({ enum: NODE_PHASES }), { description: 'Deprecated lifecycle phase; no longer set.' }),
  conditions: t.field(4, t.list(NodeCondition, { patchStrategy: 'merge', patchMergeKey: 'type' }), { description: 'The latest observations of the node (Ready, MemoryPressure, ...).' }),
  addresses: t.field(5, t.list(NodeAddress, { patchStrategy: 'merge', patchMergeKey: 'type' }), { description: 'Addresses the node is reachable at, by type.' }),
  daemonEndpoints: t.field(6, NodeDaemonEndpoints, { description: 'Ports of the daemons on the node (the kubelet).' }),
  nodeInfo: t.field(7, NodeSystemInfo, { description: 'Versions and identities of the machine and its software.' }),
  images: t.field(8, t.list(ContainerImage), { description: 'Container images present on the node.' }),
  volumesInUse: t.field(9, t.list(t.string()), { description: 'Volumes mounted on the node.' }),
  volumesAttached: t.field(10, t.list(AttachedVolume), { description: 'Volumes attached to the node.' }),
  config: t.field(11, NodeConfigStatus, { pointer: true, description: 'Deprecated: the dynamic kubelet configuration status.' }),
}, { description: 'What the node is, as last observed.' });

export const NodeSchema = t.struct('core.v1.Node', {
  ...objectHeader,
  spec: t.field(2, NodeSpec, { description: 'How the node should be used.' }),
  status: t.field(3, NodeStatus, { description: 'What the node is, as last observed; written by the kubelet.' }),
}, { description: 'A worker machine that pods run on.' });
export type Node = ObjectOf<typeof NodeSchema>;
type ConfigMapSource = NonNullable<NonNullable<Node['spec']['configSource']>['configMap']>;

/** A CIDR as Go's net.ParseCIDR reads it; returns the IP family, or 0 when invalid. */
function cidrFamily(cidr: string): 4 | 6 | 0 {
  const slash = cidr.indexOf('/');
  if (slash < 0) return 0;
  const ip = cidr.slice(0, slash);
  const bits = cidr.slice(slash + 1);
  const family = isIP(ip);
  if (family === 0 || !/^[0-9]+$/.test(bits)) return 0;
  return Number(bits) <= (family === 4 ? 32 : 128) ? (family as 4 | 6) : 0;
}

function validatePodCIDRs(cidrs: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const path = FieldPath.root('spec').child('podCIDRs');
  cidrs.forEach((c, i) => {
    if (cidrFamily(c) === 0) errs.push(fieldErr.invalid(path.index(i), cidrs, 'must be valid CIDR'));
  });
  if (cidrs.length > 1) {
    const families = cidrs.map(cidrFamily);
    const dualStack = families.includes(4) && families.includes(6);
    if (!dualStack || cidrs.length > 2) errs.push(fieldErr.invalid(path, cidrs, 'may specify no more than one CIDR for each IP family'));
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errs.push(fieldErr.duplicate(path.index(i), c));
      seen.add(c);
    });
  }
  return errs;
}

function validateResources(names: ApiNames, node: Node): FieldError[] {
  const errs: FieldError[] = [];
  // Kubernetes names these `status.capacity.cpu`, with the resource as a path step.
  for (const field of ['capacity', 'allocatable'] as const) {
    for (const [r, q] of Object.entries(node.status[field] ?? {})) {
      errs.push(...validateResourceQuantityValue(names, r, q, FieldPath.root('status').child(field).child(r)));
    }
  }
  return errs;
}

/** Kubernetes' ValidateNode, on create and on every update. */
function validateNode(names: ApiNames, node: Node): FieldError[] {
  // Kubernetes reports a node's taint errors under `metadata.taints`.
  const errs = validateTaints(node.spec.taints ?? [], FieldPath.root('metadata').child('taints'));
  errs.push(...validateResources(names, node));
  errs.push(...validatePodCIDRs(node.spec.podCIDRs ?? []));
  return errs;
}

function validateConfigMapSource(src: ConfigMapSource, path: FieldPath, inStatus: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (inStatus) {
    if (!src.uid) errs.push(fieldErr.required(path.child('uid'), 'uid must be set in status'));
    if (!src.resourceVersion) errs.push(fieldErr.required(path.child('resourceVersion'), 'resourceVersion must be set in status'));
  } else {
    if (src.uid) errs.push(fieldErr.forbidden(path.child('uid'), 'uid must not be set in spec'));
    if (src.resourceVersion) errs.push(fieldErr.forbidden(path.child('resourceVersion'), 'resourceVersion must not be set in spec'));
  }
  if (!src.namespace) errs.push(fieldErr.required(path.child('namespace'), 'namespace must be set'));
  else for (const m of isDns1123Label(src.namespace)) errs.push(fieldErr.invalid(path.child('namespace'), src.namespace, m));
  if (!src.name) errs.push(fieldErr.required(path.child('name'), 'name must be set'));
  else for (const m of isDns1123Subdomain(src.name)) errs.push(fieldErr.invalid(path.child('name'), src.name, m));
  if (!src.kubeletConfigKey) errs.push(fieldErr.required(path.child('kubeletConfigKey'), 'kubeletConfigKey must be set'));
  else errs.push(...validateConfigKey(src.kubeletConfigKey, path.child('kubeletConfigKey')));
  return errs;
}

function validateConfigSource(source: Node['spec']['configSource'], path: FieldPath, inStatus: boolean): FieldError[] {
  if (!source) return [];
  const errs = source.configMap ? validateConfigMapSource(source.configMap, path.child('configMap'), inStatus) : [];
  if (!source.configMap) errs.push(fieldErr.invalid(path, source, 'exactly one reference subfield must be non-nil'));
  return errs;
}

/**
 * Kubernetes' ValidateNodeUpdate: what may not change, and checks on the new status. It repeats
 * ValidateNode's resource and taint checks; `withNodeChecks` false leaves those to `validate`
 * (the main endpoint runs both), so no error is reported twice.
 */
function validateNodeUpdate(names: ApiNames, node: Node, old: Node, withNodeChecks: boolean): FieldError[] {
  const errs = withNodeChecks ? validateResources(names, node) : [];
  const addresses = FieldPath.root('status').child('addresses');
  const seen: unknown[] = [];
  (node.status.addresses ?? []).forEach((a, i) => {
    const key = { type: a.type, address: a.address };
    if (seen.some((s) => isDeepStrictEqual(s, key))) errs.push(fieldErr.duplicate(addresses.index(i), key));
    seen.push(key);
  });
  const oldCIDRs = old.spec.podCIDRs ?? [];
  const cidrsMsg = 'node updates may not change podCIDR except from "" to valid';
  if (oldCIDRs.length > 0) {
    const cidrs = node.spec.podCIDRs ?? [];
    if (cidrs.length !== oldCIDRs.length) errs.push(fieldErr.forbidden('spec.podCIDRs', cidrsMsg));
    else oldCIDRs.forEach((c, i) => c !== cidrs[i] && errs.push(fieldErr.forbidden('spec.podCIDRs', cidrsMsg)));
  }
  if (old.spec.providerID && old.spec.providerID !== node.spec.providerID) {
    errs.push(fieldErr.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  errs.push(...validateConfigSource(node.spec.configSource, FieldPath.root('spec').child('configSource'), false));
  const config = node.status.config;
  if (config) {
    const path = FieldPath.root('status').child('config');
    for (const k of ['assigned', 'active', 'lastKnownGood'] as const) errs.push(...validateConfigSource(config[k], path.child(k), true));
  }
  if (withNodeChecks) errs.push(...validateTaints(node.spec.taints ?? [], FieldPath.root('metadata').child('taints')));
  if ((node.spec.externalID ?? '') !== (old.spec.externalID ?? '')) errs.push(fieldErr.forbidden('spec.externalID', 'may not be updated'));
  return errs;
}

/**
 * The v1 object carries the first pod CIDR twice: podCIDRs wins when set (and podCIDR follows it),
 * else a lone podCIDR becomes the list, as Kubernetes' conversion does. Mutates.
 */
function syncPodCIDR(node: Node): void {
  const list = node.spec.podCIDRs ?? [];
  if (list.length === 0 && node.spec.podCIDR) node.spec.podCIDRs = [node.spec.podCIDR];
  else if (list.length > 0) node.spec.podCIDR = list[0] as string;
}

export const nodeResource = defineResource<Node>((names) => ({
  group: '',
  version: 'v1',
  kind: 'Node',
  resource: 'nodes',
  singular: 'node',
  namespaced: false,
  shortNames: ['no'],
  schema: NodeSchema,
  table: nodeTable,
  fixture: () => ({ spec: { podCIDRs: ['10.244.0.0/24'] }, status: { capacity: { cpu: '2', memory: '4Gi', pods: '110' } } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    statusOnCreate: true,
    selectableFieldNames: ['spec.unschedulable'],
    selectableFields: (node) => ({ 'spec.unschedulable': String(node.spec.unschedulable ?? false) }),
    defaults(node) {
      syncPodCIDR(node);
      // Allocatable defaults to capacity, as Kubernetes' SetDefaults_NodeStatus.
      if (node.status.allocatable === undefined && node.status.capacity !== undefined) node.status.allocatable = { ...node.status.capacity };
    },
    prepareForCreate(node) {
      // Dynamic kubelet configuration is gone (1.24): the fields are dropped on create.
      delete node.spec.configSource;
      delete node.status.config;
    },
    prepareForUpdate(node, old) {
      if (!old.spec.configSource) delete node.spec.configSource;
    },
    validate: (node) => validateNode(names, node),
    validateUpdate: (node, old) => validateNodeUpdate(names, node, old, false),
    warnings: (node) => (node.spec.configSource ? ['spec.configSource: the feature is removed'] : []),
  },
  subresources: {
    status: statusSubresource<Node>({
      prepareForUpdate(node, old) {
        if (!old.status.config) delete node.status.config;
      },
      validateUpdate: (node, old) => validateNodeUpdate(names, node, old, true),
    }),
  },
}));
