/**
 * Who the server takes a caller for. Kubernetes 1.25 has no "who am I" endpoint, but a
 * CertificateSigningRequest records its requester (spec.username, groups, extra, uid), so a
 * dry-run create shows the authenticated user and stores nothing.
 */
import { EC_CSR, b64 } from '../kinds/certificates/fixtures.js';
import { httpCall, type Reply, type Target } from './server.js';

export interface Identity {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export function csrDryRunBody(apiDomain = 'orch.io'): Record<string, unknown> {
  return {
    apiVersion: `certificates.${apiDomain}/v1`,
    kind: 'CertificateSigningRequest',
    metadata: { generateName: 'whoami-' },
    spec: { request: b64(EC_CSR), signerName: 'example.com/whoami', usages: ['client auth'] },
  };
}

/** The reply of a dry-run CSR create with `headers`, and the user it recorded when it succeeded. */
export async function whoami(target: Target, headers: Record<string, string> = {}, apiDomain = 'orch.io'): Promise<{ reply: Reply; user?: Identity }> {
  const reply = await httpCall(target, 'POST', `/apis/certificates.${apiDomain}/v1/certificatesigningrequests?dryRun=All`, { body: csrDryRunBody(apiDomain), headers });
  if (reply.status !== 201) return { reply };
  const spec = reply.body.spec as { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  return {
    reply,
    user: { username: spec.username, groups: spec.groups ?? [], ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra ? { extra: spec.extra } : {}) },
  };
}
