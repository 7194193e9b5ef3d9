/**
 * The controllers of service accounts and bootstrap tokens, as descriptors in
 * kube-controller-manager's names: the identity each acts as in Kubernetes (the subject of its
 * `system:controller:<role>` binding), whether it is off unless named, and how to start it from
 * what every controller is given (a client, the listers, the API names, a logger).
 */
import type { ConfigMap } from '../apis/core/v1/configmap.js';
import type { Namespace } from '../apis/core/v1/namespace.js';
import type { Secret } from '../apis/core/v1/secret.js';
import type { ServiceAccount } from '../apis/core/v1/serviceaccount.js';
import type { InProcessClient } from '../client/in-process-client.js';
import type { ApiNames } from '../machinery/api-names.js';
import type { ListerSource } from '../machinery/lister.js';
import type { Logger } from '../machinery/logger.js';
import { startBootstrapSigner, type ClusterInfoSource } from './bootstrapsigner/index.js';
import { startRootCaPublisher } from './root-ca-cert-publisher/index.js';
import { startServiceAccountsController } from './serviceaccount/index.js';
import { startTokenCleaner } from './tokencleaner/index.js';

/** What these controllers need of the controller manager. */
export interface BasicControllerContext {
  readonly client: InProcessClient;
  readonly listers: ListerSource;
  readonly names: ApiNames;
  readonly log: Logger;
}

export interface BasicControllerDescriptor {
  readonly name: string;
  readonly serviceAccount: string;
  readonly disabledByDefault?: boolean;
  readonly start: (ctx: BasicControllerContext) => { stop(): void };
}

export interface ServiceAccountControllerDeps {
  /** PEM of the CA pods should trust ('' when the server has none to offer). */
  caPem: string;
  /** What cluster-info names; undefined until the server listens. */
  clusterInfo: ClusterInfoSource;
}

export function serviceAccountControllerDescriptors(deps: ServiceAccountControllerDeps): BasicControllerDescriptor[] {
  const core = <T>(ctx: BasicControllerContext, resource: string) => ctx.listers.for<T>('', resource);
  return [
    {
      name: 'serviceaccount',
      serviceAccount: 'service-account-controller',
      start: (ctx) =>
        startServiceAccountsController({
          serviceAccountClient: ctx.client.resource('', 'serviceaccounts'),
          namespaces: core<Namespace>(ctx, 'namespaces'),
          serviceAccounts: core<ServiceAccount>(ctx, 'serviceaccounts'),
          log: ctx.log,
        }),
    },
    {
      name: 'root-ca-cert-publisher',
      serviceAccount: 'root-ca-cert-publisher',
      start: (ctx) =>
        startRootCaPublisher({
          names: ctx.names,
          configMapClient: ctx.client.resource('', 'configmaps'),
          namespaces: core<Namespace>(ctx, 'namespaces'),
          configMaps: core<ConfigMap>(ctx, 'configmaps'),
          caPem: deps.caPem,
          log: ctx.log,
        }),
    },
    {
      name: 'tokencleaner',
      serviceAccount: 'token-cleaner',
      disabledByDefault: true,
      start: (ctx) => startTokenCleaner({ names: ctx.names, secretClient: ctx.client.resource('', 'secrets'), secrets: core<Secret>(ctx, 'secrets'), log: ctx.log }),
    },
    {
      name: 'bootstrapsigner',
      serviceAccount: 'bootstrap-signer',
      disabledByDefault: true,
      start: (ctx) =>
        startBootstrapSigner({
          names: ctx.names,
          configMapClient: ctx.client.resource('', 'configmaps'),
          configMaps: core<ConfigMap>(ctx, 'configmaps'),
          secrets: core<Secret>(ctx, 'secrets'),
          clusterInfo: deps.clusterInfo,
          log: ctx.log,
        }),
    },
  ];
}
