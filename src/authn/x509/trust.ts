/**
 * Which CA bundle a verified client chain belongs to. The listener verifies a client certificate
 * against every CA the server trusts for clients (`--client-ca-file` and
 * `--requestheader-client-ca-file`); each authenticator then accepts only chains anchored in its
 * own bundle, so a proxy's certificate is not a user's and a user's is not a proxy's.
 *
 * Pure; reads no files. Throws (at construction) when the bundle holds no certificate.
 */
import { X509Certificate } from 'node:crypto';
import { decodeAllPem } from '../../machinery/pem.js';
import { NO_OPINION, failed, type AuthenticationRequest, type AuthenticationResult } from '../types.js';

export const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE_OID = '2.5.29.37.0';

export interface TrustBundle {
  /** Why `chain` (leaf first) is not good for client authentication now, or undefined when it is. */
  problem(chain: readonly X509Certificate[], now?: number): string | undefined;
}

export function trustBundle(pem: string): TrustBundle {
  const anchors = decodeAllPem(Buffer.from(pem)).filter((b) => b.type === 'CERTIFICATE').map((b) => new X509Certificate(b.bytes));
  if (anchors.length === 0) throw new Error('no PEM certificate in the CA bundle');
  const fingerprints = new Set(anchors.map((a) => a.fingerprint256));
  const anchored = (chain: readonly X509Certificate[]): boolean =>
    chain.some((c) => fingerprints.has(c.fingerprint256) || anchors.some((a) => c.checkIssued(a) && c.verify(a.publicKey)));
  return {
    problem(chain, now = Date.now()) {
      const leaf = chain[0];
      if (!leaf) return 'x509: no client certificate';
      if (!anchored(chain)) return 'x509: certificate signed by unknown authority';
      // The handshake checked the dates when the connection opened; a long-lived connection may outlast them.
      for (const c of chain) {
        const notBefore = Date.parse(c.validFrom);
        const notAfter = Date.parse(c.validTo);
        if (now < notBefore || now > notAfter) {
          return `x509: certificate has expired or is not yet valid: current time ${new Date(now).toISOString()} is ${now > notAfter ? `after ${new Date(notAfter).toISOString()}` : `before ${new Date(notBefore).toISOString()}`}`;
        }
      }
      const usages = leaf.keyUsage;
      if (usages && usages.length > 0 && !usages.includes(CLIENT_AUTH_OID) && !usages.includes(ANY_EXTENDED_KEY_USAGE_OID)) return 'x509: certificate specifies an incompatible key usage';
      return undefined;
    },
  };
}

/** The certificate's identity for log lines (never a credential): serial number and issuer. */
export function describeCertificate(cert: X509Certificate): string {
  return `SN=${cert.serialNumber}, issuer="${cert.issuer.replace(/\n/g, ', ')}"`;
}

/**
 * The leaf of the certificate the caller presented, when it is anchored in `trust`; otherwise the
 * answer to give: no opinion without a certificate, an error for one that did not verify. Shared by
 * the x509 and request-header authenticators, which differ only in what they read from a good leaf.
 */
export function trustedLeaf(req: AuthenticationRequest, trust: TrustBundle): { leaf: X509Certificate } | AuthenticationResult {
  const peer = req.tls;
  if (!peer) return NO_OPINION;
  if (peer.verificationError) return failed(`verifying certificate failed: ${peer.verificationError}`);
  const chain = peer.verifiedChain;
  if (!chain || chain.length === 0) return NO_OPINION;
  const leaf = chain[0] as X509Certificate;
  const problem = trust.problem(chain);
  if (problem) return failed(`verifying certificate ${describeCertificate(leaf)} failed: ${problem}`);
  return { leaf };
}
