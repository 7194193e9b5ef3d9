/**
 * Where a webhook's Service is served: the Service's port with the configured number, then a ready
 * endpoint of its EndpointSlices (labelled `<label domain>/service-name`) offering the port of the
 * same name, with Kubernetes' errors when there is none.
 */
import type { ApiNames } from '../../machinery/api-names.js';
import { errors } from '../../machinery/errors.js';
import type { Lister } from '../../machinery/lister.js';

export interface ServiceInfo {
  metadata: { name?: string };
  spec?: { type?: string; ports?: readonly { name?: string; port: number }[] };
}

export interface EndpointSliceInfo {
  metadata: { labels?: Record<string, string> };
  addressType?: string;
  endpoints?: readonly { addresses?: readonly string[]; conditions?: { ready?: boolean } }[];
  ports?: readonly { name?: string; port?: number }[];
}

export interface ServiceResolver {
  /** `host:port` of one endpoint of the service (IPv6 in brackets); throws a StatusError when there is none. */
  resolve(namespace: string, name: string, port: number, signal: AbortSignal): Promise<string>;
}

const ROUTABLE_TYPES = new Set(['ClusterIP', 'NodePort', 'LoadBalancer']);

export function endpointSliceServiceResolver(names: ApiNames, services: Lister<ServiceInfo>, slices: Lister<EndpointSliceInfo>): ServiceResolver {
  const serviceLabel = names.labelKey('service-name');
  return {
    async resolve(namespace, name, port, signal) {
      let svc = services.get(namespace, name);
      if (!svc) {
        await services.synced(signal);
        svc = services.get(namespace, name);
      }
      if (!svc) throw errors.notFound({ group: '', resource: 'services' }, name);
      const type = svc.spec?.type ?? 'ClusterIP';
      if (!ROUTABLE_TYPES.has(type)) throw new Error(`unsupported service type "${type}"`);
      const svcPort = (svc.spec?.ports ?? []).find((p) => p.port === port);
      if (!svcPort) throw errors.serviceUnavailable(`no service port ${port} found for service "${name}"`);
      const portName = svcPort.name ?? '';
      const candidates: string[] = [];
      for (const slice of slices.list(namespace)) {
        if (slice.metadata.labels?.[serviceLabel] !== name) continue;
        if (slice.addressType !== 'IPv4' && slice.addressType !== 'IPv6') continue;
        const target = (slice.ports ?? []).find((p) => (p.name ?? '') === portName);
        if (!target?.port) continue;
        for (const ep of slice.endpoints ?? []) {
          if (ep.conditions?.ready === false) continue;
          const address = ep.addresses?.[0];
          if (address) candidates.push(slice.addressType === 'IPv6' ? `[${address}]:${target.port}` : `${address}:${target.port}`);
        }
      }
      const chosen = candidates[Math.floor(Math.random() * candidates.length)];
      if (!chosen) throw errors.serviceUnavailable(`no endpoints available for service "${name}"`);
      return chosen;
    },
  };
}
