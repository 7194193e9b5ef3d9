/**
 * The composition root: the only place that constructs the store backend, the cache, admission,
 * the registry, controllers and the HTTP listener. `createServer` returns a running server.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { defaultIngressClass } from '../admission/plugins/default-ingress-class/index.js';
import { namespaceLifecycle } from '../admission/plugins/namespace-lifecycle/index.js';
import { admissionChain } from '../admission/types.js';
import { builtinResources } from '../apis/index.js';
import { InProcessClient } from '../client/in-process-client.js';
import { startCompactor, type Compactor } from '../storage/compactor.js';
import { startGarbageCollector } from '../controllers/garbage-collector/index.js';
import { startNamespaceController, type NamespaceController } from '../controllers/namespace/index.js';
import { buildDiscovery } from '../endpoints/discovery.js';
import { createResourceRouter } from '../endpoints/installer.js';
import { createOpenApiDocuments, createOpenApiHandler } from '../endpoints/openapi/index.js';
import { parseRequestInfo } from '../endpoints/request-info.js';
import { versionInfo } from '../endpoints/version.js';
import { createApiNames, type ApiNames } from '../machinery/api-names.js';
import { isStatusError } from '../machinery/errors.js';
import type { KindEnvironment } from '../registry/define-resource.js';
import { createServiceAllocators, parseServiceRanges } from '../registry/allocator/index.js';
import { GenericStore } from '../registry/generic-store.js';
import { ResourceListers } from '../registry/lister.js';
import { ResourceRegistry } from '../registry/registry.js';
import { parseRuntimeConfig } from '../registry/runtime-config.js';
import { WatchCache } from '../storage/cacher/cache.js';
import { registerWatchCacheMetrics } from '../storage/cacher/cache-metrics.js';
import type { RevisionedKV } from '../storage/kv.js';
import { createEtcdKV } from '../storage/etcd/etcd-kv.js';
import { createMemoryKV } from '../storage/memory/memory-kv.js';
import { createSqliteKV } from '../storage/sqlite/sqlite-kv.js';
import { reviewAnswerers, type ReviewAnswerers } from '../authz/reviews.js';
import type { Answerer } from '../endpoints/resource-endpoint.js';
import { rbacEscalationGuard } from '../authz/rbac/escalation-guard.js';
import { unsecuredAuthenticator } from '../authn/unsecured.js';
import { createAuthorization, loadAuthorizationConfig, rbacListersOf } from './authorization.js';
import { ensureRbacPolicy } from './ensure-rbac-policy.js';
import { startClusterRoleAggregationController } from '../controllers/clusterrole-aggregation/index.js';
import { buildChain } from './chain.js';
import { kubeconfigFor } from './kubeconfig.js';
import { createLogger } from './logger.js';
import { createApiMetrics } from './metrics.js';
import { DEFAULTS, type ServerOptions } from './options.js';
import { createRequestListener } from './request-listener.js';
import { createRouter } from './routes.js';
import { PACKAGE_VERSION } from './package-version.js';

export interface OrchServer {
  /** `http://host:port` of the listener. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly names: ApiNames;
  readonly storageBackend: RevisionedKV['backend'];
  /** A kubeconfig pointing at this server. */
  kubeconfig(): string;
  close(): Promise<void>;
}

/** Key prefix of every stored object; other prefixes are free for internal state (allocators). */
export const REGISTRY_PREFIX = '/registry/';

function keyPrefixOf(group: string, resource: string): string {
  return `${REGISTRY_PREFIX}${group || 'core'}/${resource}/`;
}

export async function createServer(options: ServerOptions = {}): Promise<OrchServer> {
  const names = createApiNames(options.apiDomain ?? DEFAULTS.apiDomain);
  const log = options.logger ?? createLogger(options.logLevel ?? 'info');
  // Flags are checked before the store opens, so a bad range leaves nothing open behind it.
  const serviceRanges = parseServiceRanges(options);
  const authorizationConfig = await loadAuthorizationConfig(options, names);
  const kv = await openStore(options);
  const runtimeConfig = parseRuntimeConfig(options.runtimeConfig);
  const cache = new WatchCache(kv, options.watchCache);

  const registry = new ResourceRegistry();
  let namespaceStore: GenericStore | undefined;
  // Storage versions (hubs) by group/resource, filled below; every reader of stored objects reads
  // them through a lister (made now, bound to its store on first use).
  const hubs = new Map<string, GenericStore>();
  const listers = new ResourceListers(cache, hubs, log);
  const authorization = createAuthorization(authorizationConfig, names, listers);
  const admission = admissionChain([
    // Not a plugin a flag can turn off: Kubernetes' RBAC storage refuses these writes before admission.
    rbacEscalationGuard({ rbacGroup: names.group('rbac.authorization'), authorizer: authorization.authorizer, rules: authorization.rbac }),
    namespaceLifecycle(names, listers.for('', 'namespaces')),
    defaultIngressClass(names, listers.for(names.group('networking'), 'ingressclasses')),
  ]);

  const serviceAllocators = createServiceAllocators({ kv, servicesPrefix: keyPrefixOf('', 'services'), ...serviceRanges });
  const env: KindEnvironment = { names, serviceAllocators };
  const definitions = [...builtinResources, ...(options.resources ?? [])].map((factory) => factory(names, env));
  // Storage versions (hubs) first: every other served version of a kind shares its hub's store.
  for (const def of definitions.filter((d) => !d.conversion)) {
    const prefix = keyPrefixOf(def.group, def.resource);
    const store = new GenericStore({ def, names, kv, cache, admission, prefix });
    hubs.set(`${def.group}/${def.resource}`, store);
    if (def.group === '' && def.resource === 'namespaces') namespaceStore = store;
    cache.register(prefix, store.makeEntry, { group: def.group, version: def.version, kind: def.kind, resource: def.resource });
  }
  for (const def of definitions) {
    if (!runtimeConfig.isEnabled(def.group, def.version, def.resource)) continue;
    const stored = def.storedAs ?? def;
    const store = hubs.get(`${stored.group}/${stored.resource}`);
    if (!store) throw new Error(`${def.group}/${def.version} ${def.kind} converts to a storage version that is not defined`);
    registry.add({ def, store });
  }
  await cache.start(REGISTRY_PREFIX);

  const client = new InProcessClient(registry, hubs);
  const controllers: { stop(): void }[] = [];
  let namespaceController: NamespaceController | undefined;
  if (namespaceStore) {
    await ensureNamespaces(client, ['default', names.systemNamespace, names.publicNamespace, names.nodeLeaseNamespace]);
    namespaceController = startNamespaceController({ client, registry, names, log });
    controllers.push(namespaceController);
  }
  await ensureRbacPolicy(client, names, log);
  controllers.push(startClusterRoleAggregationController({ client, clusterRoles: rbacListersOf(listers, names).clusterRoles, rbacGroup: names.group('rbac.authorization'), log }));
  controllers.push(startGarbageCollector({ client, registry, log }));
  const compactor: Compactor = startCompactor({ kv, cache, windowMs: options.watchHistoryMs ?? DEFAULTS.watchHistoryMs, log });
  controllers.push(compactor);

  const metrics = createApiMetrics();
  registerWatchCacheMetrics(metrics.registry, cache);
  const settings = {
    maxRequestBodyBytes: options.maxRequestBodyBytes ?? DEFAULTS.maxRequestBodyBytes,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? DEFAULTS.minRequestTimeoutSeconds,
  };
  const storageCheck = { name: 'etcd', check: async () => void (await kv.currentRevision()) };
  const version = versionInfo(PACKAGE_VERSION);
  const router = createRouter({
    discovery: buildDiscovery(registry),
    apiDiscoveryGroup: names.group('apidiscovery'),
    version,
    openapi: createOpenApiHandler(createOpenApiDocuments(registry, names, { version: version.gitVersion ?? '' })),
    health: {
      livez: [{ name: 'ping', check: async () => undefined }, { name: 'log', check: async () => undefined }, storageCheck],
      readyz: [
        { name: 'ping', check: async () => undefined },
        { name: 'log', check: async () => undefined },
        storageCheck,
        { name: 'informer-sync', check: async () => cache.syncWithStore() },
      ],
    },
    metrics,
    routeResource: createResourceRouter(
      registry,
      names,
      settings,
      (r) => metrics.deprecatedApis.set({ group: r.group, version: r.version, resource: r.resource, subresource: r.subresource, removed_release: r.removedRelease }, 1),
      answerersOf(names, reviewAnswerers(authorization.authorizer)),
    ),
  });
  const chain = buildChain({
    log,
    metrics,
    resolveRequestInfo: parseRequestInfo,
    requestTimeoutSeconds: options.requestTimeoutSeconds ?? DEFAULTS.requestTimeoutSeconds,
    // Plain HTTP, as Kubernetes' old insecure port: every caller is system:unsecured in system:masters.
    authenticator: unsecuredAuthenticator(),
    authorizer: authorization.authorizer,
    authenticationGroup: names.group('authentication'),
  });
  const http: Server = createHttpServer(createRequestListener({ chain, handler: router, log, protobufMediaType: names.protobufMediaType }));
  http.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.bindAddress ?? DEFAULTS.bindAddress, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    host: address.address,
    port: address.port,
    names,
    storageBackend: kv.backend,
    kubeconfig: () => kubeconfigFor(url),
    close() {
      closing ??= (async () => {
        for (const c of controllers) c.stop();
        cache.close();
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeAllConnections();
        });
        await kv.close();
      })();
      return closing;
    },
  };
}

/** The access reviews' answers, by the group/resource of the kinds they answer. */
function answerersOf(names: ApiNames, reviews: ReviewAnswerers): Map<string, Answerer> {
  const group = names.group('authorization');
  return new Map<string, Answerer>([
    [`${group}/subjectaccessreviews`, reviews.subjectAccessReview],
    [`${group}/localsubjectaccessreviews`, reviews.localSubjectAccessReview],
    [`${group}/selfsubjectaccessreviews`, reviews.selfSubjectAccessReview],
    [`${group}/selfsubjectrulesreviews`, reviews.selfSubjectRulesReview],
  ]);
}

async function openStore(options: ServerOptions): Promise<RevisionedKV> {
  const backend = options.storageBackend ?? (options.dataDir ? 'sqlite' : 'memory');
  switch (backend) {
    case 'sqlite':
      if (!options.dataDir) throw new Error('the sqlite storage backend needs a data directory (--data-dir)');
      return createSqliteKV({ path: join(options.dataDir, 'state.db') });
    case 'etcd':
      if (!options.etcdServers?.length) throw new Error('the etcd storage backend needs the etcd servers (--etcd-servers)');
      return createEtcdKV({ endpoints: [...options.etcdServers], ...(options.etcdPrefix !== undefined ? { prefix: options.etcdPrefix } : {}) });
    case 'memory':
      return createMemoryKV();
  }
}

async function ensureNamespaces(client: InProcessClient, names: string[]): Promise<void> {
  const namespaces = client.resource('', 'namespaces');
  for (const name of names) {
    if (await namespaces.get('', name)) continue;
    try {
      await namespaces.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, spec: {}, status: {} });
    } catch (e) {
      if (!isStatusError(e, 'AlreadyExists')) throw e;
    }
  }
}
