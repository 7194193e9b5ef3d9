/**
 * Whether a user may `approve` or `sign` for a signer: Kubernetes asks the authorizer about the
 * resource `signers` of the certificates group named by the signer name, then, failing that, by the
 * signer's domain with `/*` (`example.com/*`). An authorizer error counts as no.
 */
import type { UserInfo } from '../../../machinery/user-info.js';

/** The part of the server's authorizer these plugins ask (structurally the authorization seam's). */
export interface SignerAuthorizer {
  authorize(
    attrs: {
      readonly user: UserInfo | undefined;
      readonly verb: string;
      readonly isResourceRequest: boolean;
      readonly path: string;
      readonly namespace: string;
      readonly apiGroup: string;
      readonly apiVersion: string;
      readonly resource: string;
      readonly subresource: string;
      readonly name: string;
    },
    signal: AbortSignal,
  ): Promise<{ readonly decision: string }>;
}

export async function isAuthorizedForSignerName(
  authorizer: SignerAuthorizer,
  certificatesGroup: string,
  user: UserInfo | undefined,
  verb: 'approve' | 'sign',
  signerName: string,
  signal: AbortSignal,
): Promise<boolean> {
  const ask = async (name: string): Promise<boolean> => {
    try {
      const result = await authorizer.authorize(
        { user, verb, isResourceRequest: true, path: '', namespace: '', apiGroup: certificatesGroup, apiVersion: '*', resource: 'signers', subresource: '', name },
        signal,
      );
      return result.decision === 'allow';
    } catch {
      return false;
    }
  };
  if (await ask(signerName)) return true;
  const domain = signerName.split('/')[0] ?? '';
  return ask(`${domain}/*`);
}
