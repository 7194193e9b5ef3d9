/**
 * The Service type (core/v1) as Kubernetes 1.25 defines it: field order, list and map markers,
 * patch strategies and protobuf numbers from k8s.io/api core/v1 types.go and generated.proto.
 */
import { Condition, objectHeader, t, type Infer, type ObjectOf } from '../../../../schema/index.js';

export const PROTOCOLS = ['SCTP', 'TCP', 'UDP'] as const;
export const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'] as const;
export const IP_FAMILIES = ['IPv4', 'IPv6'] as const;
export const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'] as const;
export const SESSION_AFFINITIES = ['ClientIP', 'None'] as const;
export const TRAFFIC_POLICIES = ['Cluster', 'Local'] as const;

export const ClientIPConfig = t.struct('core.v1.ClientIPConfig', {
  timeoutSeconds: t.field(1, t.int32(), {
    pointer: true,
    description: 'How long a client sticks to the same endpoint, in seconds: more than 0 and at most 86400 (1 day). Default 10800 (3 hours).',
  }),
}, { description: 'Session affinity by client IP.' });

export const SessionAffinityConfig = t.struct('core.v1.SessionAffinityConfig', {
  clientIP: t.field(1, ClientIPConfig, { pointer: true, description: 'The configuration of affinity by client IP.' }),
}, { description: 'The configuration of session affinity.' });

export const ServicePort = t.struct('core.v1.ServicePort', {
  name: t.field(1, t.string(), {
    description: 'The name of this port in the service: a DNS_LABEL, unique within the spec; required when the service has more than one port. Endpoints carry it as their port name.',
  }),
  protocol: t.field(2, t.string({ enum: PROTOCOLS }), { default: 'TCP', description: 'TCP, UDP or SCTP. Default TCP.' }),
  appProtocol: t.field(6, t.string(), {
    pointer: true,
    description: 'The application protocol of this port, as a label-style name: unprefixed names are IANA standard service names (RFC 6335), others are prefixed like mycompany.com/my-protocol.',
  }),
  port: t.required(3, t.int32(), { always: true, description: 'The port the service exposes.' }),
  targetPort: t.field(4, t.intOrString(), {
    always: true,
    description: "The port on the selected pods: a number from 1 to 65535, or the name (IANA_SVC_NAME) of a container port. Defaults to `port`. Ignored for headless services (clusterIP None).",
  }),
  nodePort: t.field(5, t.int32(), {
    description: 'The port on every node for types NodePort and LoadBalancer; allocated from the node port range when unset. A requested value must be in range and free. Erased when no longer needed.',
  }),
}, { description: 'A port a service exposes.' });
export type ServicePort = Infer<typeof ServicePort>;

export const ServiceSpec = t.struct('core.v1.ServiceSpec', {
  ports: t.field(1, t.list(ServicePort, { listType: 'map', listMapKeys: ['port', 'protocol'], patchStrategy: 'merge', patchMergeKey: 'port' }), {
    description: 'The ports the service exposes.',
  }),
  selector: t.field(2, t.map(t.string(), { mapType: 'atomic' }), {
    description: 'Traffic goes to pods whose labels match. Empty or absent: endpoints are managed by someone else. Used by ClusterIP, NodePort and LoadBalancer; ignored for ExternalName.',
  }),
  clusterIP: t.field(3, t.string(), {
    description: "The service's IP, usually allocated; a requested one must be in the service range and free. None makes a headless service. Cannot change, except to or from ExternalName (which needs it empty).",
  }),
  clusterIPs: t.field(18, t.list(t.string(), { listType: 'atomic' }), {
    description: 'The IPs of the service, at most one per family (two at most), matching ipFamilies; the first equals clusterIP. Filled from clusterIP when unset.',
  }),
  type: t.field(4, t.string({ enum: SERVICE_TYPES }), {
    description: 'ClusterIP (default): a cluster-internal IP. NodePort: also a port on every node. LoadBalancer: also an external load balancer where the cloud supports one. ExternalName: a DNS alias of externalName.',
  }),
  externalIPs: t.field(5, t.list(t.string(), { listType: 'atomic' }), {
    description: 'IPs on which nodes also accept traffic for the service. Not managed by the cluster.',
  }),
  sessionAffinity: t.field(7, t.string({ enum: SESSION_AFFINITIES }), { description: 'ClientIP sends each client to the same endpoint; None (default) does not.' }),
  loadBalancerIP: t.field(8, t.string(), {
    description: 'Deprecated since 1.24: the IP a LoadBalancer service asks its load balancer for; ignored where unsupported. Implementations use their own annotations instead.',
  }),
  loadBalancerSourceRanges: t.field(9, t.list(t.string(), { listType: 'atomic' }), {
    description: 'CIDRs of the clients a cloud load balancer lets through; ignored where unsupported. LoadBalancer only.',
  }),
  externalName: t.field(10, t.string(), { description: 'The DNS name (a lowercase RFC 1123 host name) an ExternalName service aliases.' }),
  externalTrafficPolicy: t.field(11, t.string({ enum: TRAFFIC_POLICIES }), {
    description: 'For traffic from outside: Local keeps the client IP and sends to node-local endpoints only; Cluster (default) spreads over all endpoints and hides the client IP.',
  }),
  healthCheckNodePort: t.field(12, t.int32(), {
    description: 'The health-check node port of a LoadBalancer service with externalTrafficPolicy Local; allocated when unset. Not allowed otherwise.',
  }),
  publishNotReadyAddresses: t.field(13, t.bool(), { description: 'Endpoints count every pod as ready, whatever its readiness.' }),
  sessionAffinityConfig: t.field(14, SessionAffinityConfig, { pointer: true, description: 'The configuration of session affinity.' }),
  ipFamilies: t.field(19, t.list(t.string({ enum: IP_FAMILIES }), { listType: 'atomic' }), {
    description: 'The IP families (IPv4, IPv6) of the service, at most two; filled from the cluster configuration and ipFamilyPolicy. The first cannot change; a second may be added or removed.',
  }),
  ipFamilyPolicy: t.field(17, t.string({ enum: IP_FAMILY_POLICIES }), {
    pointer: true,
    description: 'SingleStack (default), PreferDualStack (two families when the cluster has them) or RequireDualStack (two families or failure).',
  }),
  allocateLoadBalancerNodePorts: t.field(20, t.bool(), {
    pointer: true,
    description: 'Whether a LoadBalancer service gets node ports allocated (default true). Requested node ports are honored anyway. LoadBalancer only.',
  }),
  loadBalancerClass: t.field(21, t.string(), {
    pointer: true,
    description: 'The load balancer implementation for a LoadBalancer service, as a label-style name; unprefixed names are reserved for end users. Cannot change once set.',
  }),
  internalTrafficPolicy: t.field(22, t.string({ enum: TRAFFIC_POLICIES }), {
    pointer: true,
    description: 'For traffic from inside the cluster: Cluster (default) uses all endpoints; Local uses node-local endpoints only and drops traffic when there are none.',
  }),
}, { description: 'What the service should be.' });
export type ServiceSpec = Infer<typeof ServiceSpec>;

export const PortStatus = t.struct('core.v1.PortStatus', {
  port: t.required(1, t.int32(), { always: true, description: 'The port number of the service port.' }),
  protocol: t.required(2, t.string({ enum: PROTOCOLS }), { always: true, description: 'TCP, UDP or SCTP.' }),
  error: t.field(3, t.string(), {
    pointer: true,
    description: 'Why the port failed, if it did: CamelCase for built-in reasons, foo.example.com/CamelCase for implementation-specific ones.',
  }),
}, { description: 'The state of one service port on a load balancer.' });

export const LoadBalancerIngress = t.struct('core.v1.LoadBalancerIngress', {
  ip: t.field(1, t.string(), { description: 'The IP of an IP-based load balancer.' }),
  hostname: t.field(2, t.string(), { description: 'The host name of a DNS-based load balancer.' }),
  ports: t.field(4, t.list(PortStatus, { listType: 'atomic' }), { description: 'The state of the service ports; when set, every service port is listed.' }),
}, { description: 'A point where traffic for the service enters.' });

export const LoadBalancerStatus = t.struct('core.v1.LoadBalancerStatus', {
  ingress: t.field(1, t.list(LoadBalancerIngress, { listType: 'atomic' }), { description: 'Where traffic for the service is sent.' }),
}, { description: 'The state of a load balancer.' });

export const ServiceStatus = t.struct('core.v1.ServiceStatus', {
  loadBalancer: t.field(1, LoadBalancerStatus, { description: 'The state of the load balancer, if any.' }),
  conditions: t.field(2, t.list(Condition, { listType: 'map', listMapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }), {
    description: 'The latest observations of the state of the service.',
  }),
}, { description: 'What the service is, as last observed.' });

export const ServiceSchema = t.struct('core.v1.Service', {
  ...objectHeader,
  spec: t.field(2, ServiceSpec, { description: 'What the service should be.' }),
  status: t.field(3, ServiceStatus, { description: 'What the service is, as last observed. Read-only; written through /status.' }),
}, { description: 'A named abstraction of a software service: ports a proxy listens on and a selector choosing the pods that answer.' });
export type Service = ObjectOf<typeof ServiceSchema>;
