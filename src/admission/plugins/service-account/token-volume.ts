/**
 * The bound service-account token volume and its mounts, as the ServiceAccount admission plugin
 * adds them (document 3 "Bound service account token volume"; Kubernetes 1.25's plugin): a
 * projected volume of the token (3607 s), the root CA ConfigMap's `ca.crt` and the pod's
 * namespace, mode 0644, mounted read-only at the token path in every init container and container
 * that has nothing mounted there yet. Pure: mutates only the pod it is given.
 */
import type { Pod } from '../../../apis/core/v1/pod.js';
import type { ProjectedVolumeSource } from '../../../apis/core/v1/pod/volumes.js';
import type { ServiceAccount } from '../../../apis/core/v1/serviceaccount.js';
import {
  BOUND_TOKEN_EXPIRATION_SECONDS,
  ROOT_CA_KEY,
  TOKEN_VOLUME_DEFAULT_MODE,
  rootCaConfigMapName,
  tokenMountPath,
  tokenVolumePrefix,
} from '../../../apis/core/v1/service-account-names.js';
import type { ApiNames } from '../../../machinery/api-names.js';

/** The projected source of the token volume, a fresh object each call. */
export function tokenVolumeSource(names: ApiNames): ProjectedVolumeSource {
  return {
    defaultMode: TOKEN_VOLUME_DEFAULT_MODE,
    sources: [
      { serviceAccountToken: { path: 'token', expirationSeconds: BOUND_TOKEN_EXPIRATION_SECONDS } },
      { configMap: { name: rootCaConfigMapName(names), items: [{ key: ROOT_CA_KEY, path: ROOT_CA_KEY }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

/**
 * Whether the pod gets a token volume. Document 3 (every domain but k8s.io): not when either the
 * pod or its account says `false`. Kubernetes (k8s.io): the pod's own setting wins; the account's
 * counts only when the pod has none; true when neither says.
 */
export function shouldAutomount(names: ApiNames, sa: Pick<ServiceAccount, 'automountServiceAccountToken'>, pod: Pick<Pod, 'spec'>): boolean {
  const podSays = pod.spec.automountServiceAccountToken;
  const accountSays = sa.automountServiceAccountToken;
  if (names.domain === 'k8s.io') return podSays ?? accountSays ?? true;
  return podSays !== false && accountSays !== false;
}

/**
 * Mounts the token volume in every init container and container without a mount at the token
 * path, adding the volume when one of them needs it and the pod has none of that prefix already.
 * `generateName` adds the 5 random characters of a new volume's name.
 */
export function mountServiceAccountToken(names: ApiNames, pod: Pick<Pod, 'spec'>, generateName: (prefix: string) => string): void {
  const prefix = tokenVolumePrefix(names);
  const mountPath = tokenMountPath(names);
  const spec = pod.spec;
  const existing = (spec.volumes ?? []).find((v) => v.name.startsWith(prefix));
  const volumeName = existing?.name ?? generateName(prefix);
  let needed = false;
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    if ((c.volumeMounts ?? []).some((m) => m.mountPath === mountPath)) continue;
    c.volumeMounts = [...(c.volumeMounts ?? []), { name: volumeName, readOnly: true, mountPath }];
    needed = true;
  }
  if (needed && !existing) spec.volumes = [...(spec.volumes ?? []), { name: volumeName, projected: tokenVolumeSource(names) }];
}
