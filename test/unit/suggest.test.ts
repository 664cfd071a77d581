import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean, editDistance } from '../../src/matching/suggest.js';

describe('closestNames', () => {
  it('finds names up to two edits away, or sharing a prefix, and offers only the closest', () => {
    // `hooks test` is two edits from `hooks lst`, `hooks list` one: only the closest is offered.
    expect(closestNames('hooks lst', ['hooks list', 'hooks info', 'hooks runs', 'hooks test'])).toEqual(['hooks list']);
    expect(closestNames('tool.pst_call', ['tool.pre_call', 'tool.post_call', 'session.post_create'])).toEqual([
      'tool.post_call',
    ]);
    expect(closestNames('tool.pr_call', ['tool.pre_call', 'tool.pro_call', 'tool.post_call'])).toEqual([
      'tool.pre_call',
      'tool.pro_call',
    ]);
    expect(closestNames('pretooluse', ['PreToolUse', 'PostToolUse'])).toEqual(['PreToolUse']);
    expect(closestNames('tool.pre', ['tool.pre_call', 'agent.pre_turn'])).toEqual(['tool.pre_call']);
    expect(closestNames('--workspce', ['--workspace', '--json'])).toEqual(['--workspace']);
    expect(closestNames('zzz', ['hooks list'])).toEqual([]);
  });

  it('says it as the message suffix', () => {
    expect(didYouMean('hooks lst', ['hooks list'])).toBe('; did you mean "hooks list"?');
    expect(didYouMean('tool.pr_call', ['tool.pre_call', 'tool.pro_call'])).toBe(
      '; did you mean "tool.pre_call" or "tool.pro_call"?',
    );
    expect(didYouMean('zzz', ['hooks list'])).toBe('');
  });
});

describe('editDistance', () => {
  it('counts inserts, deletes, substitutions and swaps of neighbours', () => {
    expect(editDistance('list', 'list')).toBe(0);
    expect(editDistance('lst', 'list')).toBe(1);
    expect(editDistance('lsit', 'list')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('kitten', 'sitting', 2)).toBe(3); // stops early: limit + 1
  });
});
