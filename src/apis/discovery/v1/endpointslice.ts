/**
 * EndpointSlice (discovery.<domain>/v1, namespaced): a part of the endpoints of a service, with
 * top-level fields and no spec or status. The address type is fixed at creation; endpoints and
 * ports are atomic lists with Kubernetes' limits. `deprecatedTopology` can no longer be written
 * through v1: what a client sends there is dropped.
 */
import { isDeepStrictEqual } from 'node:util';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { parseIP } from '../../../machinery/ip.js';
import { isDns1123Label, isDns1123Subdomain, isValidLabelValue, nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type Infer, type ObjectOf } from '../../../schema/index.js';
import { ObjectReference, validateDns1123Label, validateNonSpecialIP, validateQualifiedName } from '../../core/v1/types/index.js';
import { endpointSliceTable } from './endpointslice-table.js';

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'] as const;
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'] as const;
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 100;
const MAX_ZONE_HINTS = 8;

export const EndpointConditions = t.struct('discovery.v1.EndpointConditions', {
  ready: t.field(1, t.bool(), {
    pointer: true,
    description: 'Whether the endpoint can receive traffic. Unset means unknown and should be taken as ready. Never true for a terminating endpoint.',
  }),
  serving: t.field(2, t.bool(), {
    pointer: true,
    description: 'Like ready, but also set while terminating: true for a ready endpoint that is terminating. Unset means: use ready.',
  }),
  terminating: t.field(3, t.bool(), { pointer: true, description: 'Whether the endpoint is terminating. Unset means it is not.' }),
}, { description: 'The current state of an endpoint.' });

export const ForZone = t.struct('discovery.v1.ForZone', {
  name: t.required(1, t.string(), { always: true, description: 'The name of the zone.' }),
}, { description: 'A zone an endpoint should serve.' });

export const EndpointHints = t.struct('discovery.v1.EndpointHints', {
  forZones: t.field(1, t.list(ForZone, { listType: 'atomic' }), { description: 'The zones the endpoint should serve for topology-aware routing (at most 8).' }),
}, { description: 'Hints on how an endpoint should be used.' });

export const Endpoint = t.struct('discovery.v1.Endpoint', {
  addresses: t.required(1, t.list(t.string(), { listType: 'set' }), {
    always: true,
    description: 'The addresses of the endpoint, read as the slice addressType says: 1 to 100, interchangeable.',
  }),
  conditions: t.field(2, EndpointConditions, { description: 'The current state of the endpoint.' }),
  hostname: t.field(3, t.string(), {
    pointer: true,
    description: 'The host name of the endpoint, a lowercase DNS label (RFC 1123); endpoints with the same host name are interchangeable.',
  }),
  targetRef: t.field(4, ObjectReference, { pointer: true, description: 'The object the endpoint stands for (usually a pod).' }),
  deprecatedTopology: t.field(5, t.map(t.string()), {
    description: 'Topology of the endpoint as labels. Deprecated and read-only through v1: writes are ignored. Goes with the old version.',
  }),
  nodeName: t.field(6, t.string(), { pointer: true, description: 'The node hosting the endpoint.' }),
  zone: t.field(7, t.string(), { pointer: true, description: 'The zone the endpoint is in.' }),
  hints: t.field(8, EndpointHints, { pointer: true, description: 'Hints on how the endpoint should be used.' }),
}, { description: 'One endpoint of a service.' });
export type Endpoint = Infer<typeof Endpoint>;

export const EndpointPort = t.struct('discovery.v1.EndpointPort', {
  name: t.field(1, t.string(), {
    pointer: true,
    description: 'The port name: empty, or a DNS_LABEL (at most 63 lowercase letters, digits or -, starting and ending with a letter or digit); unique in the slice. Equals the service port name for slices made from a service.',
  }),
  protocol: t.field(2, t.string({ enum: PROTOCOLS }), { pointer: true, description: 'TCP, UDP or SCTP. Default TCP.' }),
  port: t.field(3, t.int32(), { pointer: true, description: 'The port number; unset means no restriction.' }),
  appProtocol: t.field(4, t.string(), {
    pointer: true,
    description: 'The application protocol of the port, as a label-style name: unprefixed IANA standard service names, or prefixed ones like mycompany.com/my-protocol.',
  }),
}, { structType: 'atomic', description: 'A port of the endpoints of a slice.' });
export type EndpointPort = Infer<typeof EndpointPort>;

export const EndpointSliceSchema = t.struct('discovery.v1.EndpointSlice', {
  ...objectHeader,
  addressType: t.required(4, t.string({ enum: ADDRESS_TYPES }), {
    always: true,
    description: 'The type of every address of the slice: IPv4, IPv6 or FQDN. Cannot change after creation.',
  }),
  endpoints: t.required(2, t.list(Endpoint, { listType: 'atomic' }), { always: true, description: 'The endpoints of the slice, at most 1000.' }),
  ports: t.field(3, t.list(EndpointPort, { listType: 'atomic' }), {
    always: true,
    description: 'The ports of every endpoint of the slice, at most 100, names unique. Empty: no ports are specified. A port without a number means all ports.',
  }),
}, { description: 'A subset of the endpoints implementing a service; the slices selected by a service together hold all its endpoints.' });
export type EndpointSlice = ObjectOf<typeof EndpointSliceSchema>;

function validateAddress(address: string, addressType: string, path: FieldPath): FieldError[] {
  switch (addressType) {
    case 'IPv4':
    case 'IPv6': {
      const errs = parseIP(address)?.family === addressType ? [] : [fieldErr.invalid(path, address, `must be a valid ${addressType} address`)];
      return [...errs, ...validateNonSpecialIP(address, path)];
    }
    case 'FQDN':
      return validateFQDN(address, path);
    default:
      // Unknown types are reported on addressType; their addresses are not judged.
      return [];
  }
}

/** A fully qualified domain name: a DNS subdomain of at least two labels, with an optional trailing dot. */
function validateFQDN(value: string, path: FieldPath): FieldError[] {
  if (!value) return [fieldErr.required(path)];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const sub = isDns1123Subdomain(name);
  if (sub.length) return [fieldErr.invalid(path, name, sub.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) return [fieldErr.invalid(path, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const bad = isDns1123Label(label);
    if (bad.length) return [fieldErr.invalid(path, label, bad.join(','))];
  }
  return [];
}

function validateEndpoints(slice: EndpointSlice): FieldError[] {
  const path = FieldPath.root('endpoints');
  const endpoints = slice.endpoints ?? [];
  if (endpoints.length > MAX_ENDPOINTS) return [fieldErr.tooMany(path, endpoints.length, MAX_ENDPOINTS)];
  const errs: FieldError[] = [];
  endpoints.forEach((ep, i) => {
    const p = path.index(i);
    const addrPath = p.child('addresses');
    const addresses = ep.addresses ?? [];
    if (addresses.length === 0) errs.push(fieldErr.required(addrPath, 'must contain at least 1 address'));
    else if (addresses.length > MAX_ADDRESSES) errs.push(fieldErr.tooMany(addrPath, addresses.length, MAX_ADDRESSES));
    addresses.forEach((a, j) => errs.push(...validateAddress(a, slice.addressType, addrPath.index(j))));
    if (ep.nodeName !== undefined) {
      for (const m of nameValidators.dnsSubdomain(ep.nodeName, false)) errs.push(fieldErr.invalid(p.child('nodeName'), ep.nodeName, m));
    }
    if (ep.hostname !== undefined) errs.push(...validateDns1123Label(ep.hostname, p.child('hostname')));
    if (ep.hints) errs.push(...validateHints(ep.hints.forZones ?? [], p.child('hints').child('forZones')));
  });
  return errs;
}

function validateHints(zones: { name: string }[], path: FieldPath): FieldError[] {
  if (zones.length > MAX_ZONE_HINTS) return [fieldErr.tooMany(path, zones.length, MAX_ZONE_HINTS)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  zones.forEach((z, i) => {
    const p = path.index(i).child('name');
    if (seen.has(z.name)) errs.push(fieldErr.duplicate(p, z.name));
    seen.add(z.name);
    for (const m of isValidLabelValue(z.name)) errs.push(fieldErr.invalid(p, z.name, m));
  });
  return errs;
}

function validatePorts(slice: EndpointSlice): FieldError[] {
  const path = FieldPath.root('ports');
  const ports = slice.ports ?? [];
  if (ports.length > MAX_PORTS) return [fieldErr.tooMany(path, ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = path.index(i);
    const name = port.name ?? '';
    if (name) errs.push(...validateDns1123Label(name, p.child('name')));
    if (names.has(name)) errs.push(fieldErr.duplicate(p.child('name'), name));
    names.add(name);
    if (port.protocol === undefined) errs.push(fieldErr.required(p.child('protocol')));
    else if (!(PROTOCOLS as readonly string[]).includes(port.protocol)) errs.push(fieldErr.notSupported(p.child('protocol'), port.protocol, PROTOCOLS));
    if (port.appProtocol !== undefined) errs.push(...validateQualifiedName(port.appProtocol, p.child('appProtocol')));
  });
  return errs;
}

function validateEndpointSlice(slice: EndpointSlice): FieldError[] {
  const errs: FieldError[] = [];
  const typePath = FieldPath.root('addressType');
  if (!slice.addressType) errs.push(fieldErr.required(typePath));
  else if (!(ADDRESS_TYPES as readonly string[]).includes(slice.addressType)) errs.push(fieldErr.notSupported(typePath, slice.addressType, ADDRESS_TYPES));
  return [...errs, ...validateEndpoints(slice), ...validatePorts(slice)];
}

/** Writes to deprecatedTopology through v1 are ignored, as documented for the field. */
function dropDeprecatedTopology(slice: EndpointSlice): void {
  for (const ep of slice.endpoints ?? []) delete ep.deprecatedTopology;
}

export const endpointSliceResource = defineResource<EndpointSlice>((names) => ({
  group: names.group('discovery'),
  version: 'v1',
  kind: 'EndpointSlice',
  resource: 'endpointslices',
  singular: 'endpointslice',
  namespaced: true,
  schema: EndpointSliceSchema,
  table: endpointSliceTable,
  fixture: () => ({ addressType: 'IPv4', endpoints: [{ addresses: ['10.1.2.3'] }], ports: [{ name: 'http', port: 80 }] }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults(slice) {
      for (const port of slice.ports ?? []) {
        port.name ??= '';
        port.protocol ??= 'TCP';
      }
    },
    prepareForCreate: dropDeprecatedTopology,
    prepareForUpdate(slice, old) {
      dropDeprecatedTopology(slice);
      // Consumers follow slices by generation; a change of labels moves a slice between services.
      if (!isDeepStrictEqual(slice.metadata.labels ?? {}, old.metadata.labels ?? {})) slice.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
    validate: validateEndpointSlice,
    validateUpdate: (slice, old) => (slice.addressType !== old.addressType ? [fieldErr.immutable('addressType', slice.addressType)] : []),
  },
}));
