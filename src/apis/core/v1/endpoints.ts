/**
 * Endpoints (core/v1): the addresses and ports behind a Service, the form that predates
 * EndpointSlice. Ports default to TCP; every address must be a usable IP; the subsets are stored
 * repacked (endpoints-repack.ts). A PUT to a missing Endpoints creates it, as in Kubernetes.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { isDns1123Subdomain, nameValidators } from '../../../machinery/name-validation.js';
import { age, ageColumn, column, defineResource, defineTable, nameColumn } from '../../../registry/define-resource.js';
import { objectHeader, t, type Infer, type ObjectOf } from '../../../schema/index.js';
import { repackSubsets } from './endpoints-repack.js';
import { PROTOCOLS } from './service/schema.js';
import { ObjectReference, portNumberProblems, validateDns1123Label, validateIP, validateNonSpecialIP, validateQualifiedName } from './types/index.js';

export const EndpointAddress = t.struct('core.v1.EndpointAddress', {
  ip: t.required(1, t.string(), { always: true, description: 'The IP of the endpoint; not loopback, link-local or link-local multicast.' }),
  hostname: t.field(3, t.string(), { description: 'The hostname of the endpoint.' }),
  nodeName: t.field(4, t.string(), { pointer: true, description: 'The node hosting the endpoint.' }),
  targetRef: t.field(2, ObjectReference, { pointer: true, description: 'The object behind the endpoint, usually a pod.' }),
}, { structType: 'atomic', description: 'One address of an endpoint.' });
export type EndpointAddress = Infer<typeof EndpointAddress>;

export const EndpointPort = t.struct('core.v1.EndpointPort', {
  name: t.field(1, t.string(), { description: "The port's name, matching a ServicePort's name; required when there are several ports." }),
  port: t.required(2, t.int32(), { always: true, description: 'The port number.' }),
  protocol: t.field(3, t.string({ enum: PROTOCOLS }), { description: 'TCP, UDP or SCTP. Default TCP.' }),
  appProtocol: t.field(4, t.string(), { pointer: true, description: 'The application protocol of the port, as a label-style name.' }),
}, { structType: 'atomic', description: 'One port of an endpoint.' });
export type EndpointPort = Infer<typeof EndpointPort>;

export const EndpointSubset = t.struct('core.v1.EndpointSubset', {
  addresses: t.field(1, t.list(EndpointAddress), { description: 'Addresses ready to serve the ports.' }),
  notReadyAddresses: t.field(2, t.list(EndpointAddress), { description: 'Addresses of endpoints not ready yet, or no longer ready.' }),
  ports: t.field(3, t.list(EndpointPort), { description: 'The ports every address of the subset serves.' }),
}, { description: 'A group of addresses that all serve the same ports.' });
export type EndpointSubset = Infer<typeof EndpointSubset>;

export const EndpointsSchema = t.struct('core.v1.Endpoints', {
  ...objectHeader,
  subsets: t.field(2, t.list(EndpointSubset), { description: 'The addresses and ports of the service, grouped by the ports they serve.' }),
}, { description: 'The endpoints behind a service: which addresses serve which ports.' });
export type Endpoints = ObjectOf<typeof EndpointsSchema>;

function validateAddress(a: EndpointAddress, path: FieldPath): FieldError[] {
  const errs = validateIP(a.ip, path.child('ip'));
  if (a.hostname) errs.push(...validateDns1123Label(a.hostname, path.child('hostname')));
  if (a.nodeName !== undefined) for (const m of isDns1123Subdomain(a.nodeName)) errs.push(fieldErr.invalid(path.child('nodeName'), a.nodeName, m));
  errs.push(...validateNonSpecialIP(a.ip, path.child('ip')));
  return errs;
}

function validatePort(p: EndpointPort, requireName: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !p.name) errs.push(fieldErr.required(path.child('name')));
  else if (p.name) errs.push(...validateDns1123Label(p.name, path.child('name')));
  for (const m of portNumberProblems(p.port)) errs.push(fieldErr.invalid(path.child('port'), p.port, m));
  if (!p.protocol) errs.push(fieldErr.required(path.child('protocol')));
  else if (!(PROTOCOLS as readonly string[]).includes(p.protocol)) errs.push(fieldErr.notSupported(path.child('protocol'), p.protocol, PROTOCOLS));
  if (p.appProtocol !== undefined) errs.push(...validateQualifiedName(p.appProtocol, path.child('appProtocol')));
  return errs;
}

function validateEndpoints(ep: Endpoints): FieldError[] {
  const errs: FieldError[] = [];
  (ep.subsets ?? []).forEach((ss, i) => {
    const path = FieldPath.root('subsets').index(i);
    if (!ss.addresses?.length && !ss.notReadyAddresses?.length) errs.push(fieldErr.required(path, 'must specify `addresses` or `notReadyAddresses`'));
    (ss.addresses ?? []).forEach((a, j) => errs.push(...validateAddress(a, path.child('addresses').index(j))));
    (ss.notReadyAddresses ?? []).forEach((a, j) => errs.push(...validateAddress(a, path.child('notReadyAddresses').index(j))));
    const ports = ss.ports ?? [];
    ports.forEach((p, j) => errs.push(...validatePort(p, ports.length > 1, path.child('ports').index(j))));
  });
  return errs;
}

function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** Up to three `ip:port` pairs (bare IPs for a subset without ports), then `+ N more...`; `<none>` without subsets. */
export function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (!subsets.length) return '<none>';
  const MAX = 3;
  const shown: string[] = [];
  let count = 0;
  let more = false;
  const add = (text: string): void => {
    if (shown.length === MAX) more = true;
    else shown.push(text);
  };
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    if (!ss.ports?.length) {
      count += addresses.length;
      for (const a of addresses) add(a.ip);
      continue;
    }
    for (const p of ss.ports) {
      count += addresses.length;
      for (const a of addresses) add(hostPort(a.ip, p.port));
    }
  }
  const text = shown.join(',');
  return more ? `${text} + ${count - MAX} more...` : text;
}

export const endpointsTable = defineTable<Endpoints>({
  columns: [nameColumn, column('Endpoints', 'The addresses and ports of the service.'), ageColumn],
  cells: (ep, ctx) => [ep.metadata.name ?? '', formatEndpoints(ep), age(ep, ctx)],
});

export const endpointsResource = defineResource<Endpoints>(() => ({
  group: '',
  version: 'v1',
  kind: 'Endpoints',
  resource: 'endpoints',
  singular: 'endpoints',
  namespaced: true,
  shortNames: ['ep'],
  schema: EndpointsSchema,
  table: endpointsTable,
  fixture: () => ({ subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ name: 'http', port: 80 }] }] }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    allowCreateOnUpdate: true,
    defaults(ep) {
      for (const ss of ep.subsets ?? []) for (const p of ss.ports ?? []) p.protocol ||= 'TCP';
    },
    validate: validateEndpoints,
    canonicalize(ep) {
      if (ep.subsets) ep.subsets = repackSubsets(ep.subsets);
    },
  },
}));
