import { describe, expect, it } from 'vitest';
import { isControllerEnabled } from './selection.js';

describe('isControllerEnabled (kube-controller-manager --controllers)', () => {
  it.each([
    [undefined, 'serviceaccount', true],
    [undefined, 'tokencleaner', false],
    [['*'], 'bootstrapsigner', false],
    [['*', 'tokencleaner'], 'tokencleaner', true],
    [['*', 'bootstrapsigner'], 'tokencleaner', false],
    [['*', '-serviceaccount'], 'serviceaccount', false],
    [['tokencleaner'], 'serviceaccount', false],
    [['-tokencleaner', 'tokencleaner'], 'tokencleaner', false],
    [['tokencleaner', '-tokencleaner'], 'tokencleaner', true],
  ] as const)('%j enables %s: %s', (list, name, want) => {
    expect(isControllerEnabled(name, list)).toBe(want);
  });
});
