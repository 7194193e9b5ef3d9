/** Reading a CertificateSigningRequest's state (Kubernetes' certificates helpers). Pure. */
import type { CertificateSigningRequest, CsrCondition } from '../../apis/certificates/v1/types.js';

export const hasTrueCondition = (csr: CertificateSigningRequest, type: string): boolean =>
  (csr.status?.conditions ?? []).some((c: CsrCondition) => c.type === type && c.status === 'True');

/** Approved and not denied. */
export const isApproved = (csr: CertificateSigningRequest): boolean => hasTrueCondition(csr, 'Approved') && !hasTrueCondition(csr, 'Denied');

export const conditionOf = (csr: CertificateSigningRequest, type: string): CsrCondition | undefined => (csr.status?.conditions ?? []).find((c) => c.type === type);

export const hasCertificate = (csr: CertificateSigningRequest): boolean => !!csr.status?.certificate;

/** `2006-01-02T15:04:05Z`. */
export const nowText = (now = new Date()): string => `${now.toISOString().slice(0, 19)}Z`;
