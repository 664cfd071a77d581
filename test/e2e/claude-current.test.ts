// Claude Code as it ships now (issue 27), end to end on the built CLI: subagents and slash
// commands wherever Claude Code reads them, with hooks that really run.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
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

describe('releases (§9): --claude-version and HOOKCTL_CLAUDE_VERSION', () => {
  it('2.1.240 is the old catalog: PreModelSwitch is an unknown event there, fire refuses it naming the release', async () => {
    const sb = sandbox();
    sb.settings({ PreModelSwitch: [{ hooks: [{ type: 'command', command: 'true' }] }] });
    const now = await sb.cli(['hooks', 'validate', '--dialect', 'claude']);
    expect(now.code, now.stdout).toBe(0);
    const old = await sb.cli(['hooks', 'validate', '--dialect', 'claude', '--claude-version', '2.1.240']);
    expect(old.code).toBe(1);
    expect(old.stdout).toContain('unknown hook event "PreModelSwitch" (added in Claude Code 2.1.251)');
    const gone = `event "PreModelSwitch" is not in Claude Code 2.1.240: added in Claude Code 2.1.251; select another with --claude-version (see: hookctl hooks events --changes)`;
    for (const flags of [['--dialect', 'claude'], []]) {
      const r = await runCli(['hooks', 'fire', 'PreModelSwitch', ...flags, '--workspace', sb.workspace], {
        env: { ...sb.env, HOOKCTL_CLAUDE_VERSION: '2.1.240' },
        input: '{}',
      });
      expect([r.code, r.stderr.trim()]).toEqual([2, `hookctl: ${gone}`]);
    }
    const events = await sb.cli([
      'hooks',
      'events',
      '--dialect',
      'claude',
      '--claude-version',
      'v2.1.240',
      '-o',
      'json',
    ]);
    expect((JSON.parse(events.stdout) as unknown[]).length).toBe(31);
  });

  it('an unknown version is a usage error; the flag beats the variable; --changes lists the releases', async () => {
    const sb = sandbox();
    const bad = await sb.cli(['hooks', 'list', '--claude-version', '2.2.0']);
    expect([bad.code, bad.stderr.trim()]).toEqual([
      2,
      'hookctl: unknown Claude Code version "2.2.0"; hookctl knows 2.1.0 to 2.1.295 (newest)',
    ]);
    const both = await runCli(['hooks', 'events', '--dialect', 'claude', '--claude-version', '2.1.295'], {
      env: { ...sb.env, HOOKCTL_CLAUDE_VERSION: '2.1.240' },
    });
    expect(both.stdout).toContain('Catalog: Claude Code 2.1.295, the newest');
    const changes = await sb.cli(['hooks', 'events', '--changes', '--dialect', 'claude', '-o', 'json']);
    const list = JSON.parse(changes.stdout) as {
      runtime: string;
      version: string;
      changes: { kind: string; name: string }[];
    }[];
    expect(list.every((v) => v.runtime === 'Claude Code')).toBe(true);
    expect(list.find((v) => v.version === '2.1.251')!.changes).toContainEqual(
      expect.objectContaining({ kind: 'event_added', name: 'PreModelSwitch' }),
    );
  });
});

describe('PreModelSwitch and PostModelSwitch (2.1.251, §3, §5.6, §5.7)', () => {
  const cmdHook = (command: string, more: Record<string, unknown> = {}) => ({ type: 'command', command, ...more });
  const answer = (fields: Record<string, unknown>) =>
    `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreModelSwitch', ...fields } })}'`;
  const payload = { session_id: 's', from_model: 'claude-sonnet-5', to_model: 'claude-opus-5', source: 'picker' };

  it('matches on to_model; deny > ask > allow; decision block and exit 2 deny; defer fails the check', async () => {
    const sb = sandbox();
    sb.settings({
      PreModelSwitch: [
        { matcher: 'claude-haiku-5', hooks: [cmdHook('exit 2')] },
        {
          matcher: '.*opus.*',
          hooks: [cmdHook(answer({ permissionDecision: 'ask', permissionDecisionReason: 'costly' }))],
        },
        { matcher: 'claude-opus-4-6|claude-opus-5', hooks: [cmdHook(answer({ permissionDecision: 'allow' }))] },
      ],
    });
    const ask = await sb.fire('PreModelSwitch', payload);
    expect([ask.code, ask.json.verdict, ask.json.reason]).toEqual([4, 'ask', 'costly']);
    expect(ask.json.runs.map((r) => r.hook_name)).toEqual(['project:PreModelSwitch:2.1', 'project:PreModelSwitch:3.1']);
    const haiku = await sb.fire('PreModelSwitch', { ...payload, to_model: 'claude-haiku-5' });
    expect([haiku.code, haiku.json.verdict]).toEqual([1, 'deny']);

    sb.settings({
      PreModelSwitch: [
        { hooks: [cmdHook(`echo '{"decision":"block","reason":"not now"}'`)] },
        { hooks: [cmdHook(answer({ permissionDecision: 'defer' }))] },
      ],
    });
    const block = await sb.fire('PreModelSwitch', payload);
    expect([block.code, block.json.verdict, block.json.reason]).toEqual([1, 'deny', 'not now']);
    expect(block.json.runs[1]).toMatchObject({
      outcome: 'failed',
      error: 'invalid hook output: hookSpecificOutput.permissionDecision must be one of allow, deny, ask',
    });
  });

  it('a PreModelSwitch hook that times out blocks the switch; PostModelSwitch cannot block, its stdout is context', async () => {
    const sb = sandbox();
    sb.settings({
      PreModelSwitch: [{ hooks: [cmdHook('sleep 5', { timeout: 0.5 })] }],
      PostModelSwitch: [{ hooks: [cmdHook('echo switched; exit 2')] }, { hooks: [cmdHook('echo warm cache')] }],
    });
    const pre = await sb.fire('PreModelSwitch', payload);
    expect([pre.code, pre.json.verdict, pre.json.reason]).toEqual([
      1,
      'deny',
      'hook timed out after 0.5s; a PreModelSwitch hook that times out blocks the switch',
    ]);
    expect(pre.json.runs[0]).toMatchObject({ outcome: 'denied', decision: 'deny', timed_out: true });
    const post = await sb.fire('PostModelSwitch', { ...payload, source: 'resume' });
    expect([post.code, post.json.verdict, post.json.additional_context]).toEqual([0, 'pass', 'warm cache']);
    const list = await sb.cli(['hooks', 'list', '--dialect', 'claude', '-o', 'json']);
    expect(
      (JSON.parse(list.stdout) as { event: string; timeout_ms: number }[]).map((h) => [h.event, h.timeout_ms]),
    ).toEqual([
      ['PreModelSwitch', 500],
      ['PostModelSwitch', 30_000],
      ['PostModelSwitch', 30_000],
    ]);
  });
});

describe('mods (§1.1, 2.1.287): detected, never run, named wherever their events are shown', () => {
  const modPlugin = (sb: Sandbox) => {
    const root = join(sb.root, 'guard-mod');
    put(join(root, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'guard' }));
    put(
      join(root, 'hooks/hooks.json'),
      JSON.stringify({
        modules: ['./mod.ts', './gone.ts'],
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
      }),
    );
    put(
      join(root, 'hooks/mod.ts'),
      "import { extra } from './lib/extra';\nexport function register(hook) {\n  hook('classic.Stop', () => {});\n}\n",
    );
    put(join(root, 'hooks/lib/extra.ts'), "export const extra = (api) => api.on('tool.check', () => {});\n");
    return root;
  };

  it('validate warns; list, info, fire and --dry-run name the events on stderr and in JSON', async () => {
    const sb = sandbox();
    const root = modPlugin(sb);
    sb.settings({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] });
    const P = ['--plugin-dir', root];
    const v = await sb.cli(['hooks', 'validate', '--dialect', 'claude', ...P, '-o', 'json']);
    expect(v.code, v.stdout).toBe(0);
    const diags = (JSON.parse(v.stdout) as { diagnostics: { code: string; message: string }[] }).diagnostics;
    expect(diags.map((d) => [d.code, d.message])).toEqual([
      [
        'claude_mod_module_missing',
        'plugin "guard" lists hooks module "./gone.ts", which does not exist; Claude Code does not load it',
      ],
      [
        'claude_mod_intercepts',
        'plugin "guard" is a mod; its hooks module registers "classic.Stop", "tool.check", so it may intercept PreToolUse, PermissionRequest, PermissionDenied, PostToolUse, PostToolUseFailure, Stop; hookctl does not run mods',
      ],
    ]);
    const line = (events: string) =>
      `mod "guard" may intercept ${events}: hookctl does not run mods, so Claude Code's answer there can differ`;
    const list = await sb.cli(['hooks', 'list', '--dialect', 'claude', ...P, '-o', 'json']);
    expect(list.stderr).toContain(line('PreToolUse, Stop'));
    expect(
      (JSON.parse(list.stdout) as { name: string; intercepted_by: string[] }[]).map((h) => [h.name, h.intercepted_by]),
    ).toEqual([
      ['project:PreToolUse:1.1', ['guard']],
      ['plugin/guard:Stop:1.1', ['guard']],
    ]);
    const info = await sb.cli(['hooks', 'info', 'project:PreToolUse:1.1', ...P]);
    expect(info.stderr).toContain(line('PreToolUse'));
    const fired = await sb.fire(
      'PreToolUse',
      { session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } },
      ...P,
    );
    expect(fired.stderr).toContain(line('PreToolUse'));
    expect(fired.json.mods).toEqual([
      { plugin: 'guard', modules: ['./mod.ts'], registers: ['classic.Stop', 'tool.check'], events: expect.any(Array) },
    ]);
    const dry = await sb.cli(['hooks', 'fire', 'Stop', '--dialect', 'claude', '--dry-run', ...P, '-o', 'json'], '{}');
    expect(dry.stderr).toContain(line('Stop'));
    expect((JSON.parse(dry.stdout) as { mods: { plugin: string }[] }).mods.map((m) => m.plugin)).toEqual(['guard']);
    const other = await sb.fire('SessionStart', { session_id: 's' }, ...P);
    expect([other.json.mods, other.stderr]).toEqual([[], '']);
  });

  it('before 2.1.287 "modules" is an unknown key; disableAllHooks loads no mod', async () => {
    const sb = sandbox();
    const root = modPlugin(sb);
    const old = await sb.cli([
      'hooks',
      'validate',
      '--dialect',
      'claude',
      '--plugin-dir',
      root,
      '--claude-version',
      '2.1.286',
      '-o',
      'json',
    ]);
    expect((JSON.parse(old.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code)).toEqual([
      'claude_unknown_key',
    ]);
    sb.settings({}, { disableAllHooks: true });
    const off = await sb.cli(['hooks', 'list', '--all', '--dialect', 'claude', '--plugin-dir', root]);
    expect(off.stderr).not.toContain('may intercept');
  });
});

describe('onFailure "block" (2.1.295, §5.4)', () => {
  const cmdHook = (command: string, more: Record<string, unknown> = {}) => ({ type: 'command', command, ...more });

  it('a hook that fails or times out blocks as exit 2 would; ignored, with a warning, where nothing can block', async () => {
    const sb = sandbox();
    sb.settings({
      PreToolUse: [{ hooks: [cmdHook('exit 3', { onFailure: 'block' }), cmdHook('exit 3')] }],
      UserPromptSubmit: [{ hooks: [cmdHook('sleep 5', { onFailure: 'block', timeout: 0.5 })] }],
      Stop: [{ hooks: [cmdHook('exit 3', { onFailure: 'block' })] }],
      Notification: [{ hooks: [cmdHook('exit 3', { onFailure: 'block', async: true })] }],
    });
    const v = await sb.cli(['hooks', 'validate', '--dialect', 'claude', '-o', 'json']);
    expect(
      (JSON.parse(v.stdout) as { diagnostics: { code: string; message: string }[] }).diagnostics.map((d) => [
        d.code,
        d.message,
      ]),
    ).toEqual([
      ['claude_on_failure_ignored', 'onFailure "block" is ignored on Stop'],
      ['claude_on_failure_ignored', 'onFailure "block" is ignored on async hooks'],
    ]);
    const pre = await sb.fire('PreToolUse', { session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect([pre.code, pre.json.verdict, pre.json.reason]).toEqual([
      1,
      'deny',
      'hook command failed: exit status 3; blocking because onFailure is "block"',
    ]);
    expect(pre.json.runs.map((r) => [r.outcome, r.blocking])).toEqual([
      ['denied', true],
      ['failed', false],
    ]);
    const prompt = await sb.fire('UserPromptSubmit', { session_id: 's', prompt: 'hi' });
    expect([prompt.json.verdict, prompt.json.reason]).toEqual([
      'block',
      'hook timed out after 0.5s; blocking because onFailure is "block"',
    ]);
    expect((await sb.fire('Stop', { session_id: 's' })).json.verdict).toBe('pass');
    const old = await sb.cli(
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '--claude-version', '2.1.294', '-o', 'json'],
      JSON.stringify({ session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } }),
    );
    expect((JSON.parse(old.stdout) as { verdict: string }).verdict).toBe('pass');
  });
});

describe('hooks validate FILE on plugin files as they ship', () => {
  it('a claude SKILL.md that needed the second pass gives its one warning, and marketplace.json is clean', async () => {
    const sb = sandbox();
    const plugin = join(sb.root, 'plug');
    put(join(plugin, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'rh' }));
    put(
      join(plugin, '.claude-plugin/marketplace.json'),
      JSON.stringify({ name: 'm', plugins: [{ name: 'rh', source: './' }] }),
    );
    const skill = join(plugin, 'skills/impl/SKILL.md');
    put(skill, fm('Stop', 'echo x', 'argument-hint: [issue] [--plan-doc path]\ncontext: fork\nmodel: opus\n'));
    const r = await sb.cli(['hooks', 'validate', skill, join(plugin, '.claude-plugin/marketplace.json'), '-o', 'json']);
    expect(r.code, r.stdout).toBe(0);
    const report = JSON.parse(r.stdout) as { diagnostics: { code: string; line: number }[] };
    expect(report.diagnostics.map((d) => [d.code, d.line])).toEqual([['claude_frontmatter_requoted', 2]]);
  });
});
