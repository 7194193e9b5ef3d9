import { describe, expect, it } from 'vitest';
import { createApiNames } from '../../machinery/api-names.js';
import type { CertificateRequestInfo } from '../../machinery/x509/sign-request.js';
import { certificateLifetimeMs } from './index.js';
import { builtinSignerOf, signerProblem } from './signers.js';

const req = (over: Partial<CertificateRequestInfo> = {}): CertificateRequestInfo => ({
  commonName: 'system:node:n1',
  organizations: ['system:nodes'],
  dnsNames: [],
  ipAddresses: [],
  emailAddresses: [],
  uris: [],
  ...over,
});

describe('built-in signers', () => {
  it('are known by their names under the domain; legacy-unknown is not one', () => {
    const orch = createApiNames('orch.io');
    expect(builtinSignerOf(orch, 'orch.io/kube-apiserver-client')).toBe('kube-apiserver-client');
    expect(builtinSignerOf(createApiNames('k8s.io'), 'kubernetes.io/kubelet-serving')).toBe('kubelet-serving');
    expect(builtinSignerOf(orch, 'orch.io/legacy-unknown')).toBeUndefined();
    expect(builtinSignerOf(orch, 'example.com/x')).toBeUndefined();
  });

  it.each([
    ['kube-apiserver-client', req({ organizations: ['anything'] }), ['client auth'], undefined],
    ['kube-apiserver-client', req(), ['client auth', 'key encipherment', 'digital signature'], undefined],
    ['kube-apiserver-client', req(), ['server auth', 'client auth'], 'invalid usage for client certificate: server auth'],
    ['kube-apiserver-client', req(), ['digital signature'], 'missing required usage for client certificate: client auth'],
    ['kube-apiserver-client-kubelet', req(), ['digital signature', 'client auth'], undefined],
    ['kube-apiserver-client-kubelet', req(), ['digital signature', 'key encipherment', 'client auth'], undefined],
    ['kube-apiserver-client-kubelet', req({ organizations: ['dev'] }), ['client auth'], 'subject organization is not system:nodes'],
    ['kube-apiserver-client-kubelet', req({ dnsNames: ['n1'] }), ['client auth'], 'DNS subjectAltNames are not allowed'],
    ['kube-apiserver-client-kubelet', req({ ipAddresses: ['1.2.3.4'] }), ['client auth'], 'IP subjectAltNames are not allowed'],
    ['kube-apiserver-client-kubelet', req({ commonName: 'jane' }), ['client auth', 'digital signature'], 'subject common name does not begin with system:node:'],
    ['kube-apiserver-client-kubelet', req(), ['client auth'], 'usages did not match [client auth digital signature key encipherment]'],
    ['kubelet-serving', req({ dnsNames: ['n1.example'] }), ['digital signature', 'server auth'], undefined],
    ['kubelet-serving', req(), ['digital signature', 'server auth'], 'DNS or IP subjectAltName is required'],
    ['kubelet-serving', req({ ipAddresses: ['10.0.0.1'], uris: ['spiffe://a'] }), ['digital signature', 'server auth'], 'URI subjectAltNames are not allowed'],
    ['kubelet-serving', req({ ipAddresses: ['10.0.0.1'] }), ['client auth'], 'usages did not match [digital signature key encipherment server auth]'],
  ] as const)('%s %j %j → %s', (signer, r, usages, problem) => {
    expect(signerProblem(signer, r, usages)).toBe(problem);
  });

  it('issue for the shorter of the asked lifetime and the signing duration, at least ten minutes', () => {
    const year = 8760 * 3600_000;
    expect(certificateLifetimeMs(undefined, year)).toBe(year);
    expect(certificateLifetimeMs(600, year)).toBe(600_000);
    expect(certificateLifetimeMs(100, year)).toBe(600_000);
    expect(certificateLifetimeMs(10 * 8760 * 3600, year)).toBe(year);
  });
});
