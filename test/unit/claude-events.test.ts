import { describe, expect, it } from 'vitest';
import { claudeDialect } from '../../src/dialects/claude/index.js';
import { claudeEventDetail, claudeEventRows, claudeEventSchemas } from '../../src/dialects/claude/events.js';
import { makeColour } from '../../src/cli/colour.js';
import { renderEventDetail } from '../../src/views/events.js';

describe('claude hooks events (§7)', () => {
  it('rows: the shared shape plus the catalog entry; deny from exit2', () => {
    const rows = claudeEventRows();
    expect(rows).toHaveLength(31);
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

  it('--schema prints the payload schema itself; the detail carries matcher values and output fields as data (issue 28)', () => {
    const s = claudeEventSchemas('PreToolUse')!;
    expect(s.document).toBe(s.payload);
    const d = claudeEventDetail('PreToolUse')!;
    expect(d.matcher_values).toContain('Bash');
    expect(d.matcher_values_closed).toBe(false);
    expect(d.output.fields[0]).toEqual({ name: 'continue', note: expect.stringContaining('boolean') });
    expect(d.output.fields.map((f) => f.name)).toContain('hookSpecificOutput.permissionDecision');
    const text = renderEventDetail(d, makeColour(false));
    expect(text).toMatch(/^Values +Bash, PowerShell, Edit, .*ExitPlanMode \(and others\)$/m);
    expect(text).toMatch(/^Output$/m);
    expect(text).toMatch(/^hookSpecificOutput\.updatedInput *$/m);
    expect(text).toMatch(/^continue +boolean, default true/m);
    expect(text).not.toMatch(/^Patch/m);
    expect(text).not.toMatch(/^continue +json/m);
    expect(renderEventDetail(claudeEventDetail('SessionEnd')!, makeColour(false))).toMatch(
      /^Output +- \(no JSON output fields are honoured\)$/m,
    );
  });

  it('the Dialect object answers for its events', async () => {
    expect(claudeDialect.name).toBe('claude');
    expect(claudeDialect.hasEvent('PreToolUse')).toBe(true);
    expect(claudeDialect.hasEvent('tool.pre_call')).toBe(false);
    expect(claudeDialect.eventRows()).toHaveLength(31);
    expect(claudeDialect.sessionsDir({ workspace: '/w', stateDir: '/s' } as never)).toBe('/s/claude/sessions');
  });
});
