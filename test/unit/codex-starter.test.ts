import { describe, expect, it } from 'vitest';
import type { OrderedDeclaration } from '../../src/declarations/model.js';
import { codexStarterPayload } from '../../src/dialects/codex/dispatch/starter.js';

const decl = (event: string, matcher: Record<string, string>) => ({ event, matcher }) as unknown as OrderedDeclaration;

describe('codex hooks test --init payloads', () => {
  it('fills the matcher field with a value the group matcher accepts', () => {
    expect(codexStarterPayload(decl('PreToolUse', { tool_name: 'Edit|Write' }), {})).toEqual({ tool_name: 'Edit' });
    expect(codexStarterPayload(decl('PreToolUse', { tool_name: '^mcp__fs__.*' }), {})).toEqual({
      tool_name: 'mcp__fs__x',
    });
    // a closed set of values: one of them
    expect(codexStarterPayload(decl('SessionStart', { source: '^(resume|clear)$' }), {})).toEqual({ source: 'resume' });
  });

  it('leaves the payload alone for match-all, no matcher field, or a matcher it cannot satisfy', () => {
    expect(codexStarterPayload(decl('PreToolUse', { tool_name: '*' }), { a: 1 })).toEqual({ a: 1 });
    expect(codexStarterPayload(decl('Stop', {}), { a: 1 })).toEqual({ a: 1 });
    expect(codexStarterPayload(decl('PreToolUse', { tool_name: '(?=x)' }), {})).toEqual({});
  });
});
