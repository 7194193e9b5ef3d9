/**
 * CertificateSubjectRestriction: a request to the API server client signer may not ask for the
 * `system:masters` group (an Organization of its subject), which would make a cluster administrator
 * no RBAC rule can restrict. As kube-apiserver 1.25, on create.
 */
import type { CertificateSigningRequest } from '../../../apis/certificates/v1/types.js';
import type { ApiNames } from '../../../machinery/api-names.js';
import { errors } from '../../../machinery/errors.js';
import { certificateRequestInfo } from '../../../machinery/x509/sign-request.js';
import type { AdmissionPlugin } from '../../types.js';

export function certificateSubjectRestriction(names: ApiNames): AdmissionPlugin {
  const group = names.group('certificates');
  const apiServerClient = names.labelKey('kube-apiserver-client');
  return {
    name: 'CertificateSubjectRestriction',
    validate(a) {
      if (a.operation !== 'CREATE' || a.group !== group || a.resource !== 'certificatesigningrequests' || a.subresource !== '') return;
      const csr = a.object as CertificateSigningRequest | undefined;
      if (csr?.spec?.signerName !== apiServerClient) return;
      const forbidden = (why: string) => errors.forbidden({ group, resource: a.resource }, a.name, why);
      let organizations: string[];
      try {
        organizations = certificateRequestInfo(Buffer.from(csr.spec.request ?? '', 'base64')).organizations;
      } catch (e) {
        throw forbidden(`failed to parse CSR: ${(e as Error).message}`);
      }
      if (organizations.includes('system:masters')) throw forbidden(`use of ${apiServerClient} signer with system:masters group is not allowed`);
    },
  };
}
