/**
 * TokenReview (authentication.<domain>/v1): "who is this bearer token?", answered by the server's
 * own authentication (every configured method, as a request's `Authorization: Bearer` would be)
 * and never stored. Create only, cluster-scoped. `spec.audiences` asks whether the token is good
 * for those audiences (default: the server's API audiences); `status.audiences` says for which.
 * A token that does not authenticate gives `authenticated: false` and the reason in `status.error`
 * (never the token itself).
 */
import { errors } from '../../../machinery/errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';

export const UserInfoSchema = t.struct('authentication.v1.UserInfo', {
  username: t.field(1, t.string(), { description: 'The name that uniquely identifies this user among all active users.' }),
  uid: t.field(2, t.string(), { description: 'A unique value that identifies this user across time; a user deleted and re-added with the same name gets another.' }),
  groups: t.field(3, t.list(t.string(), { listType: 'atomic' }), { description: 'The names of the groups this user is a part of.' }),
  extra: t.field(4, t.map(t.list(t.string())), { description: 'Any additional information provided by the authenticator.' }),
}, { description: 'The information about a user that authentication gives.' });

export const TokenReviewSpec = t.struct('authentication.v1.TokenReviewSpec', {
  token: t.field(1, t.string(), { description: 'The opaque bearer token.' }),
  audiences: t.field(2, t.list(t.string(), { listType: 'atomic' }), {
    description: 'Audiences the resource server presenting the token identifies as; the token must be good for at least one. Default: the API server\'s audiences.',
  }),
}, { description: 'The token to review.' });

export const TokenReviewStatus = t.struct('authentication.v1.TokenReviewStatus', {
  authenticated: t.field(1, t.bool(), { description: 'Whether the token belongs to a known user.' }),
  user: t.field(2, UserInfoSchema, { description: 'The user the token belongs to.' }),
  audiences: t.field(4, t.list(t.string(), { listType: 'atomic' }), {
    description: 'The audiences of spec.audiences the token is good for; absent when it is good for the API server alone.',
  }),
  error: t.field(3, t.string(), { description: 'Why the token could not be checked or was refused.' }),
}, { description: 'The result of the review.' });

export const TokenReviewSchema = t.struct('authentication.v1.TokenReview', {
  ...objectHeader,
  spec: t.field(2, TokenReviewSpec, { description: 'The token to review.' }),
  status: t.field(3, TokenReviewStatus, { description: 'The answer: whether the token authenticates, and as whom.' }),
}, { description: 'TokenReview asks whether a token authenticates, and as whom. It is answered by the server and never stored.' });
export type TokenReview = ObjectOf<typeof TokenReviewSchema>;

export const tokenReviewResource = defineResource<TokenReview>((names, env) => ({
  group: names.group('authentication'),
  version: 'v1',
  kind: 'TokenReview',
  resource: 'tokenreviews',
  singular: 'tokenreview',
  namespaced: false,
  verbs: ['create'],
  schema: TokenReviewSchema,
  fixture: () => ({ spec: { token: 'fixture-token' } }),
  strategy: { nameValidator: nameValidators.dnsSubdomain },
  async review(review, ctx) {
    if (!review.spec?.token) throw errors.badRequest('token is required for TokenReview in authentication');
    const reviewer = env.tokenReviewer;
    if (!reviewer) return review;
    const answer = await reviewer.review({ token: review.spec.token, ...(review.spec.audiences ? { audiences: review.spec.audiences } : {}) }, ctx.signal);
    return {
      ...review,
      status: {
        authenticated: answer.authenticated,
        ...(answer.user ? { user: { ...answer.user, extra: answer.user.extra ?? {} } } : {}),
        ...(answer.audiences && answer.audiences.length > 0 ? { audiences: answer.audiences } : {}),
        ...(answer.error ? { error: answer.error } : {}),
      },
    } as TokenReview;
  },
}));
