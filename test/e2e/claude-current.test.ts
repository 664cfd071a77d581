// Claude Code as it ships now (issue 27), end to end on the built CLI: subagents and slash
// commands wherever Claude Code reads them, with hooks that really run.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './claude-support.js';

const put = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};
/** Front matter with one command hook on `event` (matcher `Bash` on PreToolUse). */
const fm = (event: string, command: string, head = '') =>
  `---\n${head}hooks:\n  ${event}:\n    - ${event === 'PreToolUse' ? 'matcher: Bash\n      ' : ''}hooks:\n        - type: command\n          command: ${JSON.stringify(command)}\n---\nbody\n`;
const listAll = async (sb: Sandbox, ...flags: string[]) => {
  const r = await sb.cli(['hooks', 'list', '--all', '--dialect', 'claude', '-o', 'json', ...flags]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Record<string, unknown>[]).map((h) => [h.name, h.source, h.status]);
};

describe('subagents and slash commands where Claude Code reads them (§1)', () => {
  it('runs the Stop hook of .claude/agents/team/builder.md as SubagentStop of the agent "builder"', async () => {
    const sb = sandbox();
    const mark = join(sb.out, 'builder-ran');
    put(join(sb.workspace, '.claude/agents/team/builder.md'), fm('Stop', `touch ${mark}`));
    expect(await listAll(sb)).toEqual([['agent/project/builder:Stop:1.1', 'claude_agent', 'active']]);
    const r = await sb.fire('SubagentStop', { session_id: 's', agent_type: 'builder' });
    expect(r.json.runs.map((x) => x.hook_name)).toEqual(['agent/project/builder:Stop:1.1']);
    expect(existsSync(mark)).toBe(true);
  });

  it('runs the hooks of a slash command in .claude/commands/ when --skill names it', async () => {
    const sb = sandbox();
    const mark = join(sb.out, 'command-ran');
    put(join(sb.workspace, '.claude/commands/git/ship.md'), fm('PreToolUse', `touch ${mark}`));
    const v = await sb.cli(['hooks', 'validate', '--dialect', 'claude']);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    const payload = { session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } };
    expect((await sb.fire('PreToolUse', payload)).json.runs).toEqual([]);
    const r = await sb.fire('PreToolUse', payload, '--skill', 'ship');
    expect(r.json.runs.map((x) => [x.hook_name, x.skill_source])).toEqual([
      ['command/project/ship:PreToolUse:1.1', 'project'],
    ]);
    expect(existsSync(mark)).toBe(true);
  });

  it('--additional-dir adds its skills, commands and agents; a workspace definition beats it', async () => {
    const sb = sandbox();
    const extra = join(sb.root, 'extra');
    put(join(extra, '.claude/agents/helper.md'), fm('Stop', 'echo extra'));
    put(join(extra, '.claude/commands/c.md'), fm('Stop', 'echo extra'));
    put(join(sb.workspace, '.claude/commands/c.md'), fm('Stop', 'echo near'));
    expect(await listAll(sb, '--additional-dir', extra)).toEqual([
      ['agent/project/helper:Stop:1.1', 'claude_agent', 'active'], // SubagentStop
      ['command/project/c:Stop:1.1', 'claude_command', 'active'],
      ['command/project/c:Stop:1.1', 'claude_command', 'overridden'],
    ]);
  });

  it('validate names a duplicate agent and refuses an agent name with ":"', async () => {
    const sb = sandbox();
    put(join(sb.workspace, '.claude/agents/a.md'), fm('Stop', 'echo a', 'name: twin\n'));
    put(join(sb.workspace, '.claude/agents/team/b.md'), fm('Stop', 'echo b', 'name: twin\n'));
    put(join(sb.workspace, '.claude/agents/c.md'), fm('Stop', 'echo c', 'name: x:y\n'));
    const r = await sb.cli(['hooks', 'validate', '--dialect', 'claude', '-o', 'json']);
    expect(r.code).toBe(1);
    const codes = (JSON.parse(r.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code);
    expect(codes).toEqual(expect.arrayContaining(['claude_duplicate_agent_name', 'claude_agent_name_invalid']));
  });
});

describe('front matter read in two passes (§2.1.1)', () => {
  it('a plugin skill with an unquoted argument-hint loads its hooks: fire runs them, validate warns once', async () => {
    const sb = sandbox();
    const plugin = join(sb.root, 'plug');
    const mark = join(sb.out, 'skill-ran');
    put(join(plugin, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'rh' }));
    put(join(plugin, 'hooks/hooks.json'), JSON.stringify({ hooks: {} }));
    put(
      join(plugin, 'skills/impl/SKILL.md'),
      fm('PreToolUse', `touch ${mark}`, 'description: d\nargument-hint: [issue] [--plan-doc path]\n'),
    );
    const v = await sb.cli(['hooks', 'validate', '--dialect', 'claude', '--plugin-dir', plugin, '-o', 'json']);
    expect(v.code, v.stdout).toBe(0);
    expect((JSON.parse(v.stdout) as { diagnostics: { code: string; line: number }[] }).diagnostics).toEqual([
      expect.objectContaining({ code: 'claude_frontmatter_requoted', line: 3 }),
    ]);
    const payload = { session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } };
    const r = await sb.fire('PreToolUse', payload, '--plugin-dir', plugin, '--skill', 'rh:impl');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.runs.map((x) => x.hook_name)).toEqual(['skill/rh/rh:impl:PreToolUse:1.1']);
    expect(existsSync(mark)).toBe(true);
  });
});
