/**
 * Client certificates (`--client-ca-file`), as Kubernetes' x509 authenticator: the user is the
 * leaf's subject CN, the groups its O values. A certificate that did not verify (unknown CA,
 * expired, not for client authentication) is an error, so the request gets 401 unless another
 * credential proves a user; no certificate, or one without a CN, is no opinion.
 */
import type { X509Certificate } from 'node:crypto';
import { subjectNames } from '../../machinery/x509/certificates.js';
import { NO_OPINION, authenticated, failed, type Authenticator } from '../types.js';
import { describeCertificate, trustBundle } from './trust.js';

export { trustBundle, describeCertificate, type TrustBundle } from './trust.js';

export function x509ClientCertificates(caBundlePem: string): Authenticator {
  const trust = trustBundle(caBundlePem);
  return {
    async authenticate(req) {
      const peer = req.tls;
      if (!peer) return NO_OPINION;
      if (peer.verificationError) return failed(`verifying certificate failed: ${peer.verificationError}`);
      const chain = peer.verifiedChain;
      if (!chain || chain.length === 0) return NO_OPINION;
      const leaf = chain[0] as X509Certificate;
      const problem = trust.problem(chain);
      if (problem) return failed(`verifying certificate ${describeCertificate(leaf)} failed: ${problem}`);
      const { commonName, organizations } = subjectNames(leaf.raw);
      if (commonName === '') return NO_OPINION;
      return authenticated({ username: commonName, groups: organizations });
    },
  };
}
