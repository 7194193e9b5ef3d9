/**
 * Every name that derives from the API domain. `orch.io` is the default; `k8s.io` gives
 * Kubernetes' own names so that unmodified Kubernetes clients work. No other file spells a domain.
 */
export interface ApiNames {
  /** The API domain itself, e.g. `orch.io`: group suffixes and `k8s.io/...` style keys. */
  readonly domain: string;
  /**
   * The domain of well-known labels, annotations, finalizers and secret types. Kubernetes keeps these
   * under `kubernetes.io` (not `k8s.io`); every other API domain uses itself for both.
   */
  readonly labelDomain: string;
  /** Short product prefix used in namespace names: `kube` for k8s.io, else the domain's first label. */
  readonly prefix: string;
  /** Product word used in media types and the namespace finalizer: `kubernetes` for k8s.io. */
  readonly product: string;
  readonly systemNamespace: string;
  readonly publicNamespace: string;
  readonly nodeLeaseNamespace: string;
  /** The finalizer the namespace controller owns in `spec.finalizers`. */
  readonly namespaceFinalizer: string;
  readonly protobufMediaType: string;
  /** `meta.orch.io`: the group of Table, PartialObjectMetadata and the list/watch options. */
  readonly metaGroup: string;
  /** Prefix of OpenAPI vendor extensions: `x-kubernetes-` under k8s.io (what clients look for), else `x-orch-`. */
  readonly openapiExtensionPrefix: string;
  /** The reversed domain that starts OpenAPI definition names: `io.k8s` (io.k8s.api.core.v1.Pod), `io.orch`. */
  readonly openapiNamePrefix: string;
  /** A group name under the domain: `group('apps')` stays `apps`; see groupOf. */
  group(base: string): string;
  /** A label, annotation or finalizer key under the domain: `key('deprecated')` → `orch.io/deprecated`. */
  key(name: string): string;
  /** A key under a sub-domain: `subKey('mutation.webhook.admission', 'x')` → `mutation.webhook.admission.orch.io/x`. */
  subKey(sub: string, name: string): string;
  /** A well-known label-style key: `labelKey('metadata.name')` → `orch.io/metadata.name` (`kubernetes.io/...` under k8s.io). */
  labelKey(name: string): string;
  /** `labelSubKey('ingressclass', 'is-default-class')` → `ingressclass.orch.io/is-default-class`. */
  labelSubKey(sub: string, name: string): string;
}

export const DEFAULT_API_DOMAIN = 'orch.io';

const DOMAIN_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;

export function createApiNames(domain: string = DEFAULT_API_DOMAIN): ApiNames {
  if (!DOMAIN_PATTERN.test(domain)) {
    throw new Error(`--api-domain must be a lowercase DNS name with at least two labels, such as orch.io; got ${JSON.stringify(domain)}`);
  }
  const isKubernetes = domain === 'k8s.io';
  const firstLabel = domain.split('.')[0] ?? domain;
  const prefix = isKubernetes ? 'kube' : firstLabel;
  const product = isKubernetes ? 'kubernetes' : firstLabel;
  const labelDomain = isKubernetes ? 'kubernetes.io' : domain;
  return {
    domain,
    labelDomain,
    prefix,
    product,
    systemNamespace: `${prefix}-system`,
    publicNamespace: `${prefix}-public`,
    nodeLeaseNamespace: `${prefix}-node-lease`,
    namespaceFinalizer: product,
    protobufMediaType: `application/vnd.${product}.protobuf`,
    metaGroup: `meta.${domain}`,
    openapiExtensionPrefix: `x-${product}-`,
    openapiNamePrefix: domain.split('.').reverse().join('.'),
    group: (base) => `${base}.${domain}`,
    key: (name) => `${domain}/${name}`,
    subKey: (sub, name) => `${sub}.${domain}/${name}`,
    labelKey: (name) => `${labelDomain}/${name}`,
    labelSubKey: (sub, name) => `${sub}.${labelDomain}/${name}`,
  };
}
