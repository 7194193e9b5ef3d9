import { describe, expect, it } from 'vitest';
import { createApiNames } from '../../machinery/api-names.js';
import { parseTokenReviewVersion, readTokenReviewAnswer, tokenReviewRequest } from './token-review.js';

const orch = createApiNames('orch.io');
const k8s = createApiNames('k8s.io');

describe('TokenReview exchange', () => {
  it('asks in the chosen version of the server domain, with the audiences when there are some', () => {
    expect(tokenReviewRequest(orch, 'v1beta1', 't0k3n', undefined)).toEqual({
      apiVersion: 'authentication.orch.io/v1beta1',
      kind: 'TokenReview',
      metadata: { creationTimestamp: null },
      spec: { token: 't0k3n' },
      status: { user: {} },
    });
    expect(tokenReviewRequest(k8s, 'v1', 't', ['api', 'vault'])).toMatchObject({ apiVersion: 'authentication.k8s.io/v1', spec: { token: 't', audiences: ['api', 'vault'] } });
  });

  it('reads an approval with the user', () => {
    const answer = {
      apiVersion: 'authentication.orch.io/v1beta1',
      kind: 'TokenReview',
      status: { authenticated: true, user: { username: 'jane', uid: '42', groups: ['dev'], extra: { scopes: ['read'] } }, audiences: ['api'] },
    };
    expect(readTokenReviewAnswer(answer, orch, 'v1beta1')).toEqual({
      authenticated: true,
      user: { username: 'jane', uid: '42', groups: ['dev'], extra: { scopes: ['read'] } },
      audiences: ['api'],
    });
  });

  it('reads a denial with and without an error; status.error is ignored when authenticated', () => {
    expect(readTokenReviewAnswer({ apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', status: { authenticated: false, error: 'token revoked' } }, orch, 'v1')).toEqual({ authenticated: false, error: 'token revoked' });
    expect(readTokenReviewAnswer({ status: {} }, orch, 'v1')).toEqual({ authenticated: false });
    expect(readTokenReviewAnswer({ status: { authenticated: true, user: { username: 'j' }, error: 'ignored' } }, orch, 'v1')).toEqual({ authenticated: true, user: { username: 'j', groups: [] } });
  });

  it.each([
    ['another version', { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', status: { authenticated: true, user: { username: 'j' } } }, `the answer is "authentication.orch.io/v1", not the request's version "authentication.orch.io/v1beta1"`],
    ['another domain', { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview', status: {} }, `the answer is "authentication.k8s.io/v1beta1", not the request's version "authentication.orch.io/v1beta1"`],
    ['another kind', { apiVersion: 'authentication.orch.io/v1beta1', kind: 'Status' }, 'the answer is a "Status", not a TokenReview'],
    ['not an object', [1], 'the answer is not a JSON object'],
    ['approval without a user name', { status: { authenticated: true, user: { groups: ['x'] } } }, 'status.authenticated is true but status.user.username is empty'],
    ['groups that are not strings', { status: { authenticated: true, user: { username: 'j', groups: [1] } } }, 'status.user.groups is not a list of strings'],
    ['authenticated not a boolean', { status: { authenticated: 'true' } }, 'status.authenticated is not a boolean'],
  ])('refuses an answer of %s', (_name, body, message) => {
    expect(() => readTokenReviewAnswer(body, orch, 'v1beta1')).toThrow(message);
  });

  it('takes the version flag as v1beta1, v1 or the full group version', () => {
    expect(parseTokenReviewVersion('v1', orch)).toBe('v1');
    expect(parseTokenReviewVersion('v1beta1', orch)).toBe('v1beta1');
    expect(parseTokenReviewVersion('authentication.orch.io/v1', orch)).toBe('v1');
    expect(() => parseTokenReviewVersion('v2', orch)).toThrow('unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"');
    expect(() => parseTokenReviewVersion('authentication.k8s.io/v1', orch)).toThrow('unsupported authentication webhook version');
  });
});
