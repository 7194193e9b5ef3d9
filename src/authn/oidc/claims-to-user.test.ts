import { describe, expect, it } from 'vitest';
import { claimsToUser, type ClaimRules } from './claims-to-user.js';

const rules = (extra: Partial<ClaimRules> = {}): ClaimRules => ({
  usernameClaim: 'sub',
  usernamePrefix: 'https://idp#',
  groupsPrefix: '',
  requiredClaims: [],
  ...extra,
});

describe('claimsToUser', () => {
  it.each([
    ['sub with the issuer prefix', { sub: 'jane' }, rules(), { username: 'https://idp#jane', groups: [] }],
    ['email without prefix, verified', { email: 'jane@example.com', email_verified: true }, rules({ usernameClaim: 'email', usernamePrefix: '' }), { username: 'jane@example.com', groups: [] }],
    ['email without email_verified at all', { email: 'jane@example.com' }, rules({ usernameClaim: 'email', usernamePrefix: '' }), { username: 'jane@example.com', groups: [] }],
    ['groups as a list, prefixed', { sub: 'j', groups: ['dev', 'ops'] }, rules({ groupsClaim: 'groups', groupsPrefix: 'oidc:' }), { username: 'https://idp#j', groups: ['oidc:dev', 'oidc:ops'] }],
    ['groups as one string', { sub: 'j', role: 'admin' }, rules({ groupsClaim: 'role' }), { username: 'https://idp#j', groups: ['admin'] }],
    ['groups claim absent', { sub: 'j' }, rules({ groupsClaim: 'groups' }), { username: 'https://idp#j', groups: [] }],
    ['groups claim null', { sub: 'j', groups: null }, rules({ groupsClaim: 'groups' }), { username: 'https://idp#j', groups: [] }],
    ['required claims present with their values', { sub: 'j', hd: 'example.com', tier: 'gold' }, rules({ requiredClaims: [['hd', 'example.com'], ['tier', 'gold']] }), { username: 'https://idp#j', groups: [] }],
  ])('%s', (_name, claims, r, user) => {
    expect(claimsToUser(claims, r)).toEqual(user);
  });

  it.each([
    ['no user-name claim', { email: 'x' }, rules(), 'oidc: parse username claims "sub": claim not present'],
    ['a user-name claim that is no string', { sub: 42 }, rules(), 'oidc: parse username claims "sub": json: cannot unmarshal number into Go value of type string'],
    ['email not verified', { email: 'j@x', email_verified: false }, rules({ usernameClaim: 'email' }), 'oidc: email not verified'],
    ['email_verified as a string', { email: 'j@x', email_verified: 'true' }, rules({ usernameClaim: 'email' }), `oidc: parse 'email_verified' claim: json: cannot unmarshal string into Go value of type bool`],
    ['groups of the wrong type', { sub: 'j', groups: [1, 2] }, rules({ groupsClaim: 'groups' }), 'oidc: parse groups claim "groups": json: cannot unmarshal array into Go value of type string'],
    ['a required claim missing', { sub: 'j' }, rules({ requiredClaims: [['hd', 'example.com']] }), 'oidc: required claim hd not present in ID token'],
    ['a required claim with another value', { sub: 'j', hd: 'evil.com' }, rules({ requiredClaims: [['hd', 'example.com']] }), 'oidc: required claim hd value does not match. Got = evil.com, want = example.com'],
    ['a required claim that is no string', { sub: 'j', hd: true }, rules({ requiredClaims: [['hd', 'true']] }), 'oidc: parse claim hd: json: cannot unmarshal bool into Go value of type string'],
  ])('refuses %s', (_name, claims, r, message) => {
    expect(() => claimsToUser(claims, r)).toThrow(message);
  });

  it('does not ask for email_verified when the user name comes from another claim', () => {
    expect(claimsToUser({ sub: 'j', email: 'j@x', email_verified: false }, rules()).username).toBe('https://idp#j');
  });
});
