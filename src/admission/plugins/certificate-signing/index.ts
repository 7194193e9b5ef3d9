/**
 * CertificateSigning: setting or changing a certificate request's `status.certificate` through
 * `/status` needs the `sign` verb on `signers` for the request's signer name (or its `domain/*`), as
 * kube-apiserver 1.25 checks it. Other status changes (a Failed condition) need no such permission.
 */
import type { CertificateSigningRequest } from '../../../apis/certificates/v1/types.js';
import type { ApiNames } from '../../../machinery/api-names.js';
import { errors } from '../../../machinery/errors.js';
import type { AdmissionPlugin } from '../../types.js';
import { isAuthorizedForSignerName, type SignerAuthorizer } from '../certificate-approval/signer-authorization.js';

export function certificateSigning(names: ApiNames, authorizer: SignerAuthorizer): AdmissionPlugin {
  const group = names.group('certificates');
  return {
    name: 'CertificateSigning',
    async validate(a) {
      if (a.operation !== 'UPDATE' || a.group !== group || a.resource !== 'certificatesigningrequests' || a.subresource !== 'status') return;
      const csr = a.object as CertificateSigningRequest | undefined;
      const old = a.oldObject as CertificateSigningRequest | undefined;
      if ((csr?.status?.certificate ?? '') === (old?.status?.certificate ?? '')) return;
      const signerName = old?.spec?.signerName ?? '';
      if (await isAuthorizedForSignerName(authorizer, group, a.user, 'sign', signerName, a.signal)) return;
      throw errors.forbidden({ group, resource: a.resource }, a.name, `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`);
    },
  };
}
