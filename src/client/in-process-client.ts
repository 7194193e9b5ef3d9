/**
 * The in-process client controllers use: the same stores, admission and validation as HTTP
 * requests, without a socket. A client acts as the server itself (system:apiserver in
 * system:masters) unless made with an identity, as kube-controller-manager's controllers act as
 * their own users: then every call is first asked of that identity's authorizer, and a refusal is
 * the 403 an HTTP request would get.
 */
import type { UserInfo } from '../machinery/user-info.js';
import { StatusError } from '../machinery/errors.js';
import type { DeleteOptions, KubeObject } from '../schema/index.js';
import type { GenericStore, RequestScope, UpdateTransform } from '../registry/generic-store.js';
import type { ListRequest } from '../registry/store-reads.js';
import type { ResourceRegistry } from '../registry/registry.js';

/** The identity controllers act as. */
export const SYSTEM_USER: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };

/** What a call asks to do, in the terms an authorizer decides on. */
export interface ClientRequest {
  verb: 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

/** Who a client acts as, and who decides what it may do. */
export interface ClientIdentity {
  readonly user: UserInfo;
  /** Throws a StatusError (Forbidden) when `user` may not make the request; absent: everything is allowed. */
  authorize?(request: ClientRequest, signal: AbortSignal): Promise<void>;
}

export interface ResourceClient {
  readonly store: GenericStore;
  get(namespace: string, name: string): Promise<KubeObject | undefined>;
  list(namespace: string, opts?: Partial<ListRequest>): Promise<KubeObject[]>;
  create(namespace: string, obj: KubeObject): Promise<KubeObject>;
  update(namespace: string, name: string, transform: UpdateTransform, subresource?: string): Promise<KubeObject>;
  delete(namespace: string, name: string, options?: DeleteOptions): Promise<{ object: KubeObject; deleted: boolean } | undefined>;
}

const isNotFound = (e: unknown): boolean => e instanceof StatusError && e.reason === 'NotFound';

export class InProcessClient {
  /**
   * @param stores every stored resource by `group/resource`, served or not: the server keeps its own
   * objects (system namespaces, for one) even when --runtime-config stops serving their API.
   */
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly stores: ReadonlyMap<string, GenericStore> = new Map(),
    private readonly identity: ClientIdentity = { user: SYSTEM_USER },
  ) {}

  /** The user this client acts as. */
  get user(): UserInfo {
    return this.identity.user;
  }

  /** A client over the same stores acting as `identity`. */
  as(identity: ClientIdentity): InProcessClient {
    return new InProcessClient(this.registry, this.stores, identity);
  }

  private scope(namespace: string): RequestScope {
    return { namespace, signal: new AbortController().signal, warnings: [], user: this.identity.user };
  }

  private async allowed(store: GenericStore, verb: ClientRequest['verb'], namespace: string, name: string, subresource = ''): Promise<void> {
    if (!this.identity.authorize) return;
    const { group, version, resource } = store.def;
    await this.identity.authorize({ verb, group, version, resource, subresource, namespace, name }, new AbortController().signal);
  }

  resource(group: string, resource: string): ResourceClient {
    const store = this.stores.get(`${group}/${resource}`) ?? this.registry.all().find((x) => x.def.group === group && x.def.resource === resource)?.store;
    if (!store) throw new Error(`no resource ${resource} in group ${JSON.stringify(group)}`);
    return this.forStore(store);
  }

  forStore(store: GenericStore): ResourceClient {
    return {
      store,
      get: async (namespace, name) => {
        await this.allowed(store, 'get', namespace, name);
        try {
          return (await store.get(namespace, name, undefined, new AbortController().signal)).object.parse<KubeObject>();
        } catch (e) {
          if (isNotFound(e)) return undefined;
          throw e;
        }
      },
      list: async (namespace, opts = {}) => {
        await this.allowed(store, 'list', namespace, '');
        const result = await store.list({ namespace, signal: new AbortController().signal, ...opts });
        return result.items.map((e) => e.object.parse<KubeObject>());
      },
      create: async (namespace, obj) => {
        await this.allowed(store, 'create', namespace, '');
        return store.create(this.scope(namespace), obj, { dryRun: false });
      },
      update: async (namespace, name, transform, subresource = '') => {
        await this.allowed(store, 'update', namespace, name, subresource);
        return (await store.update(this.scope(namespace), name, transform, { dryRun: false, subresource, allowCreate: false })).object;
      },
      delete: async (namespace, name, options = {}) => {
        await this.allowed(store, 'delete', namespace, name);
        try {
          return await store.delete(this.scope(namespace), name, options, { dryRun: false });
        } catch (e) {
          if (isNotFound(e)) return undefined;
          throw e;
        }
      },
    };
  }
}
