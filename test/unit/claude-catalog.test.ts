import { describe, expect, it } from 'vitest';
import {
  claudeCatalogEvents,
  claudeCatalogMeta,
  claudeEvent,
  claudeEventCaseHint,
  defaultTimeoutS,
  isIfEvent,
} from '../../src/dialects/claude/catalog.js';

describe('claude catalog (generated from claude-events.json)', () => {
  it('has the 33 events of v2.1.295, unique, in catalog order', () => {
    expect(claudeCatalogMeta().claude_code_version).toBe('2.1.295');
    expect(claudeCatalogEvents()).toHaveLength(33);
    expect(new Set(claudeCatalogEvents().map((e) => e.name)).size).toBe(33);
    expect(claudeCatalogEvents()[0]!.name).toBe('SessionStart');
    expect(claudeEvent('PreModelSwitch')?.since).toBe('2.1.251');
  });

  it('keeps the per-event facts the dialect reads', () => {
    const pre = claudeEvent('PreToolUse')!;
    expect(pre.matcher_field).toBe('tool_name');
    expect(pre.exit2).toBe('deny');
    expect(pre.decision_kind).toBe('permission');
    expect(pre.handler_types).toHaveLength(5);
    expect(claudeEvent('SessionStart')!.handler_types).toEqual(['command', 'mcp_tool']);
    expect(claudeEvent('StopFailure')!.narrow_matcher).toBe(true);
    expect(claudeEvent('Stop')!.matcher_field).toBeNull();
    expect(claudeEvent('SessionStart')!.env_file).toBe(true);
    expect(claudeCatalogEvents().filter((e) => e.handler_types.length === 5)).toHaveLength(13);
    expect(claudeCatalogEvents().filter((e) => e.handler_types.length === 3)).toHaveLength(18);
  });

  it('names are case-sensitive, with a case hint', () => {
    expect(claudeEvent('pretooluse')).toBeUndefined();
    expect(claudeEventCaseHint('pretooluse')).toBe('PreToolUse');
    expect(claudeEventCaseHint('PreToolUse')).toBeUndefined();
    expect(claudeEventCaseHint('Nope')).toBeUndefined();
  });

  it('default timeouts: event override for command/http/mcp_tool, else the type default', () => {
    expect(defaultTimeoutS(claudeEvent('PreToolUse'), 'command')).toBe(600);
    expect(defaultTimeoutS(claudeEvent('UserPromptSubmit'), 'command')).toBe(30);
    expect(defaultTimeoutS(claudeEvent('UserPromptSubmit'), 'prompt')).toBe(30);
    expect(defaultTimeoutS(claudeEvent('MessageDisplay'), 'http')).toBe(10);
    expect(defaultTimeoutS(claudeEvent('Stop'), 'agent')).toBe(60);
    expect(defaultTimeoutS(claudeEvent('SessionEnd'), 'command')).toBe(1.5);
  });

  it('if_events and matcher rules', () => {
    expect(isIfEvent('PermissionDenied')).toBe(true);
    expect(isIfEvent('Stop')).toBe(false);
    expect(claudeCatalogMeta().matcher_rules.match_all).toEqual(['', '*']);
    expect(claudeCatalogMeta().async_handler_types).toEqual(['command']);
  });
});
