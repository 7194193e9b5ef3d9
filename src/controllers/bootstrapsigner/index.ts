/**
 * The bootstrap signer (kube-controller-manager's `bootstrapsigner`, off by default): the ConfigMap
 * `cluster-info` in the public namespace carries a detached JWS `jws-kubeconfig-<id>` of its
 * `kubeconfig` for every bootstrap token marked `usage-bootstrap-signing=true` that has not
 * expired, and no other. A joining node reads it anonymously and checks the signature with its
 * token before it trusts the CA inside.
 *
 * Kubernetes' signer only signs what kubeadm wrote; with no kubeadm here, the signer also writes
 * cluster-info when it is missing: this server's address and CA in kubeadm's shape. An existing
 * `kubeconfig` is signed as it is (an operator's stays theirs); one without the key is left alone,
 * as Kubernetes does. A signature goes when its token goes, stops signing, or expires (looked at
 * again at the expiry, so the cleaner need not run).
 */
import { readBootstrapTokenSecret } from '../../apis/core/v1/bootstrap-token.js';
import type { ConfigMap } from '../../apis/core/v1/configmap.js';
import { secretTypes, type Secret } from '../../apis/core/v1/secret.js';
import type { ResourceClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import { isStatusError } from '../../machinery/errors.js';
import type { Lister } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import { WorkQueue } from '../framework/work-queue.js';
import { CLUSTER_INFO, JWS_KEY_PREFIX, KUBECONFIG_KEY, clusterInfoKubeconfig, detachedSignature, signingKey } from './jws.js';

export const BOOTSTRAP_SIGNER = 'bootstrapsigner';

export interface BootstrapSignerDeps {
  names: ApiNames;
  /** core/v1 configmaps, through the in-process client. */
  configMapClient: ResourceClient;
  configMaps: Lister<ConfigMap>;
  secrets: Lister<Secret>;
  clusterInfo: ClusterInfoSource;
  log: Logger;
  now?: () => Date;
}

/**
 * What a new cluster-info names: the server's URL and the CA that verifies it (none with an
 * operator's certificate); undefined until the server listens (the write is retried until then).
 */
export type ClusterInfoSource = () => { server: string; caPem?: string } | undefined;

export interface SigningToken {
  tokenId: string;
  key: string;
  expires?: Date;
}

/** The tokens that sign now: well-formed, unexpired, marked for signing; the first Secret of an id wins. Pure. */
export function signingTokens(secrets: readonly Secret[], names: ApiNames, now: Date): SigningToken[] {
  const out = new Map<string, SigningToken>();
  for (const s of secrets) {
    const read = readBootstrapTokenSecret(s, names, now);
    if (!read.ok || !read.token.usages.has('signing') || out.has(read.token.tokenId)) continue;
    const { tokenId, tokenSecret, expires } = read.token;
    out.set(tokenId, { tokenId, key: signingKey(names, tokenId, tokenSecret), ...(expires ? { expires } : {}) });
  }
  return [...out.values()];
}

/** The data cluster-info should hold: its own keys, without stale signatures, with one per token. Pure. */
export function signedData(data: Readonly<Record<string, string>>, tokens: readonly SigningToken[]): Record<string, string> {
  const content = data[KUBECONFIG_KEY] ?? '';
  const next: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) if (!k.startsWith(JWS_KEY_PREFIX)) next[k] = v;
  for (const t of tokens) next[`${JWS_KEY_PREFIX}${t.tokenId}`] = detachedSignature(content, t.tokenId, t.key);
  return next;
}

function sameData(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

const MAX_TIMER_MS = 2_147_483_647;

export function startBootstrapSigner(deps: BootstrapSignerDeps): { stop(): void } {
  const { names, configMapClient, configMaps, secrets, log } = deps;
  const now = deps.now ?? (() => new Date());
  const ns = names.publicNamespace;
  let expiryTimer: NodeJS.Timeout | undefined;

  const tokensNow = (): SigningToken[] => {
    const tokens = signingTokens(secrets.list(names.systemNamespace), names, now());
    // Looked at again when the first of them expires, so its signature goes then.
    clearTimeout(expiryTimer);
    const next = Math.min(...tokens.map((t) => t.expires?.getTime() ?? Infinity));
    if (Number.isFinite(next)) expiryTimer = setTimeout(() => queue.add(CLUSTER_INFO), Math.min(MAX_TIMER_MS, Math.max(0, next - now().getTime()) + 5));
    return tokens;
  };

  const sync = async (): Promise<void> => {
    const current = configMaps.get(ns, CLUSTER_INFO);
    if (!current) {
      const info = deps.clusterInfo();
      if (!info) throw new Error('the server has no address to publish yet');
      const data = { [KUBECONFIG_KEY]: clusterInfoKubeconfig(info.server, info.caPem) };
      try {
        await configMapClient.create(ns, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CLUSTER_INFO, namespace: ns }, data: signedData(data, tokensNow()) } as ConfigMap);
      } catch (e) {
        // Made meanwhile: its event brings it back here to be signed.
        if (!isStatusError(e, 'AlreadyExists')) throw e;
      }
      return;
    }
    if (current.data?.[KUBECONFIG_KEY] === undefined) {
      log.debug(`bootstrap signer: no ${KUBECONFIG_KEY} key in ${ns}/${CLUSTER_INFO}; nothing to sign`);
      return;
    }
    const want = signedData(current.data, tokensNow());
    if (sameData(current.data, want)) return;
    try {
      await configMapClient.update(ns, CLUSTER_INFO, (obj) => {
        const cm = obj as ConfigMap;
        // Recomputed from what is stored now, so a concurrent edit of the kubeconfig is signed as it is.
        cm.data = signedData(cm.data ?? {}, tokensNow());
        return cm;
      });
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
    }
  };
  const queue = new WorkQueue(sync, (_key, error, attempt) => log.warn(`bootstrap signer: could not sign ${ns}/${CLUSTER_INFO}; retrying`, { attempt, error: error instanceof Error ? error.message : String(error) }), {
    workers: 1,
    minRetryMs: 100,
    maxRetryMs: 10_000,
  });
  const tokenType = secretTypes(names).bootstrapToken;
  const offSecrets = secrets.onChange((ev) => {
    if (ev.object.metadata.namespace === names.systemNamespace && (ev.object.type === tokenType || ev.oldObject?.type === tokenType)) queue.add(CLUSTER_INFO);
  });
  const offConfigMaps = configMaps.onChange((ev) => {
    if (ev.object.metadata.namespace === ns && ev.object.metadata.name === CLUSTER_INFO) queue.add(CLUSTER_INFO);
  });
  queue.add(CLUSTER_INFO);
  return {
    stop() {
      offSecrets();
      offConfigMaps();
      queue.stop();
      clearTimeout(expiryTimer);
    },
  };
}
