import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../test/helpers/chain-server.js';
import { anonymousAuthEnabled, buildAuthentication } from './authentication.js';

describe('anonymousAuthEnabled', () => {
  it.each<[boolean | undefined, string[] | undefined, boolean]>([
    [undefined, undefined, true],
    [false, undefined, false],
    [true, undefined, true],
    [undefined, ['RBAC'], true],
    [undefined, ['Node', 'RBAC'], true],
    [false, ['RBAC'], false],
    [undefined, ['AlwaysAllow'], false],
    [undefined, ['RBAC', 'AlwaysAllow'], false],
  ])('--anonymous-auth=%s with modes %j: %s', (flag, modes, expected) => expect(anonymousAuthEnabled(flag, modes)).toBe(expected));

  it('overrides an explicit true under AlwaysAllow, saying so', () => {
    const logs: { level: string; msg: string }[] = [];
    expect(anonymousAuthEnabled(true, ['AlwaysAllow'], memoryLogger(logs))).toBe(false);
    expect(logs[0]?.level).toBe('warn');
  });
});

describe('buildAuthentication', () => {
  const signal = new AbortController().signal;
  it('plain HTTP: everyone is system:unsecured in system:masters, whatever the credential', async () => {
    const a = buildAuthentication({ options: { plainHttp: true }, log: memoryLogger([]) });
    const r = await a.authenticator.authenticate({ headers: { authorization: 'Bearer nonsense' } }, signal);
    expect(r).toEqual({ kind: 'user', user: { username: 'system:unsecured', groups: ['system:masters', 'system:authenticated'] } });
  });

  it('secure: a bearer token nobody knows is an error; no credential is no opinion; anonymous by default', async () => {
    const a = buildAuthentication({ options: {}, log: memoryLogger([]) });
    expect(a.anonymous).toBe(true);
    expect((await a.authenticator.authenticate({ headers: { authorization: 'Bearer nonsense' } }, signal)).kind).toBe('error');
    expect((await a.authenticator.authenticate({ headers: {} }, signal)).kind).toBe('no-opinion');
    expect(buildAuthentication({ options: { anonymousAuth: false }, log: memoryLogger([]) }).anonymous).toBe(false);
  });
});
