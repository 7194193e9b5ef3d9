import { describe, expect, it } from 'vitest';
import { isStatusError } from '../machinery/errors.js';
import { decodeContinue, encodeContinue } from './continue-token.js';

const b64 = (text: string): string => Buffer.from(text).toString('base64url');

describe('continue tokens', () => {
  it('round-trip, including the inconsistent-continuation revision -1', () => {
    expect(decodeContinue(encodeContinue(42, 'default/cm\u0000'))).toEqual({ revision: 42, start: 'default/cm\u0000' });
    expect(decodeContinue(encodeContinue(-1, 'cm\u0000'))).toEqual({ revision: -1, start: 'cm\u0000' });
  });

  const prefix = 'invalid continue token: continue key is not valid';
  it.each([
    // base64 of `null`, padded as Go's RawURLEncoding never is
    ['bnVsbA==', `${prefix}: illegal base64 data at input byte 6`],
    ['%%%', `${prefix}: illegal base64 data at input byte 0`],
    ['abcde', `${prefix}: illegal base64 data at input byte 4`],
    [b64('null'), `${prefix}: server does not recognize this encoded version `],
    [b64('{}'), `${prefix}: server does not recognize this encoded version `],
    [b64('{"v":"other/v9","rv":1,"start":"a"}'), `${prefix}: server does not recognize this encoded version other/v9`],
    [b64('[]'), `${prefix}: json: cannot unmarshal array into Go value of type storage.continueToken`],
    [b64('"s"'), `${prefix}: json: cannot unmarshal string into Go value of type storage.continueToken`],
    [b64('7'), `${prefix}: json: cannot unmarshal number into Go value of type storage.continueToken`],
    [b64('{"v":"continue/v1","rv":0,"start":"a"}'), `${prefix}: incorrect encoded start resourceVersion (version continue/v1)`],
    [b64('{"v":"continue/v1","rv":"1","start":"a"}'), `${prefix}: incorrect encoded start resourceVersion (version continue/v1)`],
    [b64('{"v":"continue/v1","rv":1e300,"start":"a"}'), `${prefix}: incorrect encoded start resourceVersion (version continue/v1)`],
    [b64('{"v":"continue/v1","rv":1,"start":""}'), `${prefix}: encoded start key empty (version continue/v1)`],
    [b64('{"v":"continue/v1","rv":1,"start":"../secrets/x"}'), `${prefix}: ../secrets/x`],
    [b64('{"v":"continue/v1","rv":1,"start":"a//b"}'), `${prefix}: a//b`],
  ])('refuses %j with a 400', (token, message) => {
    let thrown: unknown;
    try {
      decodeContinue(token);
    } catch (e) {
      thrown = e;
    }
    expect(isStatusError(thrown, 'BadRequest')).toBe(true);
    expect((thrown as { status: { message: string } }).status.message).toBe(message);
  });

  it('refuses text that is not JSON with a 400', () => {
    expect(() => decodeContinue(b64('{not json'))).toThrow(/^invalid continue token: continue key is not valid: /);
  });
});
