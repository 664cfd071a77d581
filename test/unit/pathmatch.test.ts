import { describe, expect, it } from 'vitest';
import { BadPatternError, hasWildcard, isValidPattern, pathMatch } from '../../src/matching/pathmatch.js';

type Outcome = boolean | 'ErrBadPattern';

/** `matchTests` from Go's src/path/match_test.go, row for row (pattern, name, match / error). */
const goMatchTests: Array<[string, string, Outcome]> = [
  ['abc', 'abc', true],
  ['*', 'abc', true],
  ['*c', 'abc', true],
  ['a*', 'a', true],
  ['a*', 'abc', true],
  ['a*', 'ab/c', false],
  ['a*/b', 'abc/b', true],
  ['a*/b', 'a/c/b', false],
  ['a*b*c*d*e*/f', 'axbxcxdxe/f', true],
  ['a*b*c*d*e*/f', 'axbxcxdxexxx/f', true],
  ['a*b*c*d*e*/f', 'axbxcxdxe/xxx/f', false],
  ['a*b*c*d*e*/f', 'axbxcxdxexxx/fff', false],
  ['a*b?c*x', 'abxbbxdbxebxczzx', true],
  ['a*b?c*x', 'abxbbxdbxebxczzy', false],
  ['ab[c]', 'abc', true],
  ['ab[b-d]', 'abc', true],
  ['ab[e-g]', 'abc', false],
  ['ab[^c]', 'abc', false],
  ['ab[^b-d]', 'abc', false],
  ['ab[^e-g]', 'abc', true],
  ['a\\*b', 'a*b', true],
  ['a\\*b', 'ab', false],
  ['a?b', 'a☺b', true],
  ['a[^a]b', 'a☺b', true],
  ['a???b', 'a☺b', false],
  ['a[^a][^a][^a]b', 'a☺b', false],
  ['[a-ζ]*', 'α', true],
  ['*[a-ζ]', 'A', false],
  ['a?b', 'a/b', false],
  ['a*b', 'a/b', false],
  ['[\\]a]', ']', true],
  ['[\\-]', '-', true],
  ['[x\\-]', 'x', true],
  ['[x\\-]', '-', true],
  ['[x\\-]', 'z', false],
  ['[\\-x]', 'x', true],
  ['[\\-x]', '-', true],
  ['[\\-x]', 'a', false],
  ['[]a]', ']', 'ErrBadPattern'],
  ['[-]', '-', 'ErrBadPattern'],
  ['[x-]', 'x', 'ErrBadPattern'],
  ['[x-]', '-', 'ErrBadPattern'],
  ['[x-]', 'z', 'ErrBadPattern'],
  ['[-x]', 'x', 'ErrBadPattern'],
  ['[-x]', '-', 'ErrBadPattern'],
  ['[-x]', 'a', 'ErrBadPattern'],
  ['\\', 'a', 'ErrBadPattern'],
  ['[a-b-c]', 'a', 'ErrBadPattern'],
  ['[', 'a', 'ErrBadPattern'],
  ['[^', 'a', 'ErrBadPattern'],
  ['[^bc', 'a', 'ErrBadPattern'],
  ['a[', 'a', 'ErrBadPattern'],
  ['a[', 'ab', 'ErrBadPattern'],
  ['a[', 'x', 'ErrBadPattern'],
  ['a/b[', 'x', 'ErrBadPattern'],
  ['*x', 'xxx', true],
];

function outcome(pattern: string, name: string): Outcome {
  try {
    return pathMatch(pattern, name);
  } catch (error) {
    if (error instanceof BadPatternError) return 'ErrBadPattern';
    throw error;
  }
}

describe('pathMatch: Go path.Match test table', () => {
  it("has every row of Go's matchTests", () => {
    expect(goMatchTests).toHaveLength(56);
  });

  it.each(goMatchTests)('Match(%j, %j) = %j', (pattern, name, expected) => {
    expect(outcome(pattern, name)).toBe(expected);
  });

  it.each(goMatchTests)('isValidPattern(%j) agrees with the row for %j (%j)', (pattern, _name, expected) => {
    expect(isValidPattern(pattern)).toBe(expected !== 'ErrBadPattern');
  });
});

describe('pathMatch: code points', () => {
  it.each<[string, string, boolean]>([
    ['?', 'ä', true],
    ['??', 'ä', false],
    ['a?c', 'aäc', true],
    // 'a' + COMBINING DIAERESIS is two code points.
    ['??', 'a\u0308', true],
    ['?', 'a\u0308', false],
    ['?', '☺', true],
    ['??', '☺', false],
    // Outside the BMP: one code point, two UTF-16 units.
    ['?', '😀', true],
    ['??', '😀', false],
    ['x?y', 'x😀y', true],
    ['[😀]', '😀', true],
    ['[^😀]', '😀', false],
    ['[😀-😂]', '😁', true],
    ['[😀-😂]', '😃', false],
    ['[a-z]', '😀', false],
    ['*😀', 'ab😀', true],
    ['*?', '😀😀', true],
    ['\\😀', '😀', true],
    ['ä*', 'äöü', true],
    ['*ü', 'äöü', true],
    ['[ä-ü]', 'ö', true],
    // Go skips bytes under `*` and reports true here; characters are code points (SPEC §2.2).
    ['*??', '☺', false],
    ['*??', '☺☺', true],
  ])('pathMatch(%j, %j) = %j', (pattern, name, expected) => {
    expect(pathMatch(pattern, name)).toBe(expected);
  });
});

describe("pathMatch: more of Go's semantics", () => {
  it.each<[string, string, boolean]>([
    ['', '', true],
    ['', 'a', false],
    ['*', '', true],
    ['*', 'a/b', false],
    ['**', 'abc', true],
    ['a*', 'a/', false],
    ['*/*', 'a/b', true],
    ['*/*', 'a/b/c', false],
    ['?', '/', false],
    ['[^a]', '/', true],
    ['[!a]', '!', true], // `!` is no negation in Go
    ['[!a]', 'b', false],
    ['\\a', 'a', true],
    ['a\\?', 'a?', true],
    ['a\\?', 'ab', false],
    ['[\\\\]', '\\', true],
    ['[*]', '*', true],
    ['[*]x', '*x', true],
    ['a[*]*', 'a*bc', true],
    ['[a-c]*[x-z]', 'bqqqy', true],
    ['Tool_*', 'tool_x', false], // case-sensitive
    ['compozy__*', 'compozy__workspace_info', true],
    ['release-*', 'release-2024.1', true],
    ['release-*', 'release-2024/1', false],
  ])('pathMatch(%j, %j) = %j', (pattern, name, expected) => {
    expect(pathMatch(pattern, name)).toBe(expected);
  });

  it.each<[string, string]>([
    // Go 1.19+: the rest of the pattern is checked even after the match already failed.
    ['x*[', 'a'],
    ['b*\\', 'a'],
    ['a*b*[', 'zzz'],
    ['abc[', 'x'],
  ])('reports a malformed pattern %j even when %j fails early', (pattern, name) => {
    expect(() => pathMatch(pattern, name)).toThrow(BadPatternError);
  });

  it("BadPatternError carries Go's message", () => {
    expect(() => pathMatch('[', '')).toThrow('syntax error in pattern');
    const error = new BadPatternError();
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('syntax error in pattern');
  });
});

describe('isValidPattern', () => {
  it.each([
    '',
    '*',
    '?',
    'abc',
    'a*b?c',
    '[abc]',
    '[a-z]',
    '[^a-z]',
    '[\\]]',
    '[\\-]',
    '\\*',
    '\\\\',
    '[!]',
    '[*]',
    '[^^]',
    'requested',
    'agent',
    '[😀-😂]',
    '*/**',
  ])('accepts %j', (pattern) => {
    expect(isValidPattern(pattern)).toBe(true);
  });

  it.each([
    '[',
    ']a[',
    '[]',
    '[^]',
    '[a',
    '[a-',
    '[a-]',
    '[-a]',
    '[a-b-c]',
    '\\',
    'a\\',
    '*\\',
    '[\\]',
    '[\\',
    'x*[',
    '*[a',
    'ok*[a-]*ok',
    '[]a]',
  ])('rejects %j', (pattern) => {
    expect(isValidPattern(pattern)).toBe(false);
  });

  it('agrees with pathMatch for every name', () => {
    const patterns = ['[', 'a[', 'a*[', '*[x', '[a-b-c]', 'a*b', '[^bc', '\\', 'x\\y', '[x\\-]'];
    const names = ['', 'a', 'x', 'ab', 'a/b', 'abc', '☺'];
    for (const pattern of patterns) {
      for (const name of names) {
        const threw = outcome(pattern, name) === 'ErrBadPattern';
        expect(threw, `${pattern} vs ${name}`).toBe(!isValidPattern(pattern));
      }
    }
  });
});

describe('hasWildcard', () => {
  it.each<[string, boolean]>([
    ['', false],
    ['compozy__workspace_info', false],
    ['a.b-c/d', false],
    ['ä☺', false],
    ['*', true],
    ['a?', true],
    ['[ab]', true],
    ['a\\b', true],
    [']', false],
  ])('hasWildcard(%j) = %j', (pattern, expected) => {
    expect(hasWildcard(pattern)).toBe(expected);
  });
});
