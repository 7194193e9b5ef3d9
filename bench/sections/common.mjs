/** Pieces the sections share. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATOR_LIMIT } from '../lib/generators.mjs';
import { expectStatus } from '../lib/load.mjs';
import { LOAD_USER } from '../lib/procs.mjs';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates namespace `name` (as `access`, the admin on a secure server). */
export async function createNamespace(url, name, access) {
  await expectStatus(url, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }), access }, 201);
}

/**
 * Namespace `ns` on `server`, and on a secure server a Role allowing the load user to read, watch and
 * create ConfigMaps there with a RoleBinding granting it: every load request then passes RBAC as a
 * non-admin user (not system:masters, which skips RBAC).
 */
export async function prepareNamespace(server, ns) {
  await createNamespace(server.url, ns, server.admin);
  if (!server.secure) return;
  const rbac = `/apis/rbac.authorization.${server.apiDomain ?? 'orch.io'}/v1/namespaces/${ns}`;
  const role = { apiVersion: `rbac.authorization.${server.apiDomain ?? 'orch.io'}/v1`, kind: 'Role', metadata: { name: 'bench-configmaps', namespace: ns }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'create'] }] };
  await expectStatus(server.url, { method: 'POST', path: `${rbac}/roles`, body: JSON.stringify(role), access: server.admin }, 201);
  const binding = {
    apiVersion: role.apiVersion,
    kind: 'RoleBinding',
    metadata: { name: 'bench-configmaps', namespace: ns },
    roleRef: { apiGroup: `rbac.authorization.${server.apiDomain ?? 'orch.io'}`, kind: 'Role', name: 'bench-configmaps' },
    subjects: [{ apiGroup: `rbac.authorization.${server.apiDomain ?? 'orch.io'}`, kind: 'User', name: LOAD_USER }],
  };
  await expectStatus(server.url, { method: 'POST', path: `${rbac}/rolebindings`, body: JSON.stringify(binding), access: server.admin }, 201);
}

/**
 * TLS client settings with a client certificate for the load user (CN=bench-user), signed with the
 * secure server's generated CA by the openssl CLI; undefined when openssl is missing.
 */
export function loadUserCertificate(server) {
  const pki = server.pkiDir;
  const key = join(server.dataDir, 'bench-user.key');
  const csr = join(server.dataDir, 'bench-user.csr');
  const crt = join(server.dataDir, 'bench-user.crt');
  try {
    const quiet = { stdio: 'ignore' };
    execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', key], quiet);
    execFileSync('openssl', ['req', '-new', '-key', key, '-subj', `/CN=${LOAD_USER}`, '-out', csr], quiet);
    execFileSync('openssl', ['x509', '-req', '-in', csr, '-CA', join(pki, 'ca.crt'), '-CAkey', join(pki, 'ca.key'), '-CAcreateserial', '-days', '1', '-out', crt], quiet);
    return { ca: readFileSync(join(pki, 'ca.crt')), cert: readFileSync(crt), key: readFileSync(key) };
  } catch {
    return undefined;
  }
}

/** The report's flags for one generator run: generator-limited, non-2xx answers. */
export function generatorNotes(run, name) {
  const notes = [];
  if (run.generatorCpuShare >= GENERATOR_LIMIT) notes.push(`GENERATOR-LIMITED: ${name} at ${(run.generatorCpuShare * 100).toFixed(0)}% of its core`);
  return notes;
}

/** Response headers worth replaying from the baseline: all but the per-connection and per-response ones. */
export function replayableHeaders(headers) {
  const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'audit-id']);
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !skip.has(k.toLowerCase())));
}

/** Runs `a` then `b` on even rounds and `b` then `a` on odd ones, so neither always goes first. */
export async function alternate(round, a, b) {
  if (round % 2 === 0) return [await a(), await b()];
  const rb = await b();
  return [await a(), rb];
}
