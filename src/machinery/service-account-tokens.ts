/**
 * The seam between the TokenRequest subresource (src/apis/core/v1, which decides what a request
 * may have) and the service-account token machinery (src/authn/service-account, which signs): the
 * composition root hands the kinds an issuer when a signing key is configured.
 */

export interface BoundTokenRequest {
  readonly serviceAccount: { readonly namespace: string; readonly name: string; readonly uid: string };
  /** The Pod the token is bound to (its deletion revokes the token); at most one of pod and secret. */
  readonly pod?: { readonly name: string; readonly uid: string };
  readonly secret?: { readonly name: string; readonly uid: string };
  readonly audiences: readonly string[];
  /** Seconds from issue to expiry, as the token carries it. */
  readonly expirationSeconds: number;
  /** For a pod-bound token whose expiry was extended: use after this many seconds counts as stale. */
  readonly warnAfterSeconds?: number;
}

export interface ServiceAccountTokenIssuer {
  /** The server's API audiences: a request that names none gets these. */
  readonly audiences: readonly string[];
  /** `--service-account-max-token-expiration` in seconds; 0 for no limit. */
  readonly maxExpirationSeconds: number;
  /** `--service-account-extend-token-expiration`. */
  readonly extendExpiration: boolean;
  /** The signed token, issued at `now`. Safe to call concurrently; mutates nothing. */
  issue(request: BoundTokenRequest, now: Date): Promise<string>;
}
