/**
 * CertificateSigningRequest (certificates/v1, cluster-scoped, `csr`). The spec is fixed at create,
 * with the requester's identity recorded by the server; conditions change only through
 * `/approval` (Approved, Denied) and `/status` (others, such as Failed); the certificate is set
 * once, through `/status`. A main-endpoint update changes metadata only.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource, type PartialSubresource, statusSubresource, type StrategyContext } from '../../../registry/define-resource.js';
import { CertificateSigningRequestSchema, type CertificateSigningRequest, type CsrCondition } from './types.js';
import { csrValidationOptions, validateCsr, validateCsrUpdate } from './validation.js';
import { csrTable } from './csr-table.js';

const formatTime = (d: Date): string => `${d.toISOString().slice(0, 19)}Z`;

/** Fills in missing condition times: now, or the old transition time when type and status are unchanged. Mutates. */
function populateConditionTimestamps(csr: CertificateSigningRequest, old: CertificateSigningRequest, ctx: StrategyContext): void {
  const now = formatTime(ctx.now);
  for (const c of csr.status.conditions ?? []) {
    if (!c.lastUpdateTime) c.lastUpdateTime = now;
    if (!c.lastTransitionTime) {
      const same = (old.status.conditions ?? []).find((o) => o.type === c.type && o.status === c.status && o.lastTransitionTime);
      c.lastTransitionTime = same?.lastTransitionTime ?? now;
    }
  }
}

/**
 * /status may not touch Approved and Denied conditions: when it keeps their number, their stored
 * values are put back in place; adding or removing one is left for validation to refuse. Mutates.
 */
function preserveApprovalConditions(csr: CertificateSigningRequest, old: CertificateSigningRequest): void {
  const conditions: CsrCondition[] = csr.status.conditions ?? [];
  for (const type of ['Approved', 'Denied']) {
    const oldOnes = (old.status.conditions ?? []).filter((c) => c.type === type);
    const newIndices = conditions.flatMap((c, i) => (c.type === type ? [i] : []));
    if (oldOnes.length !== newIndices.length) continue;
    newIndices.forEach((at, k) => (conditions[at] = structuredClone(oldOnes[k] as CsrCondition)));
  }
}

function approvalSubresource(names: ApiNames): PartialSubresource<CertificateSigningRequest> {
  return {
    kind: 'partial',
    verbs: ['get', 'patch', 'update'],
    // Only metadata and the conditions come from the request; the spec and certificate stay as stored.
    merge: (sent, current) => {
      const merged = structuredClone(current);
      merged.metadata = structuredClone(sent.metadata);
      const conditions = sent.status?.conditions;
      merged.status = { ...merged.status };
      if (conditions === undefined) delete merged.status.conditions;
      else merged.status.conditions = structuredClone(conditions);
      return merged;
    },
    prepareForUpdate: (csr, old, ctx) => populateConditionTimestamps(csr, old, ctx),
    validateUpdate: (csr, old) => validateCsrUpdate(csr, old, { ...csrValidationOptions(csr, old, names), allowSettingApprovalConditions: true }, names),
  };
}

/** A real signed request for the fixture: an Ed25519 key's request for CN=fixture. */
const FIXTURE_REQUEST = `-----BEGIN CERTIFICATE REQUEST-----
MIGRMEUCAQAwEjEQMA4GA1UEAwwHZml4dHVyZTAqMAUGAytlcAMhAGgnvBU09Jzb
5ueGX1TcpOkESVNbtSEkVlaCczfwDHYVoAAwBQYDK2VwA0EA71ZN3ftmz3IjoxbJ
amGvVJsQui7SKtYAU9Sshn5Iwlg4ERgGvA/K4vdvbghmJpdh9dk+zHXA6dThCzPR
ViXCCw==
-----END CERTIFICATE REQUEST-----
`;

export const certificateSigningRequestResource = defineResource<CertificateSigningRequest>((names) => ({
  group: names.group('certificates'),
  version: 'v1',
  kind: 'CertificateSigningRequest',
  resource: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  namespaced: false,
  shortNames: ['csr'],
  schema: CertificateSigningRequestSchema,
  table: csrTable,
  fixture: () => ({
    spec: {
      request: Buffer.from(FIXTURE_REQUEST).toString('base64'),
      signerName: 'example.com/fixture-signer',
      usages: ['digital signature', 'client auth'],
    },
  }),
  strategy: {
    // Kubernetes does not care what requests are called; a name must still work as a path segment.
    nameValidator: nameValidators.pathSegment,
    selectableFieldNames: ['spec.signerName'],
    selectableFields: (csr) => ({ 'spec.signerName': csr.spec.signerName }),
    prepareForCreate(csr, ctx) {
      // Who asked is the server's to say; users cannot create pre-approved or pre-issued requests.
      delete csr.spec.username;
      delete csr.spec.uid;
      delete csr.spec.groups;
      delete csr.spec.extra;
      const user = ctx.user;
      if (user) {
        if (user.username) csr.spec.username = user.username;
        if (user.uid) csr.spec.uid = user.uid;
        if (user.groups.length) csr.spec.groups = [...user.groups];
        if (user.extra && Object.keys(user.extra).length) csr.spec.extra = structuredClone(user.extra);
      }
      csr.status = {};
    },
    prepareForUpdate(csr, old) {
      csr.spec = structuredClone(old.spec);
      csr.status = structuredClone(old.status);
    },
    validateCreate: (csr) => validateCsr(csr, csrValidationOptions(csr, undefined, names), names),
    validateUpdate: (csr, old) => validateCsrUpdate(csr, old, csrValidationOptions(csr, old, names), names),
  },
  subresources: {
    status: statusSubresource<CertificateSigningRequest>({
      prepareForUpdate(csr, old, ctx) {
        csr.spec = structuredClone(old.spec);
        preserveApprovalConditions(csr, old);
        populateConditionTimestamps(csr, old, ctx);
      },
      validateUpdate: (csr, old) => validateCsrUpdate(csr, old, { ...csrValidationOptions(csr, old, names), allowSettingCertificate: true }, names),
    }),
    approval: approvalSubresource(names),
  },
}));
