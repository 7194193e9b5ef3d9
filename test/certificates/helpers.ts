/** Certificate request steps over HTTP, as a client (or kubectl) takes them. */
import { expect } from 'vitest';
import { httpCall, type Reply, type Target } from '../helpers/server.js';

export const CSRS = '/apis/certificates.orch.io/v1/certificatesigningrequests';

export function csrBody(name: string, request: string, signerName: string, usages: string[], expirationSeconds?: number): Record<string, unknown> {
  return {
    apiVersion: 'certificates.orch.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: Buffer.from(request).toString('base64'), signerName, usages, ...(expirationSeconds ? { expirationSeconds } : {}) },
  };
}

/** Adds an Approved (or Denied) condition through /approval, as `kubectl certificate approve` does. */
export async function decide(target: Target, name: string, type: 'Approved' | 'Denied', headers: Record<string, string | string[]> = {}): Promise<Reply> {
  const current = await httpCall(target, 'GET', `${CSRS}/${name}`);
  expect(current.status).toBe(200);
  const csr = current.body;
  csr.status = { ...csr.status, conditions: [...(csr.status?.conditions ?? []), { type, status: 'True', reason: 'TestDecision', message: `${type} by the test` }] };
  return httpCall(target, 'PUT', `${CSRS}/${name}/approval`, { body: csr, headers });
}

/** Polls until `done` holds for the stored request (the controllers work asynchronously). */
export async function waitForCsr(target: Target, name: string, done: (csr: any) => boolean, what: string): Promise<any> {
  for (let i = 0; i < 500; i++) {
    const r = await httpCall(target, 'GET', `${CSRS}/${name}`);
    if (r.status === 200 && done(r.body)) return r.body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`certificate request ${name} never ${what}`);
}

export const conditionOf = (csr: any, type: string): any => (csr.status?.conditions ?? []).find((c: any) => c.type === type);
