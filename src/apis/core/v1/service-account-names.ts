/**
 * Names the service-account machinery shares: the ServiceAccount admission plugin (which mounts
 * the token volume), the serviceaccount controller (which makes `default`) and the root CA
 * publisher (which fills the ConfigMap the volume projects). Each derives from the API domain.
 * Pure.
 */
import type { ApiNames } from '../../../machinery/api-names.js';

/** The account a pod runs as when it names none, and the one made in every namespace. */
export const DEFAULT_SERVICE_ACCOUNT = 'default';

/**
 * Lifetime the token projection asks for: 3607 seconds, an hour and a few seconds, which the
 * TokenRequest path recognises as the admission-made volume (and extends under
 * `--service-account-extend-token-expiration`).
 */
export const BOUND_TOKEN_EXPIRATION_SECONDS = 3607;

/** 0644, written out explicitly in the volume (as Kubernetes does since 1.22), not left to defaulting. */
export const TOKEN_VOLUME_DEFAULT_MODE = 0o644;

/** The key of the root CA ConfigMap, and the file it becomes in the token volume. */
export const ROOT_CA_KEY = 'ca.crt';

/**
 * The ConfigMap the root CA is published in, in every namespace: Kubernetes' `kube-root-ca.crt`,
 * and `<prefix>-root-ca.crt` under another domain (`orch-root-ca.crt` under orch.io), as the
 * system namespace is `kube-system` and `orch-system`. Document 3 does not name it.
 */
export function rootCaConfigMapName(names: ApiNames): string {
  return `${names.prefix}-root-ca.crt`;
}

/**
 * Prefix of the token volume's name (a random 5-character suffix follows): document 3's
 * `api-access-` under orch.io, Kubernetes' `kube-api-access-` under k8s.io. A pod that already has
 * a volume with this prefix keeps it.
 */
export function tokenVolumePrefix(names: ApiNames): string {
  return names.domain === 'k8s.io' ? 'kube-api-access-' : 'api-access-';
}

/** Where every container finds its token: `/var/run/secrets/orch.io/serviceaccount` (`kubernetes.io` under k8s.io). */
export function tokenMountPath(names: ApiNames): string {
  return `/var/run/secrets/${names.labelDomain}/serviceaccount`;
}

/** The annotation marking a mirror (static) pod, which the kubelet creates and admission leaves unchanged. */
export function mirrorPodAnnotation(names: ApiNames): string {
  return names.labelKey('config.mirror');
}
