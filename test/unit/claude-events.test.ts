import { describe, expect, it } from 'vitest';
import { claudeDialect } from '../../src/dialects/claude/index.js';
import { claudeEventDetail, claudeEventRows, claudeEventSchemas } from '../../src/dialects/claude/events.js';

describe('claude hooks events (§7)', () => {
  it('rows: the shared shape plus the catalog entry; deny from exit2', () => {
    const rows = claudeEventRows();
    expect(rows).toHaveLength(33);
    const pre = rows.find((r) => r.event === 'PreToolUse')!;
    expect(pre).toMatchObject({
      event: 'PreToolUse',
      dialect: 'claude',
      family: null,
      sync_eligible: null,
      deny: 'deny',
      patch: null,
      name: 'PreToolUse',
      matcher_field: 'tool_name',
      decision_kind: 'permission',
    });
    expect(pre.payload).toEqual(['tool_name', 'tool_input', 'tool_use_id', 'permission_mode']);
    expect(rows.find((r) => r.event === 'PostToolUse')!.deny).toBeNull(); // feedback
    expect(rows.find((r) => r.event === 'WorktreeCreate')!.deny).toBe('fail');
    expect(rows.find((r) => r.event === 'Elicitation')!.deny).toBe('decline');
    expect(rows.find((r) => r.event === 'SessionStart')!.deny).toBeNull();
  });

  it('detail and --schema', () => {
    const d = claudeEventDetail('Stop')!;
    expect(d.payload_fields.slice(0, 2)).toEqual([
      { name: 'session_id', type: 'json', base: true },
      { name: 'transcript_path', type: 'json', base: true },
    ]);
    expect(d.matcher_fields).toEqual([]);
    expect(claudeEventDetail('Nope')).toBeUndefined();
    const s = claudeEventSchemas('PreToolUse')!;
    expect(s.payload.required).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name']);
    expect(s.payload.properties).toHaveProperty('tool_input', {});
    expect(Object.keys(s.patch.properties)).toContain('hookSpecificOutput');
  });

  it('the Dialect object answers for its events', async () => {
    expect(claudeDialect.name).toBe('claude');
    expect(claudeDialect.hasEvent('PreToolUse')).toBe(true);
    expect(claudeDialect.hasEvent('tool.pre_call')).toBe(false);
    expect(claudeDialect.eventRows()).toHaveLength(33);
    expect(claudeDialect.sessionsDir({ workspace: '/w', stateDir: '/s' } as never)).toBe('/s/claude/sessions');
  });
});
