import { describe, expect, it } from 'vitest';
import { reviewSpec } from './authorizer.js';

describe('reviewSpec', () => {
  const user = { username: 'alice', uid: 'u1', groups: ['dev'], extra: { scopes: ['a'] } };
  it('names groups by the version and leaves empty attributes out', () => {
    const attrs = { user, verb: 'get', isResourceRequest: true, path: '/api/v1/pods', namespace: '', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: '' };
    expect(reviewSpec(attrs, 'v1beta1')).toEqual({ user: 'alice', uid: 'u1', group: ['dev'], extra: { scopes: ['a'] }, resourceAttributes: { verb: 'get', version: 'v1', resource: 'pods' } });
    expect(reviewSpec(attrs, 'v1')).toMatchObject({ groups: ['dev'] });
  });
  it('asks about a path for a non-resource request', () => {
    expect(reviewSpec({ user, verb: 'get', isResourceRequest: false, path: '/healthz', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' }, 'v1').nonResourceAttributes).toEqual({ path: '/healthz', verb: 'get' });
  });
});
