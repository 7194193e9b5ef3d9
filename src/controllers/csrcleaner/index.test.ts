import { describe, expect, it } from 'vitest';
import type { CertificateSigningRequest } from '../../apis/certificates/v1/types.js';
import { cleanupReason } from './index.js';

const now = Date.parse('2026-01-02T12:00:00Z');
const ago = (ms: number): string => `${new Date(now - ms).toISOString().slice(0, 19)}Z`;
const H = 3600_000;
const csr = (created: string, conditions: { type: string; at: string }[], certificate?: string): CertificateSigningRequest =>
  ({
    metadata: { name: 'x', creationTimestamp: created },
    spec: { request: '', signerName: 'example.com/x' },
    status: { conditions: conditions.map((c) => ({ type: c.type, status: 'True', lastUpdateTime: c.at })), ...(certificate ? { certificate } : {}) },
  }) as unknown as CertificateSigningRequest;

describe('csrcleaner schedule', () => {
  it.each([
    ['pending for a day and a bit', csr(ago(25 * H), []), 'it has been pending for over a day'],
    ['pending for 23 hours', csr(ago(23 * H), []), undefined],
    ['denied over an hour ago', csr(ago(2 * H), [{ type: 'Denied', at: ago(61 * 60_000) }]), 'it was denied over an hour ago'],
    ['denied a minute ago', csr(ago(2 * H), [{ type: 'Denied', at: ago(60_000) }]), undefined],
    ['failed over an hour ago', csr(ago(2 * H), [{ type: 'Approved', at: ago(2 * H) }, { type: 'Failed', at: ago(2 * H) }]), 'it failed over an hour ago'],
    ['approved without a certificate for two hours', csr(ago(3 * H), [{ type: 'Approved', at: ago(2 * H) }]), undefined],
  ])('%s', (_what, request, reason) => {
    expect(cleanupReason(request, now)).toBe(reason);
  });
});
