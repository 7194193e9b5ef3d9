/**
 * What HTTP tests cannot reach yet: the requester's identity from authentication (no authenticator
 * exists yet), and the tolerance of problems only an object stored by an older server can have.
 */
import { describe, expect, it } from 'vitest';
import { EC_CSR } from '../../../../test/kinds/certificates/fixtures.js';
import { createApiNames } from '../../../machinery/api-names.js';
import { fieldErrorText } from '../../../machinery/field-errors.js';
import type { ResourceDefinition, StrategyContext } from '../../../registry/define-resource.js';
import { certificateSigningRequestResource } from './certificatesigningrequest.js';
import type { CertificateSigningRequest } from './types.js';
import { csrValidationOptions, validateCsrUpdate } from './validation.js';

const names = createApiNames();
const def = certificateSigningRequestResource(names, { names }) as unknown as ResourceDefinition<CertificateSigningRequest>;
const ctx = (user?: StrategyContext['user']): StrategyContext => ({ names, namespace: '', subresource: '', now: new Date('2024-05-01T10:00:00Z'), ...(user ? { user } : {}) });

function csr(spec: Partial<CertificateSigningRequest['spec']> = {}, status: CertificateSigningRequest['status'] = {}): CertificateSigningRequest {
  return {
    metadata: { name: 'x' },
    spec: { request: Buffer.from(EC_CSR).toString('base64'), signerName: 'example.com/s', usages: ['client auth'], ...spec },
    status,
  };
}

describe('the requester recorded on create', () => {
  it('comes from the authenticated user, replacing what the client sent', () => {
    const obj = csr({ username: 'mallory', groups: ['system:masters'] });
    def.strategy.prepareForCreate?.(obj, ctx({ username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'] } }));
    expect(obj.spec).toMatchObject({ username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'] } });
  });

  it('leaves out what the user does not have', () => {
    const obj = csr({ uid: 'spoofed', extra: { x: ['y'] } });
    def.strategy.prepareForCreate?.(obj, ctx({ username: 'system:anonymous', groups: ['system:unauthenticated'] }));
    expect(obj.spec.username).toBe('system:anonymous');
    expect(obj.spec.uid).toBeUndefined();
    expect(obj.spec.extra).toBeUndefined();
  });
});

describe('updates of objects an older server stored', () => {
  const update = (next: CertificateSigningRequest, old: CertificateSigningRequest): string[] =>
    validateCsrUpdate(next, old, csrValidationOptions(next, old, names), names).map(fieldErrorText);

  it('tolerate the legacy signer, unknown and duplicate usages already there', () => {
    const old = csr({ signerName: 'orch.io/legacy-unknown', usages: ['client auth', 'client auth', 'telepathy'] });
    const next = structuredClone(old);
    next.metadata.labels = { a: 'b' };
    expect(update(next, old)).toEqual([]);
    // A new object gets no such tolerance.
    expect(update(next, csr()).length).toBeGreaterThan(0);
  });

  it('tolerate Approved beside Denied, duplicate and empty condition types already there', () => {
    const conditions = [
      { type: 'Approved', status: 'True' },
      { type: 'Denied', status: 'True' },
      { type: 'X', status: 'True' },
      { type: 'X', status: 'True' },
      { type: '', status: 'True' },
    ];
    const old = csr({}, { conditions });
    expect(update(structuredClone(old), old)).toEqual([]);
    expect(update(structuredClone(old), csr()).length).toBeGreaterThan(0);
  });

  it('tolerate a stored certificate that does not parse, as long as it is not changed', () => {
    const old = csr({}, { certificate: Buffer.from('garbage').toString('base64') });
    expect(update(structuredClone(old), old)).toEqual([]);
  });
});
