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

/**
 * Lets every caller, anonymous ones included, create CertificateSigningRequests, so that whoami
 * works under the default RBAC policy (which grants it to nobody). `admin` must be in
 * system:masters. Resolves once the grant is in effect.
 */
export async function letEveryoneAskWhoami(admin: Target, apiDomain = 'orch.io'): Promise<void> {
  const rbac = `/apis/rbac.authorization.${apiDomain}/v1`;
  const role = { metadata: { name: 'whoami' }, rules: [{ verbs: ['create'], apiGroups: [`certificates.${apiDomain}`], resources: ['certificatesigningrequests'] }] };
  const subjects = ['system:authenticated', 'system:unauthenticated'].map((name) => ({ kind: 'Group', apiGroup: `rbac.authorization.${apiDomain}`, name }));
  const binding = { metadata: { name: 'whoami' }, roleRef: { apiGroup: `rbac.authorization.${apiDomain}`, kind: 'ClusterRole', name: 'whoami' }, subjects };
  for (const [path, body] of [[`${rbac}/clusterroles`, role], [`${rbac}/clusterrolebindings`, binding]] as const) {
    const r = await httpCall(admin, 'POST', path, { body });
    if (r.status !== 201) throw new Error(`letEveryoneAskWhoami: ${path}: ${r.status} ${r.text}`);
  }
  const review = { spec: { user: 'system:anonymous', groups: ['system:unauthenticated'], resourceAttributes: { verb: 'create', group: `certificates.${apiDomain}`, resource: 'certificatesigningrequests' } } };
  for (let i = 0; i < 250; i++) {
    const r = await httpCall(admin, 'POST', `/apis/authorization.${apiDomain}/v1/subjectaccessreviews`, { body: review });
    if (r.body?.status?.allowed === true) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('letEveryoneAskWhoami: the grant never took effect');
}
