// Rules of claude.md found unmet by the issue-13 audit, each checked on the built CLI.
import { describe, expect, it } from 'vitest';
import { cmd, group, sandbox } from './claude-support.js';

describe('claude.md §7: every hooks command takes --dialect', () => {
  it('validate, info and runs filter by --dialect', async () => {
    const sb = sandbox();
    sb.settings({ Stop: [group([cmd('true')])] });
    const v = await sb.cli(['hooks', 'validate', '--dialect', 'claude', '-o', 'json']);
    expect(v.code, v.stderr).toBe(0);
    const files = (JSON.parse(v.stdout) as { files: string[] }).files;
    expect(files).toEqual([`${sb.workspace}/.claude/settings.json`]);
    const i = await sb.cli(['hooks', 'info', 'project:Stop:1.1', '--dialect', 'claude', '-o', 'json']);
    expect(i.code, i.stderr).toBe(0);
    const cosh = await sb.cli(['hooks', 'info', 'project:Stop:1.1', '--dialect', 'cosh']);
    expect(cosh.code).toBe(1);
    await sb.fire('Stop', { session_id: 's1' });
    const runs = await sb.cli(['hooks', 'runs', '--session', 's1', '--dialect', 'claude', '-o', 'json']);
    expect(runs.code, runs.stderr).toBe(0);
    expect((JSON.parse(runs.stdout) as unknown[]).length).toBe(1);
    const none = await sb.cli(['hooks', 'runs', '--session', 's1', '--dialect', 'cosh', '-o', 'json']);
    expect(JSON.parse(none.stdout)).toEqual([]);
  });
});

describe('claude.md §6: the dry-run plan', () => {
  it('gives every entry the keys of §6, why included (null when active)', async () => {
    const sb = sandbox();
    sb.settings({ PreToolUse: [group([cmd('true')], 'Bash')] });
    const r = await sb.cli(
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '--dry-run', '-o', 'json'],
      JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } }),
    );
    const plan = (JSON.parse(r.stdout) as { plan: Record<string, unknown>[] }).plan;
    expect(Object.keys(plan[0]!).sort()).toEqual(
      [
        'fields',
        'handler_type',
        'if',
        'matched',
        'mode',
        'name',
        'order',
        'runnable',
        'source',
        'status',
        'why',
      ].sort(),
    );
    expect(plan[0]!.why).toBeNull();
  });
});
