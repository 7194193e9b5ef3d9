import { describe, expect, it } from 'vitest';
import { parseTokenFile, staticTokens } from './index.js';

const signal = new AbortController().signal;

describe('parseTokenFile', () => {
  it('reads token, user, uid and the optional comma-separated groups', () => {
    const users = parseTokenFile('t1,jane,42,"dev,ops"\nt2,bob,,\nt3,carol,7\n', 'tokens.csv');
    expect(users.get('t1')).toEqual({ username: 'jane', uid: '42', groups: ['dev', 'ops'] });
    expect(users.get('t2')).toEqual({ username: 'bob', groups: [''] });
    expect(users.get('t3')).toEqual({ username: 'carol', uid: '7', groups: [] });
  });

  it('skips an empty token and lets a repeated token take the later record, warning about each', () => {
    const warnings: string[] = [];
    const log = { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (m: string) => void warnings.push(m) };
    const users = parseTokenFile(',nobody,1\nt,first,1\nt,second,2\n', 'f.csv', log);
    expect([...users.keys()]).toEqual(['t']);
    expect(users.get('t')?.username).toBe('second');
    expect(warnings).toEqual(["empty token has been found in token file 'f.csv', record number '1'", "duplicate token has been found in token file 'f.csv', record number '3'"]);
  });

  it.each<[string, string]>([
    ['t,jane,1\n# a comment\n', "token file 'f.csv' must have at least 3 columns (token, user name, user uid), found 1 on line 2"],
    ['t,jane\n', 'found 2 on line 1'],
    ['t,jane,1\nx,y"z,1\n', "token file 'f.csv': parse error on line 2, column 4"],
  ])('refuses %j', (text, message) => expect(() => parseTokenFile(text, 'f.csv')).toThrow(message));
});

describe('staticTokens', () => {
  const tokens = staticTokens(parseTokenFile('secret-one,jane,1,dev\nsecret-two,bob,2\n', 'f.csv'));
  it('proves the user of a known token, and has no opinion about others', async () => {
    expect(await tokens.authenticateToken({ token: 'secret-one' }, signal)).toEqual({ kind: 'user', user: { username: 'jane', uid: '1', groups: ['dev'] } });
    expect(await tokens.authenticateToken({ token: 'secret-on' }, signal)).toEqual({ kind: 'no-opinion' });
    expect(await tokens.authenticateToken({ token: 'secret-one ' }, signal)).toEqual({ kind: 'no-opinion' });
  });
});
