// `hooks test --init` for claude (issue 22): each case's payload fills the group matcher's field
// with a value that matcher accepts, so the case runs its hook.
import { describe, expect, it } from 'vitest';
import type { OrderedDeclaration } from '../../src/declarations/model.js';
import { claudeStarterPayload, sampleValue } from '../../src/dialects/claude/dispatch/starter.js';
import { matcherAccepts } from '../../src/dialects/claude/rules/match.js';

const decl = (event: string, matcher: Record<string, string>) => ({ event, matcher }) as unknown as OrderedDeclaration;

describe('claudeStarterPayload', () => {
  it("sets the matcher's field to a value the group matcher accepts", () => {
    const skeleton = { tool_name: '', tool_input: {}, cwd: '' };
    expect(claudeStarterPayload(decl('PreToolUse', { tool_name: 'Bash' }), skeleton)).toEqual({
      ...skeleton,
      tool_name: 'Bash',
    });
    expect(claudeStarterPayload(decl('PostToolUse', { tool_name: 'Edit|Write' }), skeleton).tool_name).toBe('Edit');
    expect(claudeStarterPayload(decl('SessionStart', { source: 'resume' }), { source: 'startup' })).toEqual({
      source: 'resume',
    });
  });

  it('leaves a match-all group, and an event without a matcher field, as they are', () => {
    const skeleton = { tool_name: '' };
    expect(claudeStarterPayload(decl('PreToolUse', {}), skeleton)).toBe(skeleton);
    expect(claudeStarterPayload(decl('Stop', {}), { x: 1 })).toEqual({ x: 1 });
  });

  it.each([
    'mcp__github__.*',
    '^Bash$',
    '(Edit|Write)',
    'Notebook.*',
    'mcp__.*__write.*',
    'Web(Fetch|Search)',
    'Bash\\b',
  ])('finds a value the regex %s accepts', (matcher) => {
    const value = sampleValue(matcher, false);
    expect(value).toBeDefined();
    expect(matcherAccepts(matcher, false, value)).toBe(true);
  });
});
