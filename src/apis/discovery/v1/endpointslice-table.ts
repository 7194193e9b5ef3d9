/** EndpointSlice columns: ADDRESSTYPE, PORTS and ENDPOINTS (three of each, then how many more). */
import { age, ageColumn, column, defineTable, listWithMore, nameColumn } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/index.js';

type EndpointSliceShape = KubeObject & {
  addressType?: string;
  ports?: { port?: number | null; name?: string | null }[];
  endpoints?: { addresses?: string[] }[];
};

export const endpointSliceTable = defineTable<EndpointSliceShape>({
  columns: [
    nameColumn,
    column('AddressType', 'The type of the addresses: IPv4, IPv6 or FQDN'),
    column('Ports', 'The ports of the endpoints'),
    column('Endpoints', 'The addresses of the endpoints'),
    ageColumn,
  ],
  cells: (es, ctx) => [
    es.metadata.name ?? '',
    es.addressType ?? '',
    listWithMore((es.ports ?? []).map((p) => (typeof p.port === 'number' ? String(p.port) : p.name != null ? p.name : '*'))),
    listWithMore((es.endpoints ?? []).flatMap((e) => e.addresses ?? [])),
    age(es, ctx),
  ],
});
