import { describe, expect, it } from 'vitest';
import { isControllerEnabled, validateControllerSelection } from './selection.js';

const known = new Set(['namespace', 'csrsigning', 'tokencleaner', 'bootstrapsigner']);
const off = new Set(['tokencleaner', 'bootstrapsigner']);

describe('--controllers', () => {
  it.each([
    [['*'], 'namespace', true],
    [['*'], 'tokencleaner', false],
    [['*', 'tokencleaner'], 'tokencleaner', true],
    [['tokencleaner', '*'], 'tokencleaner', true],
    [['*', '-namespace'], 'namespace', false],
    [['-namespace', '*'], 'namespace', false],
    [['namespace'], 'namespace', true],
    [['namespace'], 'csrsigning', false],
    [['-csrsigning'], 'namespace', false],
    [[], 'namespace', false],
  ])('%j: %s on = %s', (selection, name, on) => {
    expect(isControllerEnabled(name, off, selection)).toBe(on);
  });

  it('refuses names it does not know, with or without the minus', () => {
    expect(validateControllerSelection(['*', '-namespace', 'tokencleaner'], known)).toEqual([]);
    expect(validateControllerSelection(['nope', '-gone', '*'], known)).toEqual(['"nope" is not in the list of known controllers', '"gone" is not in the list of known controllers']);
  });
});
