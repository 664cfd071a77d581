// Group matchers (claude.md §4.1).
import { describe, expect, it } from 'vitest';
import { groupMatcherVerdict, matcherAccepts, matcherForm } from '../../src/dialects/claude/rules/match.js';

import { claudeEvent } from '../../src/dialects/claude/catalog.js';

function facts(name: string) {
  return claudeEvent(name)!;
}

const pre = facts('PreToolUse');

describe('matcherForm', () => {
  it('reads absent, "" and * as match-all', () => {
    for (const m of [null, '', '*']) expect(matcherForm(m, false)).toEqual({ kind: 'all' });
  });
  it('reads a list of exact names split on | and ,, trimmed, empty items dropped', () => {
    expect(matcherForm('Edit, Write||code-reviewer', false)).toEqual({
      kind: 'names',
      names: ['Edit', 'Write', 'code-reviewer'],
    });
  });
  it('on the narrow events, allows only letters, digits, _ and | in a list', () => {
    expect(matcherForm('a|b', true)).toEqual({ kind: 'names', names: ['a', 'b'] });
    expect(matcherForm('a,b', true)).toEqual({ kind: 'regex', source: 'a,b' });
    expect(matcherForm('my-file', true)).toEqual({ kind: 'regex', source: 'my-file' });
  });
  it('reads anything else as a regular expression', () => {
    expect(matcherForm('Edit.*', false)).toEqual({ kind: 'regex', source: 'Edit.*' });
  });
});

describe('matcherAccepts', () => {
  it('compares exact names case-sensitively', () => {
    expect(matcherAccepts('Bash', false, 'Bash')).toBe(true);
    expect(matcherAccepts('Bash', false, 'bash')).toBe(false);
    expect(matcherAccepts('Edit|Write', false, 'Write')).toBe(true);
    expect(matcherAccepts('Edit', false, 'NotebookEdit')).toBe(false);
  });
  it('tests a regex unanchored', () => {
    expect(matcherAccepts('Edit.*', false, 'NotebookEdit')).toBe(true);
    expect(matcherAccepts('^Edit.*$', false, 'NotebookEdit')).toBe(false);
    expect(matcherAccepts('mcp__memory__.*', false, 'mcp__memory__create')).toBe(true);
  });
  it('a bare mcp__server is an exact name and matches no tool', () => {
    expect(matcherAccepts('mcp__memory', false, 'mcp__memory__create')).toBe(false);
  });
  it('fails every matcher but match-all against an absent or non-string value', () => {
    expect(matcherAccepts('*', false, undefined)).toBe(true);
    expect(matcherAccepts('', false, 42)).toBe(true);
    expect(matcherAccepts('Bash', false, undefined)).toBe(false);
    expect(matcherAccepts('.*', false, 42)).toBe(false);
  });
  it('never matches with an invalid regex', () => {
    expect(matcherAccepts('(', false, '(')).toBe(false);
  });
});

describe('groupMatcherVerdict', () => {
  it('gives field, pattern, value and verdict', () => {
    expect(groupMatcherVerdict('Bash', pre, { tool_name: 'Bash' })).toEqual({
      field: 'tool_name',
      pattern: 'Bash',
      value: 'Bash',
      matched: true,
    });
  });
  it('compares FileChanged with the last path segment of file_path', () => {
    const fc = facts('FileChanged');
    expect(groupMatcherVerdict('.envrc|package_json', fc, { file_path: '/p/.envrc' })?.matched).toBe(true);
    expect(groupMatcherVerdict('envrc', fc, { file_path: '/p/.envrc' })?.matched).toBe(false);
    expect(groupMatcherVerdict('envrc', fc, { file_path: '/p/.envrc' })?.value).toBe('.envrc');
  });
  it('ignores the matcher on an event without a matcher field', () => {
    expect(groupMatcherVerdict('Bash', facts('Stop'), {})).toBeUndefined();
  });
});
