/**
 * The composition root: the only place that constructs the store backend, the cache, admission,
 * the registry, controllers and the HTTP listener. `createServer` returns a running server.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { buildAdmissionPlugins } from '../admission/build.js';
import { admissionChain } from '../admission/types.js';
import type { KubeObject } from '../schema/index.js';
import { deferredObjectWriter } from '../admission/object-writer.js';
import { builtinResources } from '../apis/index.js';
import { InProcessClient } from '../client/in-process-client.js';
import { startCompactor, type Compactor } from '../storage/compactor.js';
import { loadControllerSettings, startControllers } from './controller-manager.js';
import { startApiserverEndpoints } from '../controllers/apiserver-endpoints/index.js';
import { startCrdController } from '../controllers/crd-status/index.js';
import type { CustomResourceDefinition } from '../apis/apiextensions/index.js';
import { buildDiscovery } from '../endpoints/discovery.js';
import { createResourceRouter } from '../endpoints/installer.js';
import { createOpenApiDocuments, createOpenApiHandler } from '../endpoints/openapi/index.js';
import { parseRequestInfo } from '../endpoints/request-info.js';
import { versionInfo } from '../endpoints/version.js';
import { listen } from '../http/listener.js';
import { createApiNames, type ApiNames } from '../machinery/api-names.js';
import { isStatusError } from '../machinery/errors.js';
import type { KindEnvironment } from '../registry/define-resource.js';
import type { Pod } from '../apis/core/v1/pod.js';
import type { Secret } from '../apis/core/v1/secret.js';
import type { ServiceAccount } from '../apis/core/v1/serviceaccount.js';
import { createServiceAllocators, parseServiceRanges } from '../registry/allocator/index.js';
import { GenericStore } from '../registry/generic-store.js';
import { ResourceListers } from '../registry/lister.js';
import { deferredListerSource, type ListerSource } from '../machinery/lister.js';
import { ResourceRegistry, type RegisteredResource } from '../registry/registry.js';
import { createResourceSets } from './resource-sets.js';
import { parseRuntimeConfig } from '../registry/runtime-config.js';
import { WatchCache } from '../storage/cacher/cache.js';
import { registerWatchCacheMetrics } from '../storage/cacher/cache-metrics.js';
import type { RevisionedKV } from '../storage/kv.js';
import { createEtcdKV } from '../storage/etcd/etcd-kv.js';
import { createMemoryKV } from '../storage/memory/memory-kv.js';
import { createSqliteKV } from '../storage/sqlite/sqlite-kv.js';
import type { Authorizer } from '../authz/index.js';
import { accessReviewer } from '../authz/reviews.js';
import { rbacEscalationGuard } from '../authz/rbac/escalation-guard.js';
import { createAuthorization, loadAuthorizationConfig } from './authorization.js';
import { ensureRbacPolicy } from './ensure-rbac-policy.js';
import { ensureSystemPriorityClasses } from './ensure-priority-classes.js';
import { buildAuthentication } from './authentication.js';
import { resolveServiceAccountSettings, serviceAccountTokens, type IssuerDiscovery, type ServiceAccountTokens } from '../authn/service-account/index.js';
import { createServerAuditor } from './audit.js';
import { buildChain } from './chain.js';
import { checkFlowControlOptions, startFlowControl } from './flow-control.js';
import { kubeconfigFor } from './kubeconfig.js';
import { advertisedAddress, isLoopback, localUrl } from './listen-address.js';
import { createLogger } from './logger.js';
import type { Logger } from '../machinery/logger.js';
import { createApiMetrics } from './metrics.js';
import { DEFAULTS, TLS_VERSION_NAMES, type ServerOptions } from './options.js';
import { createRequestListener } from './request-listener.js';
import { answerOutsideHandlers } from './transport-answers.js';
import { createRouter } from './routes.js';
import { claimStoreDomain, storeLocation } from './store-domain.js';
import { PACKAGE_VERSION } from './package-version.js';
import { loadServingMaterial, servingAltNames, trustedClientCas, type ServingMaterial } from './serving-certificates.js';

/** What a client needs to reach a secure server as its administrator. */
export interface ServerTls {
  /** PEM of the CA that signed the serving certificate; absent when the certificate came from `tlsCertFile`. */
  readonly caPem?: string;
  /** The administrator's client certificate and key (CN orch-admin, O system:masters), PEM; absent with an operator's `clientCaFile`. */
  readonly adminCertPem?: string;
  readonly adminKeyPem?: string;
  /**
   * `{ ca, cert, key }`: ready to spread into the options of `https.request`, `https.Agent`,
   * `http2.connect` and `tls.connect`, or to pass as `connect` to undici's `Agent` (a fetch dispatcher).
   */
  readonly clientOptions: { ca?: string; cert?: string; key?: string };
}

export interface OrchServer {
  /** `https://host:port` of the listener (`http://` in plain-HTTP mode); a wildcard bind address shows as loopback. */
  readonly url: string;
  /** The TLS material clients need; absent in plain-HTTP mode. */
  readonly tls?: ServerTls;
  readonly host: string;
  readonly port: number;
  readonly names: ApiNames;
  readonly storageBackend: RevisionedKV['backend'];
  /** A kubeconfig pointing at this server, with its CA and the administrator's credentials when there are. */
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
  checkFlowControlOptions(options);
  const authorizationConfig = await loadAuthorizationConfig(options, names);
  const controllerSettings = loadControllerSettings(options.controllerManager);
  const bindAddress = options.bindAddress ?? DEFAULTS.bindAddress;
  const material = await servingMaterial(options, bindAddress, serviceRanges.clusterIPRanges[0]?.valueAt(0) ?? '', log);
  // Files the authenticators read are checked before the store opens, so a bad one leaves nothing open.
  // Authenticators that read API objects get listers bound once the cache exists, below.
  const lateListers = deferredListerSource();
  const admissionWriter = deferredObjectWriter();
  const metrics = createApiMetrics();
  // Admission plugins are made (and their files checked) now; the certificate plugins ask the
  // authorizer, which exists once the store is open, before any request can reach them; the webhook
  // plugins read the served resources at call time, once `registry` below is filled.
  const lateAuthorizer = deferredAuthorizer();
  const admissionPlugins = buildAdmissionPlugins({
    options: options.admission,
    names,
    listers: lateListers,
    authorizer: lateAuthorizer,
    writer: admissionWriter,
    log,
    metrics: metrics.registry,
    servedResources: { all: () => registry.all() },
  });
  const saTokens = serviceAccountTokensFor(options, names, lateListers, material?.serving.keyPem, log);
  const authentication = buildAuthentication({
    options,
    log,
    names,
    listers: lateListers,
    ...(saTokens ? { serviceAccounts: { authenticators: saTokens.authenticators, apiAudiences: saTokens.apiAudiences } } : {}),
    ...(material ? { clientCaPem: material.clientCaPem, ...(material.requestheaderCaPem !== undefined ? { requestheaderCaPem: material.requestheaderCaPem } : {}) } : {}),
  });
  // The audit policy and webhook kubeconfig are checked before the store opens too.
  const auditor = createServerAuditor(options.audit, names, log, metrics.registry);
  const kv = await openStore(options);
  const location = storeLocation(kv.backend, options);
  if (location) {
    // Refused before anything is written, and closed, so the caller may open the store again.
    await claimStoreDomain(kv, names.domain, names.systemNamespace, location).catch(async (e: unknown) => {
      await kv.close();
      throw e;
    });
  }
  const runtimeConfig = parseRuntimeConfig(options.runtimeConfig);
  const cache = new WatchCache(kv, options.watchCache);

  const registry = new ResourceRegistry();
  let namespaceStore: GenericStore | undefined;
  // Storage versions (hubs) by group/resource, filled below; every reader of stored objects reads
  // them through a lister (made now, bound to its store on first use).
  const hubs = new Map<string, GenericStore>();
  const listers = new ResourceListers(cache, hubs, log);
  const authorization = createAuthorization(authorizationConfig, names, listers);
  lateListers.bind(listers);
  lateAuthorizer.bind(authorization.authorizer);
  const admission = admissionChain([
    // Not a plugin a flag can turn off: Kubernetes' RBAC storage refuses these writes before admission.
    rbacEscalationGuard({ rbacGroup: names.group('rbac.authorization'), authorizer: authorization.authorizer, rules: authorization.rbac }),
    ...admissionPlugins,
  ]);

  const serviceAllocators = createServiceAllocators({ kv, servicesPrefix: keyPrefixOf('', 'services'), ...serviceRanges });
  const env: KindEnvironment = {
    names,
    serviceAllocators,
    listers,
    stores: (group, resource) => hubs.get(`${group}/${resource}`),
    storageHealth: async () => void (await kv.currentRevision()),
    tokenReviewer: authentication.tokenReviewer,
    accessReviewer: accessReviewer(authorization.authorizer),
    ...(saTokens?.issuer ? { serviceAccountTokens: saTokens.issuer } : {}),
  };
  const definitions = [...builtinResources, ...(options.resources ?? [])].map((factory) => factory(names, env));
  // Storage versions (hubs) first: every other served version of a kind shares its hub's store.
  for (const def of definitions.filter((d) => !d.conversion)) {
    const prefix = keyPrefixOf(def.group, def.resource);
    const store = new GenericStore({ def, names, kv, cache, admission, prefix });
    hubs.set(`${def.group}/${def.resource}`, store);
    if (def.group === '' && def.resource === 'namespaces') namespaceStore = store;
    cache.register(prefix, store.makeEntry, { group: def.group, version: def.version, kind: def.kind, resource: def.resource });
  }
  const served: RegisteredResource[] = [];
  for (const def of definitions) {
    if (!runtimeConfig.isEnabled(def.group, def.version, def.resource)) continue;
    const stored = def.storedAs ?? def;
    const store = hubs.get(`${stored.group}/${stored.resource}`);
    if (!store) throw new Error(`${def.group}/${def.version} ${def.kind} converts to a storage version that is not defined`);
    served.push({ def, store });
  }
  registry.change({ add: served });
  await cache.start(REGISTRY_PREFIX);
  // Resources added while the server runs (custom resources) get their stores here, as the built-ins did above.
  const resourceSets = createResourceSets({ registry, kv, cache, admission, names, hubs, keyPrefixOf });

  const client = new InProcessClient(registry, hubs);
  admissionWriter.bind({ update: (group, resource, namespace, name, subresource, transform) => client.resource(group, resource).update(namespace, name, (c) => transform(c as KubeObject), subresource) });
  const controllers: { stop(): void }[] = [];
  if (namespaceStore) await ensureNamespaces(client, ['default', names.systemNamespace, names.publicNamespace, names.nodeLeaseNamespace]);
  await ensureRbacPolicy(client, names, log);
  await ensureSystemPriorityClasses(client, names, log);
  // Serving custom resources is every instance's job (kube-apiserver's apiextensions controllers run
  // on each), so the CRD controller runs outside the leader-elected controller manager.
  if (hubs.has(`${names.group('apiextensions')}/customresourcedefinitions`)) {
    controllers.push(startCrdController({ client, crds: listers.for<CustomResourceDefinition>(names.group('apiextensions'), 'customresourcedefinitions'), names, registry, resourceSets, log }));
  }
  let clusterInfoServer: string | undefined;
  const controllerManager = await startControllers({
    settings: controllerSettings,
    client,
    authorizer: authorization.authorizer,
    listers,
    names,
    log,
    exclusiveStore: kv.backend !== 'etcd',
    ...(material?.ownCa && material.clientCaPem === material.ownCa.certPem ? { ownCa: material.ownCa } : {}),
    controllerDeps: {
      registry,
      accessReviewer: env.accessReviewer as NonNullable<KindEnvironment['accessReviewer']>,
      ...(saTokens?.signLegacyToken ? { serviceAccountTokens: { caPem: material?.servingCaPem ?? '', signLegacyToken: saTokens.signLegacyToken } } : {}),
      serviceAccountControllers: {
        caPem: material?.servingCaPem ?? '',
        // cluster-info names the address the listener has, known once it listens (below).
        clusterInfo: () => (clusterInfoServer ? { server: clusterInfoServer, ...(material?.servingCaPem ? { caPem: material.servingCaPem } : {}) } : undefined),
      },
    },
  });
  const compactor: Compactor = startCompactor({ kv, cache, windowMs: options.watchHistoryMs ?? DEFAULTS.watchHistoryMs, log });
  controllers.push(compactor);

  let issuerDiscovery: IssuerDiscovery | undefined;
  registerWatchCacheMetrics(metrics.registry, cache);
  const flowControl = await startFlowControl({ options, names, listers, client, metrics, log });
  controllers.push(flowControl);
  const settings = {
    maxRequestBodyBytes: options.maxRequestBodyBytes ?? DEFAULTS.maxRequestBodyBytes,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? DEFAULTS.minRequestTimeoutSeconds,
  };
  const storageCheck = { name: 'etcd', check: async () => void (await kv.currentRevision()) };
  const version = versionInfo(PACKAGE_VERSION);
  const router = createRouter({
    discovery: registry.derived(buildDiscovery),
    apiDiscoveryGroup: names.group('apidiscovery'),
    version,
    openapi: createOpenApiHandler(registry.derived((snapshot) => createOpenApiDocuments(snapshot, names, { version: version.gitVersion ?? '' }))),
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
    ),
    issuerDiscovery: () => issuerDiscovery,
    debugDump: flowControl.debugDump,
  });
  const chain = buildChain({
    log,
    ...(auditor ? { audit: auditor } : {}),
    authentication,
    metrics,
    resolveRequestInfo: parseRequestInfo,
    requestTimeoutSeconds: options.requestTimeoutSeconds ?? DEFAULTS.requestTimeoutSeconds,
    authorizer: authorization.authorizer,
    authenticationGroup: names.group('authentication'),
    authorizationGroup: names.group('authorization'),
    flowControl: flowControl.flowControl,
    domainHints: { names, isServedGroup: (group) => registry.all().some((r) => r.def.group === group) },
  });
  const onRequest = createRequestListener({ chain, handler: router, log, protobufMediaType: names.protobufMediaType });
  const listener = await listen({
    host: bindAddress,
    port: options.port ?? 0,
    handler: onRequest,
    configure: answerOutsideHandlers,
    ...(material
      ? { tls: { certPem: material.serving.certPem, keyPem: material.serving.keyPem, clientCaPem: trustedClientCas(material), minVersion: TLS_VERSION_NAMES[options.tlsMinVersion ?? DEFAULTS.tlsMinVersion] } }
      : {}),
  });
  const address = listener.address;
  const url = localUrl(listener.scheme, address.address, address.family, address.port);
  if (saTokens) issuerDiscovery = discoveryOf(saTokens, advertisedAddress(options.advertiseAddress, bindAddress) ?? address.address, address.port, log);
  // The kubernetes Service and this instance's address in its endpoints, kept by every instance.
  const apiserverEndpoints = await startApiserverEndpoints({ client, names, log, ip: advertisedAddress(options.advertiseAddress, bindAddress) ?? address.address, port: address.port, serviceIP: serviceRanges.clusterIPRanges[0]?.valueAt(0) ?? '' });
  const tls = material ? serverTls(material) : undefined;
  // cluster-info names the address the listener has.
  clusterInfoServer = url;
  const kubeconfig = kubeconfigFor(url, tls ? { ...(tls.caPem ? { caPem: tls.caPem } : {}), ...(tls.adminCertPem && tls.adminKeyPem ? { clientCertPem: tls.adminCertPem, clientKeyPem: tls.adminKeyPem } : {}) } : {});
  let closing: Promise<void> | undefined;
  return {
    url,
    ...(tls ? { tls } : {}),
    host: address.address,
    port: address.port,
    names,
    storageBackend: kv.backend,
    kubeconfig: () => kubeconfig,
    close() {
      closing ??= (async () => {
        await apiserverEndpoints.stop();
        await controllerManager.stop();
        for (const c of controllers) c.stop();
        authentication.close();
        cache.close();
        await listener.close();
        await auditor?.shutdown();
        await kv.close();
      })();
      return closing;
    },
  };
}

/**
 * The TLS material, or undefined in plain-HTTP mode (checked here, before anything is opened: plain
 * HTTP only on loopback).
 */
async function servingMaterial(options: ServerOptions, bindAddress: string, serviceIP: string, log: Logger): Promise<ServingMaterial | undefined> {
  if (options.plainHttp) {
    if (!isLoopback(bindAddress)) {
      throw new Error(
        `plain HTTP is served only on a loopback address (127.0.0.1 or ::1), not on ${bindAddress}: every caller on the network could read and change the cluster unencrypted. ` +
          'Listen on loopback (--bind-address=127.0.0.1) or serve HTTPS (leave out --insecure-plain-http).',
      );
    }
    log.warn('SERVING PLAIN HTTP WITHOUT TLS: traffic is unencrypted and client certificates are impossible; meant for tests and local tools only', { bindAddress });
    return undefined;
  }
  if (!isLoopback(bindAddress) && options.authorizationModes?.[0] === 'AlwaysAllow') {
    // Authorization decides nothing then: every caller (anonymous ones too, unless
    // --anonymous-auth=false) may do anything, and on the network that deserves a warning.
    log.warn('listening beyond loopback with --authorization-mode=AlwaysAllow first: every caller (anonymous ones too, unless anonymous requests are off) has full access', { bindAddress });
  }
  const advertised = advertisedAddress(options.advertiseAddress, bindAddress);
  return loadServingMaterial({
    ...(options.dataDir !== undefined ? { dataDir: options.dataDir } : {}),
    ...(options.tlsCertFile !== undefined ? { tlsCertFile: options.tlsCertFile } : {}),
    ...(options.tlsPrivateKeyFile !== undefined ? { tlsPrivateKeyFile: options.tlsPrivateKeyFile } : {}),
    ...(options.clientCaFile !== undefined ? { clientCaFile: options.clientCaFile } : {}),
    ...(options.requestheaderClientCaFile !== undefined ? { requestheaderClientCaFile: options.requestheaderClientCaFile } : {}),
    altNames: servingAltNames({ hostName: hostname(), serviceIP, addresses: [advertised, bindAddress] }),
    log,
  });
}

function serverTls(material: ServingMaterial): ServerTls {
  const { servingCaPem: caPem, admin } = material;
  return {
    ...(caPem ? { caPem } : {}),
    ...(admin ? { adminCertPem: admin.certPem, adminKeyPem: admin.keyPem } : {}),
    clientOptions: { ...(caPem ? { ca: caPem } : {}), ...(admin ? { cert: admin.certPem, key: admin.keyPem } : {}) },
  };
}

/**
 * Service-account tokens: verified always (with the serving key by default), issued when there is a
 * key to sign with. In plain-HTTP mode there is no serving key, so only what the flags name.
 */
function serviceAccountTokensFor(
  options: ServerOptions,
  names: ApiNames,
  listers: ListerSource,
  servingKeyPem: string | undefined,
  log: Logger,
): (ServiceAccountTokens & { apiAudiences: readonly string[] }) | undefined {
  const settings = resolveServiceAccountSettings(
    {
      ...(options.serviceAccountIssuers ? { issuers: options.serviceAccountIssuers } : {}),
      ...(options.serviceAccountKeyFiles ? { keyFiles: options.serviceAccountKeyFiles } : {}),
      ...(options.serviceAccountSigningKeyFile !== undefined ? { signingKeyFile: options.serviceAccountSigningKeyFile } : {}),
      ...(options.apiAudiences ? { apiAudiences: options.apiAudiences } : {}),
      ...(options.serviceAccountMaxTokenExpirationSeconds !== undefined ? { maxTokenExpirationSeconds: options.serviceAccountMaxTokenExpirationSeconds } : {}),
      ...(options.serviceAccountExtendTokenExpiration !== undefined ? { extendTokenExpiration: options.serviceAccountExtendTokenExpiration } : {}),
      ...(options.serviceAccountLookup !== undefined ? { lookup: options.serviceAccountLookup } : {}),
      ...(options.serviceAccountJwksUri !== undefined ? { jwksUri: options.serviceAccountJwksUri } : {}),
    },
    servingKeyPem,
  );
  for (const warning of settings.warnings) log.warn(warning);
  if (settings.verificationKeys.length === 0) return undefined;
  const getters = {
    serviceAccounts: listers.for<ServiceAccount>('', 'serviceaccounts'),
    pods: listers.for<Pod>('', 'pods'),
    secrets: listers.for<Secret>('', 'secrets'),
  };
  return { ...serviceAccountTokens({ names, settings, getters, log }), apiAudiences: settings.apiAudiences };
}

function discoveryOf(tokens: ServiceAccountTokens, host: string, port: number, log: Logger): IssuerDiscovery | undefined {
  const external = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const docs = tokens.discovery(external);
  if ('error' in docs) {
    // As kube-apiserver: discovery is simply not offered, and the reason logged.
    log.info(`service account issuer discovery is not served: ${docs.error}`);
    return undefined;
  }
  return docs;
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

/** An authorizer that forwards to the server's once it is bound (before the first request). */
function deferredAuthorizer(): Authorizer & { bind(target: Authorizer): void } {
  let target: Authorizer | undefined;
  return {
    bind(t) {
      target = t;
    },
    authorize(attrs, signal) {
      if (!target) throw new Error('the authorizer was asked before the server finished starting');
      return target.authorize(attrs, signal);
    },
  };
}
