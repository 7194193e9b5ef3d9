/**
 * The in-process client controllers use: the same stores, admission and validation as HTTP
 * requests, without a socket. Every call acts as the server itself.
 */
import type { UserInfo } from '../machinery/user-info.js';
import { StatusError } from '../machinery/errors.js';
import type { DeleteOptions, KubeObject } from '../schema/index.js';
import type { GenericStore, RequestScope, UpdateTransform } from '../registry/generic-store.js';
import type { ListRequest } from '../registry/store-reads.js';
import type { ResourceRegistry } from '../registry/registry.js';

/** The identity controllers act as. */
export const SYSTEM_USER: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };

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
  ) {}

  private scope(namespace: string): RequestScope {
    return { namespace, signal: new AbortController().signal, warnings: [], user: SYSTEM_USER };
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
        try {
          return (await store.get(namespace, name, undefined, new AbortController().signal)).object.parse<KubeObject>();
        } catch (e) {
          if (isNotFound(e)) return undefined;
          throw e;
        }
      },
      list: async (namespace, opts = {}) => {
        const result = await store.list({ namespace, signal: new AbortController().signal, ...opts });
        return result.items.map((e) => e.object.parse<KubeObject>());
      },
      create: (namespace, obj) => store.create(this.scope(namespace), obj, { dryRun: false }),
      update: async (namespace, name, transform, subresource = '') =>
        (await store.update(this.scope(namespace), name, transform, { dryRun: false, subresource, allowCreate: false })).object,
      delete: async (namespace, name, options = {}) => {
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
