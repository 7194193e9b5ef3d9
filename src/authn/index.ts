/**
 * The authentication seam: an Authenticator looks at a request's credentials and answers with the
 * user they prove, with no opinion (no credential it knows), or with an error (a credential it
 * knows that does not hold: forged, expired, revoked). `unionAuthenticators` asks each in turn:
 * the first that proves a user decides; errors count only when nobody proves one (as Kubernetes'
 * union, so a client certificate of another CA does not stop a good bearer token).
 *
 * Bearer tokens have a seam of their own, `TokenAuthenticator`: the `Authorization` header is
 * parsed once (bearer-token/) and the token handed to each token authenticator of the union.
 *
 * A new method is a folder here (`src/authn/<method>/index.ts`) and one line in
 * src/server/authentication.ts, which builds the union from the options.
 */
export * from './types.js';
export { unionAuthenticators, unionTokenAuthenticators, AuthenticationErrors } from './union.js';
export { withAuthenticatedGroup } from './authenticated-group.js';
export { audienceAgnostic, audienceAgnosticToken, audiencesAreAcceptable, intersectAudiences } from './audiences.js';
