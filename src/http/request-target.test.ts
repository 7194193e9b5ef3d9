import { describe, expect, it } from 'vitest';
import { parseRequestTarget, RequestTargetError } from './request-target.js';

describe('parseRequestTarget', () => {
  it.each([
    ['/api/v1/namespaces', '/api/v1/namespaces', ''],
    ['/api/v1/namespaces/ns/configmaps/%2e%2e', '/api/v1/namespaces/ns/configmaps/..', ''],
    ['/a/../b/./c', '/a/../b/./c', ''],
    ['//', '//', ''],
    ['/x%2Fy?watch=1&labelSelector=a%3Db', '/x/y', 'watch=1&labelSelector=a%3Db'],
    ['/p?a=b#c', '/p', 'a=b%23c'],
    ['http://localhost:6443/api/v1/x?limit=1', '/api/v1/x', 'limit=1'],
    ['http://localhost:6443', '/', ''],
    ['http://localhost?limit=1', '/', 'limit=1'],
    ['*', '*', ''],
  ])('%s', (raw, path, search) => {
    const t = parseRequestTarget(raw);
    expect(t.path).toBe(path);
    expect(t.url.search.replace(/^\?/, '')).toBe(search);
  });

  it('keeps the query for typed reading', () => {
    expect(parseRequestTarget('/p?a=b#c').url.searchParams.get('a')).toBe('b#c');
    expect(parseRequestTarget('/p?d=1+2').url.searchParams.get('d')).toBe('1 2');
  });

  it.each(['http://%zz/api', 'http://[::1/api', 'http://a b/api', '/x/%zz', '/x/%', '/x/%C3%28', 'api/v1', ''])('refuses %j', (raw) => {
    expect(() => parseRequestTarget(raw)).toThrow(RequestTargetError);
  });
});
