/**
 * CertificateApproval: approving or denying a certificate request through `/approval` needs the
 * `approve` verb on `signers` for the request's signer name (or its `domain/*`), as kube-apiserver
 * 1.25 checks it.
 */
import type { CertificateSigningRequest } from '../../../apis/certificates/v1/types.js';
import type { ApiNames } from '../../../machinery/api-names.js';
import { errors } from '../../../machinery/errors.js';
import type { AdmissionPlugin } from '../../types.js';
import { isAuthorizedForSignerName, type SignerAuthorizer } from './signer-authorization.js';

export type { SignerAuthorizer } from './signer-authorization.js';

export function certificateApproval(names: ApiNames, authorizer: SignerAuthorizer): AdmissionPlugin {
  const group = names.group('certificates');
  return {
    name: 'CertificateApproval',
    async validate(a) {
      if (a.operation !== 'UPDATE' || a.group !== group || a.resource !== 'certificatesigningrequests' || a.subresource !== 'approval') return;
      const csr = a.object as CertificateSigningRequest | undefined;
      const signerName = csr?.spec?.signerName ?? '';
      if (await isAuthorizedForSignerName(authorizer, group, a.user, 'approve', signerName, a.signal)) return;
      throw errors.forbidden({ group, resource: a.resource }, a.name, `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`);
    },
  };
}
