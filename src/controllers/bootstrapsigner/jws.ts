/**
 * The detached JWS of the cluster-info ConfigMap: HS256 over the `kubeconfig` text, with the token
 * id as `kid`, the payload left out of the compact form (`<header>..<signature>`). A client puts the
 * base64url payload back between the dots and verifies with the same key (document 3, Bootstrap
 * tokens, step 5). Signed with Node's HMAC; tests check it with an independent JOSE library. Pure.
 */
import { createHmac } from 'node:crypto';
import type { ApiNames } from '../../machinery/api-names.js';

/** The data key of a token's signature: `jws-kubeconfig-<token id>`. */
export const JWS_KEY_PREFIX = 'jws-kubeconfig-';
export const KUBECONFIG_KEY = 'kubeconfig';
export const CLUSTER_INFO = 'cluster-info';

const b64url = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

/**
 * The shared secret a token signs with. Document 3 (every domain but k8s.io): the full token
 * `<id>.<secret>`. Kubernetes' cluster-bootstrap code, which kubeadm join verifies with: the token
 * secret alone.
 */
export function signingKey(names: ApiNames, tokenId: string, tokenSecret: string): string {
  return names.domain === 'k8s.io' ? tokenSecret : `${tokenId}.${tokenSecret}`;
}

/** The detached compact JWS of `content` for one token. */
export function detachedSignature(content: string, tokenId: string, key: string): string {
  // Key order as go-jose writes the protected header: alg, then kid.
  const header = b64url(JSON.stringify({ alg: 'HS256', kid: tokenId }));
  const signature = createHmac('sha256', key).update(`${header}.${b64url(content)}`).digest('base64url');
  return `${header}..${signature}`;
}

/**
 * The kubeconfig cluster-info publishes, in kubeadm's shape: one cluster named "" with the server
 * and (when there is one) the CA, no users or contexts.
 */
export function clusterInfoKubeconfig(server: string, caPem: string | undefined): string {
  const lines = ['apiVersion: v1', 'clusters:', '- cluster:'];
  if (caPem) lines.push(`    certificate-authority-data: ${Buffer.from(caPem).toString('base64')}`);
  lines.push(`    server: ${JSON.stringify(server)}`, '  name: ""', 'contexts: null', 'current-context: ""', 'kind: Config', 'preferences: {}', 'users: null', '');
  return lines.join('\n');
}
