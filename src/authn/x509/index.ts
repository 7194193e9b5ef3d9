/**
 * Client certificates (`--client-ca-file`), as Kubernetes' x509 authenticator: the user is the
 * leaf's subject CN, the groups its O values. A certificate that did not verify (unknown CA,
 * expired, not for client authentication) is an error, so the request gets 401 unless another
 * credential proves a user; no certificate, or one without a CN, is no opinion.
 */
import { subjectNames } from '../../machinery/x509/certificates.js';
import { NO_OPINION, authenticated, type Authenticator } from '../types.js';
import { trustBundle, trustedLeaf } from './trust.js';

export { trustBundle, describeCertificate, type TrustBundle } from './trust.js';

export function x509ClientCertificates(caBundlePem: string): Authenticator {
  const trust = trustBundle(caBundlePem);
  return {
    async authenticate(req) {
      const checked = trustedLeaf(req, trust);
      if (!('leaf' in checked)) return checked;
      const { commonName, organizations } = subjectNames(checked.leaf.raw);
      if (commonName === '') return NO_OPINION;
      return authenticated({ username: commonName, groups: organizations });
    },
  };
}
