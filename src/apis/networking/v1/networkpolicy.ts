/**
 * NetworkPolicy (networking.<domain>/v1): which traffic may reach (ingress) and leave (egress) the
 * selected pods. Defaults and validation as Kubernetes 1.25; the status (alpha NetworkPolicyStatus,
 * off by default in 1.25) is kept as sent and has no subresource, as with the gate off.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { cidrContains, parseCIDR } from '../../../machinery/ip.js';
import { hasInvalidLabelValueInSelector, validateLabelSelector, type LabelSelectorValidationOptions } from '../../../machinery/label-selector-validation.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { age, ageColumn, column, defineResource, defineTable, formatLabelSelector, nameColumn } from '../../../registry/define-resource.js';
import { Condition, LabelSelector, objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { portNameProblems, portNumberProblems } from '../../core/v1/types/index.js';

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'] as const;
const POLICY_TYPES = ['Ingress', 'Egress'] as const;

export const IPBlock = t.struct('networking.v1.IPBlock', {
  cidr: t.required(1, t.string(), { always: true, description: 'The range of addresses, e.g. 192.168.1.0/24 or 2001:db8::/64.' }),
  except: t.field(2, t.list(t.string()), { description: 'Ranges inside cidr that are left out.' }),
}, { description: 'A range of addresses, less some sub-ranges.' });

export const NetworkPolicyPeer = t.struct('networking.v1.NetworkPolicyPeer', {
  podSelector: t.field(1, LabelSelector, { pointer: true, description: 'Pods selected by label (in the policy namespace, or in the namespaces namespaceSelector selects).' }),
  namespaceSelector: t.field(2, LabelSelector, { pointer: true, description: 'Namespaces selected by label.' }),
  ipBlock: t.field(3, IPBlock, { pointer: true, description: 'A range of addresses; exclusive with the selectors.' }),
}, { description: 'Whom a rule allows traffic from or to.' });

export const NetworkPolicyPort = t.struct('networking.v1.NetworkPolicyPort', {
  protocol: t.field(1, t.string({ enum: PROTOCOLS }), { pointer: true, description: 'TCP (the default), UDP or SCTP.' }),
  port: t.field(2, t.intOrString(), { pointer: true, description: 'A port number or a named port of the pods; every port when not set.' }),
  endPort: t.field(3, t.int32(), { pointer: true, description: 'With a numeric port: the last port of the range port..endPort.' }),
}, { description: 'A port (or range of ports) a rule allows.' });

export const NetworkPolicyIngressRule = t.struct('networking.v1.NetworkPolicyIngressRule', {
  ports: t.field(1, t.list(NetworkPolicyPort), { description: 'The ports allowed; every port when empty.' }),
  from: t.field(2, t.list(NetworkPolicyPeer), { description: 'The sources allowed; every source when empty.' }),
}, { description: 'Traffic the selected pods may receive.' });

export const NetworkPolicyEgressRule = t.struct('networking.v1.NetworkPolicyEgressRule', {
  ports: t.field(1, t.list(NetworkPolicyPort), { description: 'The ports allowed; every port when empty.' }),
  to: t.field(2, t.list(NetworkPolicyPeer), { description: 'The destinations allowed; every destination when empty.' }),
}, { description: 'Traffic the selected pods may send.' });

export const NetworkPolicySpec = t.struct('networking.v1.NetworkPolicySpec', {
  podSelector: t.required(1, LabelSelector, { description: 'The pods the policy applies to; an empty selector selects every pod of the namespace.' }),
  ingress: t.field(2, t.list(NetworkPolicyIngressRule), { description: 'Allowed incoming traffic.' }),
  egress: t.field(3, t.list(NetworkPolicyEgressRule), { description: 'Allowed outgoing traffic.' }),
  policyTypes: t.field(4, t.list(t.string({ enum: POLICY_TYPES })), { description: 'Ingress, Egress or both; by default Ingress, and Egress when egress rules are given.' }),
}, { description: 'What a network policy allows.' });

export const NetworkPolicyStatus = t.struct('networking.v1.NetworkPolicyStatus', {
  conditions: t.field(1, t.list(Condition, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }), {
    description: 'How the policy is being applied (alpha).',
  }),
}, { description: 'What the network plugin reports about the policy.' });

export const NetworkPolicySchema = t.struct('networking.v1.NetworkPolicy', {
  ...objectHeader,
  spec: t.field(2, NetworkPolicySpec, { description: 'What the policy allows.' }),
  status: t.field(3, NetworkPolicyStatus, { description: 'What the network plugin reports (alpha).' }),
}, { description: 'A network policy: the traffic allowed to and from a set of pods.' });
export type NetworkPolicy = ObjectOf<typeof NetworkPolicySchema>;
type Port = NetworkPolicy['spec']['ingress'] extends (infer R)[] | undefined ? R extends { ports?: (infer P)[] } ? P : never : never;
type Peer = NetworkPolicy['spec']['egress'] extends (infer R)[] | undefined ? R extends { to?: (infer P)[] } ? P : never : never;

function validatePort(port: Port, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (port.protocol !== undefined && !(PROTOCOLS as readonly string[]).includes(port.protocol)) errs.push(fieldErr.notSupported(path.child('protocol'), port.protocol, PROTOCOLS));
  const { port: p, endPort } = port;
  if (p === undefined) {
    if (endPort !== undefined) errs.push(fieldErr.invalid(path.child('endPort'), endPort, 'may not be specified when `port` is not specified'));
  } else if (typeof p === 'number') {
    for (const m of portNumberProblems(p)) errs.push(fieldErr.invalid(path.child('port'), p, m));
    if (endPort !== undefined) {
      if (endPort < p) errs.push(fieldErr.invalid(path.child('endPort'), p, 'must be greater than or equal to `port`'));
      for (const m of portNumberProblems(endPort)) errs.push(fieldErr.invalid(path.child('endPort'), endPort, m));
    }
  } else {
    if (endPort !== undefined) errs.push(fieldErr.invalid(path.child('endPort'), endPort, 'may not be specified when `port` is non-numeric'));
    for (const m of portNameProblems(p)) errs.push(fieldErr.invalid(path.child('port'), p, m));
  }
  return errs;
}

function validateIPBlock(block: NonNullable<Peer['ipBlock']>, path: FieldPath): FieldError[] {
  if (!block.cidr) return [fieldErr.required(path.child('cidr'))];
  const cidr = parseCIDR(block.cidr);
  if (!cidr) return [fieldErr.invalid(path.child('cidr'), block.cidr, 'not a valid CIDR')];
  const errs: FieldError[] = [];
  for (const [i, text] of (block.except ?? []).entries()) {
    const p = path.child('except').index(i);
    const except = parseCIDR(text);
    if (!except) return [...errs, fieldErr.invalid(p, text, 'not a valid CIDR')];
    if (!cidrContains(cidr, { family: except.family, value: except.network }) || cidr.prefix >= except.prefix) {
      errs.push(fieldErr.invalid(p, text, 'must be a strict subset of `cidr`'));
    }
  }
  return errs;
}

function validatePeer(peer: Peer, opts: LabelSelectorValidationOptions, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  if (peer.podSelector) {
    peers++;
    errs.push(...validateLabelSelector(peer.podSelector, path.child('podSelector'), opts));
  }
  if (peer.namespaceSelector) {
    peers++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, path.child('namespaceSelector'), opts));
  }
  if (peer.ipBlock) {
    peers++;
    errs.push(...validateIPBlock(peer.ipBlock, path.child('ipBlock')));
  }
  if (peers === 0) errs.push(fieldErr.required(path, 'must specify a peer'));
  else if (peers > 1 && peer.ipBlock) errs.push(fieldErr.forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateSpec(spec: NetworkPolicy['spec'], opts: LabelSelectorValidationOptions): FieldError[] {
  const path = FieldPath.root('spec');
  const errs = validateLabelSelector(spec.podSelector, path.child('podSelector'), opts);
  const rules = (kind: 'ingress' | 'egress', peersOf: 'from' | 'to', list: readonly { ports?: Port[]; from?: Peer[]; to?: Peer[] }[] | undefined) => {
    for (const [i, rule] of (list ?? []).entries()) {
      const rp = path.child(kind).index(i);
      for (const [j, port] of (rule.ports ?? []).entries()) errs.push(...validatePort(port, rp.child('ports').index(j)));
      for (const [j, peer] of (rule[peersOf] ?? []).entries()) errs.push(...validatePeer(peer, opts, rp.child(peersOf).index(j)));
    }
  };
  rules('ingress', 'from', spec.ingress);
  rules('egress', 'to', spec.egress);
  const types = spec.policyTypes ?? [];
  if (types.length > POLICY_TYPES.length) return [...errs, fieldErr.invalid(path.child('policyTypes'), types, 'may not specify more than two policyTypes')];
  types.forEach((type, i) => {
    if (!(POLICY_TYPES as readonly string[]).includes(type)) errs.push(fieldErr.notSupported(path.child('policyTypes').index(i), type, POLICY_TYPES));
  });
  return errs;
}

/** Whether any selector of the policy lists a value that is not a label value (tolerated on update when already stored). */
function hasInvalidSelectorValue(np: NetworkPolicy): boolean {
  const peers = [...(np.spec.ingress ?? []).flatMap((r) => r.from ?? []), ...(np.spec.egress ?? []).flatMap((r) => r.to ?? [])];
  return [np.spec.podSelector, ...peers.flatMap((p) => [p.podSelector, p.namespaceSelector])].some((s) => hasInvalidLabelValueInSelector(s));
}

/** `kubectl get networkpolicies`. */
export const networkPolicyTable = defineTable<NetworkPolicy>({
  columns: [nameColumn, column('Pod-Selector', 'The pods the policy applies to.'), ageColumn],
  cells: (np, ctx) => [np.metadata.name ?? '', formatLabelSelector(np.spec?.podSelector), age(np, ctx)],
});

export const networkPolicyResource = defineResource<NetworkPolicy>((names) => ({
  group: names.group('networking'),
  version: 'v1',
  kind: 'NetworkPolicy',
  resource: 'networkpolicies',
  singular: 'networkpolicy',
  namespaced: true,
  shortNames: ['netpol'],
  schema: NetworkPolicySchema,
  table: networkPolicyTable,
  fixture: () => ({
    spec: {
      podSelector: { matchLabels: { app: 'db' } },
      ingress: [{ from: [{ podSelector: { matchLabels: { app: 'web' } } }], ports: [{ port: 5432 }] }],
    },
  }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults(np) {
      const spec = np.spec;
      for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])]) for (const port of rule.ports ?? []) port.protocol ??= 'TCP';
      if (!spec.policyTypes?.length) spec.policyTypes = spec.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
    },
    validateCreate: (np) => validateSpec(np.spec, {}),
    validateUpdate: (np, old) => validateSpec(np.spec, { allowInvalidLabelValueInSelector: hasInvalidSelectorValue(old) }),
  },
}));
