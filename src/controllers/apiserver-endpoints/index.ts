/**
 * The `kubernetes` Service in `default` and its endpoints, kept by every server instance as
 * kube-apiserver's bootstrap controller and lease endpoint reconciler keep them: the Service (the
 * first IP of the service range, port 443 named `https`, target this server's port) is created if
 * missing; each instance renews a master lease for its own address (a Lease in the system
 * namespace, 15 s, renewed every 10 s) and writes the Endpoints `kubernetes` and the EndpointSlice
 * `kubernetes` with the addresses of every unexpired lease; expired leases are deleted, so a dead
 * instance's address goes. On stop an instance removes its own lease and address.
 *
 * Not leader-elected: every instance reconciles, and the writes converge (the same leases give
 * the same desired state).
 */
import type { InProcessClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import { isStatusError } from '../../machinery/errors.js';
import type { Logger } from '../../machinery/logger.js';
import type { KubeObject } from '../../schema/index.js';
import { endpointGroups, endpointSlices, endpointSubsets, isExpired, masterLeaseName, type MasterLease } from './desired.js';

export const MASTER_LEASE_TTL_MS = 15_000;
export const ENDPOINT_RECONCILE_INTERVAL_MS = 10_000;

export interface ApiserverEndpointsDeps {
  /** Acts as the server itself (kube-apiserver's loopback client). */
  client: InProcessClient;
  names: ApiNames;
  log: Logger;
  /** The address and port this instance is reached at. */
  ip: string;
  port: number;
  /** The `kubernetes` Service's cluster IP: the first address of the service range. */
  serviceIP: string;
}

export interface ApiserverEndpoints {
  /** One reconciliation now (tests, start-up). */
  reconcile(): Promise<void>;
  /** Removes this instance's lease and address, then stops. */
  stop(): Promise<void>;
}

const microTime = (d: Date): string => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** Starts the loop; resolves after the first pass (as kube-apiserver's post-start hook, the Service exists before the server is ready). */
export async function startApiserverEndpoints(deps: ApiserverEndpointsDeps): Promise<ApiserverEndpoints> {
  const { client, names, log, ip, port } = deps;
  const ns = names.systemNamespace;
  const leaseLabel = names.labelSubKey('apiserver', 'master-lease');
  const leases = client.resource(names.group('coordination'), 'leases');
  const services = client.resource('', 'services');
  const endpoints = client.resource('', 'endpoints');
  const slices = client.resource(names.group('discovery'), 'endpointslices');
  const ownLease = masterLeaseName(names.prefix, ip, port);
  let stopped = false;

  const ensureService = async (): Promise<void> => {
    if (await services.get('default', 'kubernetes')) return;
    await createQuietly(services, 'default', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: {
        type: 'ClusterIP',
        ...(deps.serviceIP ? { clusterIP: deps.serviceIP } : {}),
        ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: port }],
        sessionAffinity: 'None',
        internalTrafficPolicy: 'Cluster',
      },
    } as unknown as KubeObject);
  };

  const renewOwnLease = async (): Promise<void> => {
    const now = microTime(new Date());
    const spec = { holderIdentity: `${ip}:${port}`, leaseDurationSeconds: MASTER_LEASE_TTL_MS / 1000, renewTime: now };
    const existing = await leases.get(ns, ownLease);
    if (!existing) {
      await createQuietly(leases, ns, {
        apiVersion: `${names.group('coordination')}/v1`,
        kind: 'Lease',
        metadata: { name: ownLease, namespace: ns, labels: { [leaseLabel]: 'true' } },
        spec: { ...spec, acquireTime: now },
      } as unknown as KubeObject);
      return;
    }
    await leases.update(ns, ownLease, (cur) => {
      const lease = cur as KubeObject & { spec: Record<string, unknown> };
      lease.spec = { ...lease.spec, ...spec };
      return lease;
    });
  };

  /** The master leases stored now; the expired ones are deleted on the way. */
  const liveLeases = async (): Promise<MasterLease[]> => {
    const now = Date.now();
    const out: MasterLease[] = [];
    for (const obj of await leases.list(ns)) {
      if (obj.metadata.labels?.[leaseLabel] !== 'true') continue;
      const spec = (obj as KubeObject & { spec?: { holderIdentity?: string; renewTime?: string; leaseDurationSeconds?: number } }).spec ?? {};
      const holder = spec.holderIdentity ?? '';
      const cut = holder.lastIndexOf(':');
      const lease: MasterLease = {
        name: obj.metadata.name ?? '',
        ip: holder.slice(0, cut),
        port: Number(holder.slice(cut + 1)),
        renewedAt: Date.parse(spec.renewTime ?? '') || 0,
        durationMs: (spec.leaseDurationSeconds ?? 0) * 1000,
      };
      if (isExpired(lease, now) || !lease.ip || !Number.isInteger(lease.port)) {
        log.info('removing the expired master lease of an API server instance', { lease: lease.name, address: holder });
        await leases.delete(ns, lease.name, { preconditions: { uid: obj.metadata.uid ?? '' } }).catch(() => undefined);
        continue;
      }
      out.push(lease);
    }
    return out;
  };

  const writeEndpoints = async (live: MasterLease[]): Promise<void> => {
    const groups = endpointGroups(live, Date.now());
    const subsets = endpointSubsets(groups);
    const current = await endpoints.get('default', 'kubernetes');
    if (!current) {
      await createQuietly(endpoints, 'default', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'kubernetes', namespace: 'default' }, subsets } as unknown as KubeObject);
    } else if (JSON.stringify((current as { subsets?: unknown }).subsets ?? []) !== JSON.stringify(subsets)) {
      await endpoints.update('default', 'kubernetes', (cur) => ({ ...cur, subsets }) as KubeObject);
    }
    const wanted = endpointSlices(groups);
    const discovery = names.group('discovery');
    const serviceNameLabel = names.labelKey('service-name');
    for (const w of wanted) {
      const desired = {
        addressType: w.addressType,
        endpoints: w.ips.map((a) => ({ addresses: [a], conditions: { ready: true } })),
        ports: [{ name: 'https', port: w.port, protocol: 'TCP' }],
      };
      const existing = await slices.get('default', w.name);
      if (!existing) {
        await createQuietly(slices, 'default', {
          apiVersion: `${discovery}/v1`,
          kind: 'EndpointSlice',
          metadata: { name: w.name, namespace: 'default', labels: { [serviceNameLabel]: 'kubernetes' } },
          ...desired,
        } as unknown as KubeObject);
        continue;
      }
      const e = existing as unknown as Record<string, unknown>;
      if (JSON.stringify([e.addressType, e.endpoints, e.ports]) === JSON.stringify([desired.addressType, desired.endpoints, desired.ports])) continue;
      await slices.update('default', w.name, (cur) => ({ ...cur, ...desired }) as KubeObject);
    }
    // Slices of ports or families no longer served go.
    for (const s of await slices.list('default')) {
      const name = s.metadata.name ?? '';
      if (s.metadata.labels?.[serviceNameLabel] === 'kubernetes' && name.startsWith('kubernetes') && !wanted.some((w) => w.name === name)) await slices.delete('default', name);
    }
  };

  // Endpoints may not hold loopback addresses (Kubernetes' validation): a server reached only on
  // loopback keeps the Service but puts no address of its own into the endpoints.
  const loopback = /^127\./.test(ip) || ip === '::1';
  if (loopback) log.debug('the kubernetes Service gets no address from this instance: it is advertised on loopback (set --advertise-address)', { ip });

  const reconcile = async (): Promise<void> => {
    if (stopped) return;
    await ensureService();
    if (loopback) return;
    await renewOwnLease();
    await writeEndpoints(await liveLeases());
  };

  const run = (): Promise<void> =>
    reconcile().catch((e: unknown) => log.warn('the kubernetes Service endpoints could not be reconciled; retrying', { error: e instanceof Error ? e.message : String(e) }));
  await run();
  const timer = setInterval(() => void run(), ENDPOINT_RECONCILE_INTERVAL_MS);
  timer.unref();

  return {
    reconcile,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (loopback) return;
      try {
        await leases.delete(ns, ownLease);
        await writeEndpoints((await liveLeases()).filter((l) => l.name !== ownLease));
      } catch (e) {
        log.debug('removing this instance from the kubernetes endpoints failed', { error: e instanceof Error ? e.message : String(e) });
      }
    },
  };
}

async function createQuietly(rc: ReturnType<InProcessClient['resource']>, namespace: string, obj: KubeObject): Promise<void> {
  try {
    await rc.create(namespace, obj);
  } catch (e) {
    // Another instance made it an instant earlier.
    if (!isStatusError(e, 'AlreadyExists')) throw e;
  }
}
