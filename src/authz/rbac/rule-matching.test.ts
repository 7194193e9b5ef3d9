import { describe, expect, it } from 'vitest';
import type { AuthorizationAttributes } from '../index.js';
import { ruleAllows, type RuleLike } from './rule-matching.js';

const base: AuthorizationAttributes = { user: { username: 'alice', groups: [] }, verb: 'get', isResourceRequest: true, path: '', namespace: 'ns', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: 'p1' };
const res = (over: Partial<AuthorizationAttributes>): AuthorizationAttributes => ({ ...base, ...over });
const path = (verb: string, p: string): AuthorizationAttributes => ({ ...base, isResourceRequest: false, verb, path: p, resource: '', apiGroup: '', name: '' });

describe('ruleAllows', () => {
  const cases: [string, RuleLike, AuthorizationAttributes, boolean][] = [
    ['exact verb, group, resource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res({}), true],
    ['another verb', { verbs: ['list'], apiGroups: [''], resources: ['pods'] }, res({}), false],
    ['verb *', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, res({ verb: 'deletecollection' }), true],
    ['group *', { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }, res({ apiGroup: 'apps', resource: 'deployments' }), true],
    ['another group', { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, res({}), false],
    ['resource *', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, res({ resource: 'secrets' }), true],
    ['resource * covers subresources', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, res({ subresource: 'log' }), true],
    ['resource alone does not cover its subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res({ subresource: 'log' }), false],
    ['resource/subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res({ subresource: 'log' }), true],
    ['resource/subresource does not cover the resource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res({}), false],
    ['*/subresource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }, res({ verb: 'update', apiGroup: 'apps', resource: 'deployments', subresource: 'scale' }), true],
    ['*/subresource is not another subresource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }, res({ verb: 'update', subresource: 'status' }), false],
    ['resourceNames allow the name', { verbs: ['get'], apiGroups: [''], resources: ['pods', 'configmaps'], resourceNames: ['p1'] }, res({}), true],
    ['resourceNames with several resources', { verbs: ['get'], apiGroups: [''], resources: ['pods', 'configmaps'], resourceNames: ['p1'] }, res({ resource: 'configmaps' }), true],
    ['resourceNames refuse another name', { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p2'] }, res({}), false],
    ['resourceNames refuse a nameless list', { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['p1'] }, res({ verb: 'list', name: '' }), false],
    ['non-resource exact', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path('get', '/healthz'), true],
    ['non-resource another path', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path('get', '/healthz/ping'), false],
    ['non-resource trailing *', { verbs: ['get'], nonResourceURLs: ['/healthz*'] }, path('get', '/healthz/ping'), true],
    ['non-resource /api/*', { verbs: ['get'], nonResourceURLs: ['/api/*'] }, path('get', '/api/v1'), true],
    ['non-resource /api/* is not /api', { verbs: ['get'], nonResourceURLs: ['/api/*'] }, path('get', '/api'), false],
    ['non-resource *', { verbs: ['*'], nonResourceURLs: ['*'] }, path('post', '/anything'), true],
    ['non-resource rule never allows a resource', { verbs: ['*'], nonResourceURLs: ['*'] }, res({}), false],
    ['resource rule never allows a path', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, path('get', '/healthz'), false],
  ];
  it.each(cases)('%s', (_label, rule, attrs, want) => expect(ruleAllows(attrs, rule)).toBe(want));
});
