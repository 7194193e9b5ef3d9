/** CertificateSigningRequest columns: AGE, SIGNERNAME, REQUESTOR, REQUESTEDDURATION, CONDITION. */
import { humanDuration } from '../../../machinery/duration.js';
import { age, ageColumn, column, defineTable, nameColumn } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/index.js';

type CsrShape = KubeObject & {
  spec?: { signerName?: string; username?: string; expirationSeconds?: number };
  status?: { conditions?: { type?: string }[]; certificate?: string };
};

/** Denied over Approved over Pending; then Failed and Issued when they apply. */
function condition(csr: CsrShape): string {
  const types = new Set((csr.status?.conditions ?? []).map((c) => c.type));
  let text = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) text += ',Failed';
  if (csr.status?.certificate) text += ',Issued';
  return text;
}

export const csrTable = defineTable<CsrShape>({
  columns: [
    nameColumn,
    ageColumn,
    column('SignerName', 'The signer asked to issue the certificate'),
    column('Requestor', 'The user that made the request'),
    column('RequestedDuration', 'How long the certificate was asked to be valid'),
    column('Condition', 'Whether the request is pending, approved or denied, and issued'),
  ],
  cells: (csr, ctx) => [
    csr.metadata.name ?? '',
    age(csr, ctx),
    csr.spec?.signerName || '<none>',
    csr.spec?.username ?? '',
    csr.spec?.expirationSeconds != null ? humanDuration(csr.spec.expirationSeconds * 1000) : '<none>',
    condition(csr),
  ],
});
