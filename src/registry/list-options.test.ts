import { describe, expect, it } from 'vitest';
import { StatusError } from '../machinery/errors.js';
import { getSemantics, listSemantics, parseResourceVersion, validateListOptions, validateWatchOptions, watchSemantics, type ListParams, type WatchParams } from './list-options.js';

const META = 'meta.orch.io';

function failure(f: () => unknown): StatusError {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected a StatusError');
}

describe('get: document 1 table', () => {
  it.each([
    [undefined, { kind: 'most-recent' }],
    ['', { kind: 'most-recent' }],
    ['0', { kind: 'any' }],
    ['42', { kind: 'not-older-than', revision: 42 }],
  ] as const)('resourceVersion=%j → %j', (rv, want) => {
    expect(getSemantics(rv)).toEqual(want);
  });

  it.each(['abc', '-1', '1.5', ' 1', '0x10', '9999999999999999'])('refuses resourceVersion=%j with 400', (rv) => {
    const e = failure(() => getSemantics(rv));
    expect(e.code).toBe(400);
    expect(e.reason).toBe('BadRequest');
    expect(e.message).toContain(`invalid resourceVersion ${JSON.stringify(rv)}`);
  });
});

describe('list: document 1 table, every cell', () => {
  // [resourceVersionMatch, limit, continue, resourceVersion, expected]
  type Cell = [string | undefined, number | undefined, string | undefined, string | undefined, unknown];
  const T = 'tok';
  const valid: Cell[] = [
    // match unset, limit unset
    [undefined, undefined, undefined, undefined, { kind: 'most-recent' }],
    [undefined, undefined, undefined, '0', { kind: 'any' }],
    [undefined, undefined, undefined, '7', { kind: 'not-older-than', revision: 7 }],
    // match unset, limit set, no continue
    [undefined, 5, undefined, undefined, { kind: 'most-recent' }],
    [undefined, 5, undefined, '0', { kind: 'any' }],
    [undefined, 5, undefined, '7', { kind: 'exact', revision: 7 }],
    // match unset, limit set, continue: Continue Token, Exact (rv=0 is invalid but served as the token)
    [undefined, 5, T, undefined, { kind: 'continue', token: T }],
    [undefined, 5, T, '0', { kind: 'continue', token: T }],
    // a continue token without limit is still a continuation
    [undefined, undefined, T, undefined, { kind: 'continue', token: T }],
    // Exact
    ['Exact', undefined, undefined, '7', { kind: 'exact', revision: 7 }],
    ['Exact', 5, undefined, '7', { kind: 'exact', revision: 7 }],
    // NotOlderThan
    ['NotOlderThan', undefined, undefined, '0', { kind: 'any' }],
    ['NotOlderThan', undefined, undefined, '7', { kind: 'not-older-than', revision: 7 }],
    ['NotOlderThan', 5, undefined, '0', { kind: 'any' }],
    ['NotOlderThan', 5, undefined, '7', { kind: 'not-older-than', revision: 7 }],
    // limit=0 means no limit
    [undefined, 0, undefined, '7', { kind: 'not-older-than', revision: 7 }],
  ];
  it.each(valid)('match=%j limit=%j continue=%j rv=%j → %j', (match, limit, cont, rv, want) => {
    const p: ListParams = {
      ...(match !== undefined ? { resourceVersionMatch: match } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(cont !== undefined ? { continue: cont } : {}),
      ...(rv !== undefined ? { resourceVersion: rv } : {}),
    };
    expect(validateListOptions(p)).toEqual([]);
    expect(listSemantics(p, META)).toEqual(want);
  });

  it('continue with a non-zero resourceVersion (no match) is the 400 cell', () => {
    const e = failure(() => listSemantics({ limit: 5, continue: T, resourceVersion: '7' }, META));
    expect(e.code).toBe(400);
    expect(e.reason).toBe('BadRequest');
    expect(e.message).toBe('specifying resource version is not allowed when using continue');
  });

  // The invalid cells: 400 with the ListOptions validation text, as Kubernetes validates them.
  const invalid: [string, ListParams, string[]][] = [
    ['Exact without resourceVersion', { resourceVersionMatch: 'Exact' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided']],
    ['Exact without resourceVersion, with limit', { resourceVersionMatch: 'Exact', limit: 5 }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided']],
    ['Exact at 0', { resourceVersionMatch: 'Exact', resourceVersion: '0' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"']],
    ['Exact at 0, with limit', { resourceVersionMatch: 'Exact', resourceVersion: '0', limit: 5 }, ['resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"']],
    ['NotOlderThan without resourceVersion', { resourceVersionMatch: 'NotOlderThan' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided']],
    [
      'NotOlderThan without resourceVersion, with limit',
      { resourceVersionMatch: 'NotOlderThan', limit: 5 },
      ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ],
    ['a match with continue', { resourceVersionMatch: 'Exact', resourceVersion: '7', limit: 5, continue: T }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided']],
    ['an unknown match', { resourceVersionMatch: 'Newest', resourceVersion: '7' }, ['resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""']],
    ['a lowercase match', { resourceVersionMatch: 'exact', resourceVersion: '7' }, ['resourceVersionMatch: Unsupported value: "exact": supported values: "Exact", "NotOlderThan", ""']],
    ['sendInitialEvents on a list', { sendInitialEvents: true }, ['sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list']],
    [
      'several problems at once',
      { resourceVersionMatch: 'Bogus', continue: T },
      [
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
        'resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
      ],
    ],
  ];
  it.each(invalid)('%s → 400 with the ListOptions validation text', (_name, p, messages) => {
    const e = failure(() => listSemantics(p, META));
    expect(e.code).toBe(400);
    expect(e.reason).toBe('BadRequest');
    expect(e.status.details).toMatchObject({ group: META, kind: 'ListOptions' });
    const summary = messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
    expect(e.message).toBe(`ListOptions.${META} "" is invalid: ${summary}`);
    expect(e.status.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual(messages);
  });

  it.each(['abc', '-3', '1e3'])('a malformed resourceVersion %j is a 400', (rv) => {
    for (const p of [{ resourceVersion: rv }, { resourceVersion: rv, limit: 2 }, { resourceVersion: rv, resourceVersionMatch: 'Exact' }]) {
      const e = failure(() => listSemantics(p, META));
      expect(e.code).toBe(400);
      expect(e.message).toContain('invalid resourceVersion');
    }
  });
});

describe('watch: document 1 table and streaming lists', () => {
  it.each([
    [{}, { start: { kind: 'most-recent' }, initialEvents: true, initialEventsEndBookmark: false }],
    [{ resourceVersion: '' }, { start: { kind: 'most-recent' }, initialEvents: true, initialEventsEndBookmark: false }],
    [{ resourceVersion: '0' }, { start: { kind: 'any' }, initialEvents: true, initialEventsEndBookmark: false }],
    [{ resourceVersion: '9' }, { start: { kind: 'exact', revision: 9 }, initialEvents: false, initialEventsEndBookmark: false }],
    // bookmarks alone change nothing about the start
    [{ resourceVersion: '9', allowWatchBookmarks: true }, { start: { kind: 'exact', revision: 9 }, initialEvents: false, initialEventsEndBookmark: false }],
    // streaming list
    [
      { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true },
      { start: { kind: 'most-recent' }, initialEvents: true, initialEventsEndBookmark: true },
    ],
    [
      { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', resourceVersion: '0', allowWatchBookmarks: true },
      { start: { kind: 'any' }, initialEvents: true, initialEventsEndBookmark: true },
    ],
    [
      { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', resourceVersion: '9', allowWatchBookmarks: true },
      { start: { kind: 'not-older-than', revision: 9 }, initialEvents: true, initialEventsEndBookmark: true },
    ],
    // without bookmarks the state is sent, but no end-of-initial-events bookmark
    [{ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' }, { start: { kind: 'most-recent' }, initialEvents: true, initialEventsEndBookmark: false }],
    // sendInitialEvents=false: no state
    [{ sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan' }, { start: { kind: 'most-recent' }, initialEvents: false, initialEventsEndBookmark: false }],
    [
      { sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan', resourceVersion: '0' },
      { start: { kind: 'any' }, initialEvents: false, initialEventsEndBookmark: false },
    ],
    [
      { sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan', resourceVersion: '9', allowWatchBookmarks: true },
      { start: { kind: 'exact', revision: 9 }, initialEvents: false, initialEventsEndBookmark: false },
    ],
  ] as [WatchParams, unknown][])('%j → %j', (p, want) => {
    expect(validateWatchOptions(p)).toEqual([]);
    expect(watchSemantics(p, META)).toEqual(want);
  });

  const invalid: [WatchParams, string[]][] = [
    [{ resourceVersionMatch: 'NotOlderThan', resourceVersion: '9' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided']],
    [{ sendInitialEvents: true }, ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan']],
    [{ sendInitialEvents: false }, ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan']],
    [
      { sendInitialEvents: true, resourceVersionMatch: 'Exact', resourceVersion: '9' },
      ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan', 'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"'],
    ],
    [{ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', continue: 'x' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided']],
  ];
  it.each(invalid)('%j → 400 with the ListOptions validation text', (p, messages) => {
    const e = failure(() => watchSemantics(p, META));
    expect(e.code).toBe(400);
    expect(e.reason).toBe('BadRequest');
    expect(e.status.details).toMatchObject({ group: META, kind: 'ListOptions' });
    expect(e.status.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual(messages);
  });

  it('a malformed start version is a 400', () => {
    expect(failure(() => watchSemantics({ resourceVersion: 'x' }, META)).code).toBe(400);
    expect(failure(() => watchSemantics({ resourceVersion: 'x', sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' }, META)).code).toBe(400);
  });
});

describe('parseResourceVersion', () => {
  it('names the parameter it parses', () => {
    expect(parseResourceVersion('12')).toBe(12);
    expect(failure(() => parseResourceVersion('x', 'continue')).message).toContain('invalid continue "x"');
  });
});
