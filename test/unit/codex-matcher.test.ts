import { describe, expect, it } from 'vitest';
import { codexMatcherMatches, compileCodexMatcher } from '../../src/dialects/codex/rules/matcher.js';

const matches = (matcher: string | undefined, value: unknown) => {
  const c = compileCodexMatcher(matcher);
  if (!c.ok) throw new Error(c.why);
  return codexMatcherMatches(c.matcher, value);
};

describe('codex matchers (codex.md §4)', () => {
  it('absent, "" and "*" match every value, an absent field too', () => {
    for (const m of [undefined, '', '*']) {
      expect(matches(m, 'Bash')).toBe(true);
      expect(matches(m, undefined)).toBe(true);
    }
  });

  it('letters, digits, _ and | are an exact list, case-sensitive', () => {
    expect(matches('Edit|Write', 'Write')).toBe(true);
    expect(matches('Edit|Write', 'NotebookEdit')).toBe(false);
    expect(matches('Bash', 'bash')).toBe(false);
    expect(compileCodexMatcher('Edit|Write')).toEqual({
      ok: true,
      matcher: { kind: 'names', names: ['Edit', 'Write'] },
    });
  });

  it('anything else is a regular expression searched unanchored', () => {
    expect(matches('Edit.*', 'NotebookEdit')).toBe(true);
    expect(matches('^mcp__.*', 'mcp__fs__read')).toBe(true);
    expect(matches('^mcp__.*', 'Bash')).toBe(false);
    expect(matches('^Bash$', 'Bash')).toBe(true);
  });

  it('a matcher that is not match-all fails against an absent or non-string field', () => {
    expect(matches('Bash', undefined)).toBe(false);
    expect(matches('^B', 42)).toBe(false);
  });

  it('look-around, back-references and what RegExp with u rejects are invalid', () => {
    for (const m of ['(?=Bash)', '(?!x)y', '(?<=a)b', '(?<!a)b', '(a)\\1', '(?i)bash', '[', 'a{2,1}']) {
      expect(compileCodexMatcher(m).ok, m).toBe(false);
    }
    expect(compileCodexMatcher('a\\\\1').ok).toBe(true);
    expect(compileCodexMatcher('(?<name>x)').ok).toBe(true);
  });
});
