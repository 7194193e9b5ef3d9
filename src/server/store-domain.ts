/**
 * One store, one API domain. Every name a server writes (groups in stored objects, system
 * namespaces, finalizers, annotation keys) derives from its domain, so a store written under
 * orch.io and then served under k8s.io would mix the two (orch-system beside kube-system). The
 * store therefore records the domain it was created with, under an internal key beside the
 * objects, and a start with another domain is refused before anything is written.
 */
import { DEFAULT_ETCD_PREFIX } from '../storage/etcd/etcd-kv.js';
import { isKVError, type RevisionedKV } from '../storage/kv.js';
import type { ServerOptions } from './options.js';

/** Internal state lives under /registry/internal/ (as the allocators' bitmaps), outside every object prefix. */
export const API_DOMAIN_KEY = '/registry/internal/api-domain';

/** Where the system namespaces are kept, to recognise a store written before the domain was recorded. */
const NAMESPACES_PREFIX = '/registry/core/namespaces/';

/** How the refusal names the store and the flag that picks another one. */
export interface StoreLocation {
  /** `the data directory /srv/orch`, `the etcd prefix /orch at http://127.0.0.1:2379`. */
  description: string;
  /** The flag that chooses another store: `--data-dir`, `--etcd-prefix`. */
  flag: string;
}

/** How a store opened with these options is named to a person; undefined for memory, which starts empty every time. */
export function storeLocation(backend: RevisionedKV['backend'], options: Pick<ServerOptions, 'dataDir' | 'etcdServers' | 'etcdPrefix'>): StoreLocation | undefined {
  switch (backend) {
    case 'sqlite':
      return { description: `the data directory ${options.dataDir ?? ''}`, flag: '--data-dir' };
    case 'etcd':
      return { description: `the etcd prefix ${options.etcdPrefix ?? DEFAULT_ETCD_PREFIX} at ${(options.etcdServers ?? []).join(',')}`, flag: '--etcd-prefix' };
    case 'memory':
      return undefined;
  }
}

/** The start's domain is not the one the store was created with; nothing was written. */
export class StoreDomainMismatchError extends Error {
  constructor(
    readonly storedDomain: string,
    readonly requestedDomain: string,
    where: StoreLocation,
  ) {
    super(
      `${where.description} was created with --api-domain=${storedDomain}, and this server was started with --api-domain=${requestedDomain}; ` +
        `one store serves one API domain. Start with --api-domain=${storedDomain} to use it, or give ${requestedDomain} a store of its own with another ${where.flag}`,
    );
    this.name = 'StoreDomainMismatchError';
  }
}

interface DomainRecord {
  apiDomain: string;
}

function parseRecord(value: string): string | undefined {
  try {
    const parsed = JSON.parse(value) as Partial<DomainRecord>;
    return typeof parsed.apiDomain === 'string' ? parsed.apiDomain : undefined;
  } catch {
    return undefined;
  }
}

/** The system namespace of the two domains a store from before the record can have been written under. */
const KNOWN_SYSTEM_NAMESPACES: readonly (readonly [string, string])[] = [
  ['kube-system', 'k8s.io'],
  ['orch-system', 'orch.io'],
];

/**
 * The domain of a store written before domains were recorded, judged by its system namespace
 * (`kube-system` under k8s.io, `orch-system` under orch.io). Undefined when the store holds the
 * start's own system namespace, or neither.
 */
async function unrecordedDomain(kv: RevisionedKV, systemNamespace: string): Promise<string | undefined> {
  const present = async (name: string): Promise<boolean> => (await kv.get(NAMESPACES_PREFIX + name)).entry !== undefined;
  if (await present(systemNamespace)) return undefined;
  for (const [namespace, domain] of KNOWN_SYSTEM_NAMESPACES) {
    if (namespace !== systemNamespace && (await present(namespace))) return domain;
  }
  return undefined;
}

/**
 * Records `domain` in an empty or unrecorded store, or checks it against the recorded one. Safe
 * when several servers start on one etcd at once: the first record wins and the others compare
 * against it.
 *
 * Throws StoreDomainMismatchError on a mismatch (having written nothing), and whatever the store
 * throws when it cannot be read.
 */
export async function claimStoreDomain(kv: RevisionedKV, domain: string, systemNamespace: string, where: StoreLocation): Promise<void> {
  for (;;) {
    const { entry } = await kv.get(API_DOMAIN_KEY);
    if (entry) {
      const stored = parseRecord(entry.value);
      if (stored === undefined) throw new Error(`${where.description} holds an unreadable API domain record at ${API_DOMAIN_KEY}: ${JSON.stringify(entry.value.slice(0, 100))}`);
      if (stored !== domain) throw new StoreDomainMismatchError(stored, domain, where);
      return;
    }
    const legacy = await unrecordedDomain(kv, systemNamespace);
    if (legacy !== undefined) throw new StoreDomainMismatchError(legacy, domain, where);
    try {
      await kv.create(API_DOMAIN_KEY, JSON.stringify({ apiDomain: domain } satisfies DomainRecord));
      return;
    } catch (e) {
      // Another server recorded a domain between our read and our write: compare against that one.
      if (!isKVError(e, 'exists')) throw e;
    }
  }
}
