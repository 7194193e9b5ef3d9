/**
 * The built-in signers and what each accepts (Kubernetes' csrsigning checks): the API server client
 * signer any subject with `client auth` (and optionally `digital signature`, `key encipherment`);
 * the kubelet client signer a `system:node:<name>` in `system:nodes` with no alternative names and
 * exactly the client usages; the kubelet serving signer a `system:node:<name>` in `system:nodes`
 * with a DNS or IP name, no email or URI, and exactly the serving usages. `legacy-unknown` is never
 * signed in v1. Pure.
 */
import type { ApiNames } from '../../machinery/api-names.js';
import type { CertificateRequestInfo } from '../../machinery/x509/sign-request.js';

export type BuiltinSigner = 'kube-apiserver-client' | 'kube-apiserver-client-kubelet' | 'kubelet-serving';
export const BUILTIN_SIGNERS: readonly BuiltinSigner[] = ['kube-apiserver-client', 'kube-apiserver-client-kubelet', 'kubelet-serving'];

/** `orch.io/kube-apiserver-client` (`kubernetes.io/...` under k8s.io). */
export function signerName(names: ApiNames, signer: BuiltinSigner): string {
  return names.labelKey(signer);
}

/** Which built-in signer `name` is, if any. */
export function builtinSignerOf(names: ApiNames, name: string): BuiltinSigner | undefined {
  return BUILTIN_SIGNERS.find((s) => signerName(names, s) === name);
}

const sameSet = (a: ReadonlySet<string>, b: readonly string[]): boolean => a.size === b.length && b.every((x) => a.has(x));
const setText = (list: readonly string[]): string => `[${[...list].sort().join(' ')}]`;

const CLIENT_USAGES = ['client auth', 'digital signature', 'key encipherment'];
const CLIENT_USAGES_NO_RSA = ['client auth', 'digital signature'];
const SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];
const SERVING_USAGES_NO_RSA = ['digital signature', 'server auth'];

const NOT_SYSTEM_NODES = 'subject organization is not system:nodes';
const NOT_SYSTEM_NODE = 'subject common name does not begin with system:node:';

const isSystemNodes = (req: CertificateRequestInfo): boolean => req.organizations.length === 1 && req.organizations[0] === 'system:nodes';

/** Why the kubelet client signer refuses `req`, or undefined. */
export function kubeletClientProblem(req: CertificateRequestInfo, usages: readonly string[]): string | undefined {
  if (!isSystemNodes(req)) return NOT_SYSTEM_NODES;
  if (req.dnsNames.length) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length) return 'IP subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith('system:node:')) return NOT_SYSTEM_NODE;
  const set = new Set(usages);
  if (!sameSet(set, CLIENT_USAGES) && !sameSet(set, CLIENT_USAGES_NO_RSA)) return `usages did not match ${setText(CLIENT_USAGES)}`;
  return undefined;
}

/** Why the kubelet serving signer refuses `req`, or undefined. */
export function kubeletServingProblem(req: CertificateRequestInfo, usages: readonly string[]): string | undefined {
  if (!isSystemNodes(req)) return NOT_SYSTEM_NODES;
  if (!req.dnsNames.length && !req.ipAddresses.length) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  const set = new Set(usages);
  if (!sameSet(set, SERVING_USAGES) && !sameSet(set, SERVING_USAGES_NO_RSA)) return `usages did not match ${setText(SERVING_USAGES)}`;
  if (!req.commonName.startsWith('system:node:')) return NOT_SYSTEM_NODE;
  return undefined;
}

/** Why the API server client signer refuses these usages, or undefined. */
export function apiServerClientProblem(usages: readonly string[]): string | undefined {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'digital signature' || u === 'key encipherment') continue;
    if (u === 'client auth') clientAuth = true;
    else return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? undefined : 'missing required usage for client certificate: client auth';
}

/** Why `signer` refuses the request, or undefined when it signs it. */
export function signerProblem(signer: BuiltinSigner, req: CertificateRequestInfo, usages: readonly string[]): string | undefined {
  switch (signer) {
    case 'kube-apiserver-client':
      return apiServerClientProblem(usages);
    case 'kube-apiserver-client-kubelet':
      return kubeletClientProblem(req, usages);
    case 'kubelet-serving':
      return kubeletServingProblem(req, usages);
  }
}
