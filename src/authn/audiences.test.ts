import { describe, expect, it } from 'vitest';
import { audienceAgnostic, audienceAgnosticToken, audiencesAreAcceptable, type AuthenticationResult } from './index.js';

const signal = new AbortController().signal;
const jane: AuthenticationResult = { kind: 'user', user: { username: 'jane', groups: [] } };

describe('audiences', () => {
  it.each<[string[], string[] | undefined, boolean]>([
    [[], ['x'], true],
    [['api'], undefined, true],
    [['api'], [], true],
    [['api'], ['api', 'x'], true],
    [['api'], ['x'], false],
  ])('audiencesAreAcceptable(%j, %j) is %s', (api, resp, ok) => expect(audiencesAreAcceptable(api, resp)).toBe(ok));

  it('an agnostic authenticator answers as usual when no audiences are asked', async () => {
    expect(await audienceAgnostic(['api'], { authenticate: async () => jane }).authenticate({ headers: {} }, signal)).toEqual(jane);
  });

  it('answers for the asked audiences it shares with the API, and not at all for others', async () => {
    let asked = 0;
    const inner = { authenticateToken: async () => (asked++, jane) };
    const t = audienceAgnosticToken(['api', 'other-api'], inner);
    expect(await t.authenticateToken({ token: 'x', audiences: ['api', 'elsewhere'] }, signal)).toEqual({ ...jane, audiences: ['api'] });
    expect(await t.authenticateToken({ token: 'x', audiences: ['elsewhere'] }, signal)).toEqual({ kind: 'no-opinion' });
    expect(asked).toBe(1);
    // No API audiences configured: asked for any, it cannot vouch.
    expect(await audienceAgnosticToken([], inner).authenticateToken({ token: 'x', audiences: ['api'] }, signal)).toEqual({ kind: 'no-opinion' });
  });
});
