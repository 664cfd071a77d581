// The claude dialect's read side through the built CLI (claude.md §1, §2, §7): every source in
// dispatch order, the gates and statuses of `list --all`, diagnostics with file:line:col,
// `validate FILE` by kind, `info`, the dialect choice of `fire`, and `runs`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv, repoRoot, runCli } from '../support/cli.js';
import { claudeCliEnv, makeClaudeTree, oneHook, REAL_CLAUDE_FILES, type ClaudeTree } from '../support/claude-tree.js';

let t: ClaudeTree;
let env: Record<string, string>;
beforeEach(() => {
  t = makeClaudeTree('hookctl-e2e-claude-');
  env = claudeCliEnv(t, isolatedEnv({ home: t.home }));
});

const W = () => ['--workspace', t.workspace];
const cli = (args: string[], input?: string) => runCli(args, { env, cwd: t.root, ...(input ? { input } : {}) });
const cmd = (command: string, extra: object = {}) => ({ type: 'command', command, ...extra });
const skill = (event: string, command: string) =>
  `---\nname: s\nhooks:\n  ${event}:\n    - hooks:\n        - type: command\n          command: ${command}\n---\nbody\n`;
const listJson = async (...extra: string[]) => {
  const r = await cli(['hooks', 'list', ...W(), '--dialect', 'claude', '-o', 'json', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>[];
};

describe('claude list', { timeout: 120_000 }, () => {
  it('every source in dispatch order, with the claude fields of §7', async () => {
    t.write('managed/managed-settings.json', oneHook('Stop', cmd('managed-stop')));
    t.write('managed/managed-settings.d/10-extra.json', oneHook('Stop', cmd('dropin-stop')));
    t.write('home/.claude/settings.json', {
      ...oneHook('PreToolUse', cmd('user-guard', { if: 'Bash(git push *)', timeout: 5 }), 'Bash'),
      enabledPlugins: { 'fmt@team': true },
    });
    t.write('ws/.claude/settings.json', oneHook('Stop', { type: 'http', url: 'http://127.0.0.1:1/x' }));
    t.write('ws/.claude/settings.local.json', oneHook('Stop', cmd('local-stop', { async: true })));
    t.write(
      'home/.claude/plugins/cache/team/fmt/2.0.0/hooks/hooks.json',
      oneHook('Stop', cmd('${CLAUDE_PLUGIN_ROOT}/fmt.sh')),
    );
    t.write('dev/.claude-plugin/plugin.json', { name: 'dev-tools' });
    t.write('dev/hooks/hooks.json', oneHook('Stop', { type: 'prompt', prompt: 'Is the task done?\nAnswer.' }));
    t.write('ws/.claude/skills/release/SKILL.md', skill('Stop', 'skill-stop'));
    t.write(
      'ws/.claude/agents/reviewer.md',
      '---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: agent-stop\n---\n',
    );
    const entries = await listJson('--plugin-dir', join(t.root, 'dev'));
    expect(entries.map((e) => [e.order, e.name, e.event, e.source])).toEqual([
      [1, 'user:PreToolUse:1.1', 'PreToolUse', 'claude_user'],
      [1, 'agent/project/reviewer:Stop:1.1', 'SubagentStop', 'claude_agent'],
      [1, 'managed:Stop:1.1', 'Stop', 'claude_managed'],
      [2, 'managed.d/10-extra.json:Stop:1.1', 'Stop', 'claude_managed'],
      [3, 'project:Stop:1.1', 'Stop', 'claude_project'],
      [4, 'local:Stop:1.1', 'Stop', 'claude_local'],
      [5, 'plugin/dev-tools:Stop:1.1', 'Stop', 'claude_plugin'],
      [6, 'plugin/fmt@team:Stop:1.1', 'Stop', 'claude_plugin'],
      [7, 'skill/project/s:Stop:1.1', 'Stop', 'claude_skill'],
    ]);
    expect(entries[0]).toMatchObject({
      dialect: 'claude',
      mode: 'sync',
      required: false,
      priority: null,
      timeout_ms: 5000,
      executor_kind: 'command',
      matcher: 'Bash',
      metadata: {},
      enabled: true,
      handler_type: 'command',
      if: 'Bash(git push *)',
      once: false,
      async_rewake: false,
      plugin: null,
      skill: null,
      agent: null,
      runnable: true,
      label: 'user-guard',
      location: { file: join('home', '.claude', 'settings.json'), line: 7 },
    });
    expect(entries.find((e) => e.name === 'local:Stop:1.1')).toMatchObject({ mode: 'async', timeout_ms: 600000 });
    expect(entries.find((e) => e.name === 'plugin/dev-tools:Stop:1.1')).toMatchObject({
      handler_type: 'prompt',
      runnable: false,
      label: 'Is the task done?',
      timeout_ms: 30000,
      plugin: 'dev-tools',
    });
    expect(entries.find((e) => e.name === 'skill/project/s:Stop:1.1')).toMatchObject({
      skill: 's',
      skill_source: 'project',
    });
    expect(entries.find((e) => e.event === 'SubagentStop')).toMatchObject({ agent: 'reviewer', matcher: null });

    const human = await cli(['hooks', 'list', ...W(), '--dialect', 'claude']);
    const [head, first] = human.stdout.split('\n');
    expect(head!.trim().split(/\s{2,}/)).toEqual(['Order', 'Name', 'Event', 'Matcher', 'Type', 'Label']);
    expect(first!.trim().split(/\s{2,}/)).toEqual([
      '1',
      'user:PreToolUse:1.1',
      'PreToolUse',
      'Bash',
      'command',
      'user-guard',
    ]);
    const agent = await listJson('--agent', 'reviewer');
    expect(agent.map((e) => e.name)).toContain('agent/project/reviewer:Stop:1.1');
    // what would run for the agent (SPEC §7.2): other agents' hooks are left out
    const names = agent.map((e) => String(e.name));
    expect(names.every((n) => !n.startsWith('agent/') || n.startsWith('agent/project/reviewer:'))).toBe(true);
  });

  it('list --all: every gate and status of §2.4 with its why', async () => {
    t.write('home/.claude/settings.json', {
      hooks: {
        Stop: [{ hooks: [cmd('same'), { type: 'http', url: 'https://not-allowed.test/' }] }],
      },
      allowedHttpHookUrls: ['http://127.0.0.1:*'],
      enabledPlugins: { 'off@m': false },
    });
    t.write('ws/.claude/settings.json', oneHook('Stop', cmd('same')));
    t.write('home/.claude/plugins/cache/m/off/1.0.0/hooks/hooks.json', oneHook('Stop', cmd('off')));
    const all = await listJson('--all');
    expect(all.map((e) => [e.name, e.status, e.why, e.order])).toEqual([
      ['user:Stop:1.1', 'active', null, 1],
      ['user:Stop:1.2', 'blocked', 'url matches no allowedHttpHookUrls pattern', null],
      ['project:Stop:1.1', 'overridden', 'same handler as user:Stop:1.1; Claude Code runs it once', null],
      ['plugin/off@m:Stop:1.1', 'disabled', 'plugin "off@m" is not enabled', null],
    ]);
    expect((await listJson()).map((e) => e.name)).toEqual(['user:Stop:1.1']);

    t.write('managed/managed-settings.json', { allowManagedHooksOnly: true });
    const blocked = await listJson('--all');
    expect(new Set(blocked.map((e) => e.why))).toEqual(
      // Why texts name files as list shows locations: relative to the current folder (t.root) when inside it.
      new Set([
        `allowManagedHooksOnly is true in ${join('managed', 'managed-settings.json')}`,
        'plugin "off@m" is not enabled',
      ]),
    );
    t.write('managed/managed-settings.json', { strictPluginOnlyCustomization: true });
    expect((await listJson('--all')).filter((e) => e.status === 'blocked').map((e) => e.why)).toContain(
      `strictPluginOnlyCustomization blocks hooks from settings files (${join('managed', 'managed-settings.json')})`,
    );
    t.write('managed/managed-settings.json', { disableAllHooks: true });
    const off = await cli(['hooks', 'list', ...W(), '--dialect', 'claude', '--all']);
    expect(off.stdout).toMatch(
      /user:Stop:1\.1 .* disabled +disableAllHooks is true in managed[/\\]managed-settings\.json/,
    );
    const validate = await cli(['hooks', 'validate', ...W()]);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('disableAllHooks is true in managed/managed-settings.json: all hooks do not run');
  });

  it('--plugin-dir that is not a folder is a usage error on every command', async () => {
    for (const args of [
      ['hooks', 'list'],
      ['hooks', 'validate'],
      ['hooks', 'fire', 'Stop', '--dialect', 'claude'],
    ]) {
      const r = await cli([...args, ...W(), '--plugin-dir', join(t.root, 'missing')]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`--plugin-dir ${join(t.root, 'missing')}: no such folder`);
    }
  });
});

describe('claude validate', { timeout: 120_000 }, () => {
  it('errors and warnings with file:line:col, exit 1; clean is exit 0', async () => {
    t.write(
      'ws/.claude/settings.json',
      '{\n  "hooks": {\n    "PreTooluse": [],\n    "Stop": [ { "matcher": "x", "hooks": [ { "type": "command", "command": "" } ] } ]\n  }\n}\n',
    );
    const r = await cli(['hooks', 'validate', ...W(), '-o', 'json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    const diagnostics = (report.diagnostics ?? report) as {
      code: string;
      line: number;
      column?: number;
      file: string;
      hook?: string;
    }[];
    expect(diagnostics.map((d) => [d.code, d.line, d.column, d.hook ?? null])).toEqual([
      ['claude_unknown_event', 3, 5, null],
      ['claude_matcher_ignored', 4, 17, 'project:Stop:1.1'],
      ['claude_field_required', 4, 65, 'project:Stop:1.1'],
    ]);
    const human = await cli(['hooks', 'validate', ...W()]);
    expect(human.stdout).toContain('unknown hook event "PreTooluse"; did you mean "PreToolUse"?');
    expect(human.stdout).toMatch(/ws[/\\]\.claude[/\\]settings\.json:3:5/);
    t.write('ws/.claude/settings.json', oneHook('Stop', cmd('ok')));
    expect((await cli(['hooks', 'validate', ...W()])).code).toBe(0);
  });

  it('validate FILE knows every claude kind by name and place', async () => {
    const files = {
      settings: t.write('x/.claude/settings.json', oneHook('Stop', cmd('x', { timeout: 0 }))),
      managed: t.write('x/managed-settings.d/a.json', { hooks: { Stop: 'nope' } }),
      hooks: t.write('p/hooks/hooks.json', { Stop: [] }),
      manifest: t.write('p/.claude-plugin/plugin.json', { name: 'p', hooks: './hooks/hooks.json' }),
      agent: t.write('x/agents/a.md', '---\nhooks:\n  Stop:\n    - hooks:\n        - type: agent\n---\n'),
      skill: t.write(
        'x/skills/both/SKILL.md',
        '---\nname: both\nmetadata:\n  compozy:\n    hooks:\n      - name: h\n        event: nope.event\n        command: x\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n---\n',
      ),
    };
    const codes = async (file: string) => {
      const r = await cli(['hooks', 'validate', file, '-o', 'json']);
      const report = JSON.parse(r.stdout);
      return ((report.diagnostics ?? report) as { code: string }[]).map((d) => d.code);
    };
    expect(await codes(files.settings)).toEqual(['claude_invalid_timeout']);
    expect(await codes(files.managed)).toEqual(['claude_invalid_group']);
    expect(await codes(files.hooks)).toEqual(['claude_plugin_hooks_missing']);
    expect(await codes(files.manifest)).toEqual(['claude_plugin_duplicate_hooks_file']);
    expect(await codes(files.agent)).toEqual(['claude_field_required']);
    const both = await codes(files.skill);
    expect(both).toContain('claude_field_required');
    expect(both).toContain('invalid_event');
  });

  it('our real-shaped example files validate with no diagnostic', async () => {
    const real = join(repoRoot, 'test/fixtures/claude/real');
    // lint.json is a hooks file only through the plugin that names it (checked in test/unit).
    const files = REAL_CLAUDE_FILES.filter((f) => !f.endsWith('lint.json')).map((f) => join(real, f));
    const r = await cli(['hooks', 'validate', ...files, '--strict']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });
});

describe('claude info, fire dialect choice, runs', { timeout: 120_000 }, () => {
  it('info NAME shows the handler as written', async () => {
    t.write('ws/.claude/settings.json', oneHook('PreToolUse', cmd('guard.sh', { timeout: 3 }), 'Bash'));
    const r = await cli(['hooks', 'info', 'project:PreToolUse:1.1', ...W(), '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.declarations[0]).toMatchObject({
      name: 'project:PreToolUse:1.1',
      handler: { type: 'command', command: 'guard.sh', timeout: 3 },
      origin: 'project',
      matcher: 'Bash',
    });
    const human = await cli(['hooks', 'info', 'project:PreToolUse:1.1', ...W()]);
    expect(human.stdout).toContain('handler     {"type":"command","command":"guard.sh","timeout":3}');
  });

  it('an event both cosh and claude declare needs --dialect (exit 2); one declaring dialect is used', async () => {
    mkdirSync(join(t.home, '.copilot-shell'), { recursive: true });
    t.write('home/.copilot-shell/config.toml', '[[hooks.PreToolUse]]\nname = "cosh-guard"\ncommand = "true"\n');
    t.write('ws/.claude/settings.json', oneHook('PreToolUse', cmd('true')));
    const amb = await cli(['hooks', 'fire', 'PreToolUse', ...W()], '{"tool_name":"Bash"}');
    expect(amb.code).toBe(2);
    expect(amb.stderr).toContain(
      'event "PreToolUse" is declared in more than one dialect (claude, cosh); pass --dialect claude or --dialect cosh',
    );
    const json = await cli(['hooks', 'fire', 'PreToolUse', ...W(), '--json'], '{}');
    expect(JSON.parse(json.stdout).error.code).toBe('ambiguous_dialect');
    const claude = await cli(
      ['hooks', 'fire', 'PreToolUse', ...W(), '--dialect', 'claude', '-o', 'json'],
      '{"tool_name":"Bash"}',
    );
    expect(claude.code, claude.stderr).toBe(0);
    expect(JSON.parse(claude.stdout)).toMatchObject({ dialect: 'claude', verdict: 'pass' });
    t.write('home/.copilot-shell/config.toml', '');
    const only = await cli(['hooks', 'fire', 'PreToolUse', ...W(), '-o', 'json'], '{"tool_name":"Bash"}');
    expect(JSON.parse(only.stdout).dialect).toBe('claude');
    const unknown = await cli(['hooks', 'fire', 'tool.pre_call', ...W(), '--dialect', 'claude'], '{}');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown event "tool.pre_call" for dialect "claude"');
  });

  it('fire refuses while a claude source has an error (exit 2); runs shows claude records with a Decision column', async () => {
    t.write('ws/.claude/settings.json', oneHook('Stop', cmd('x', { timeout: -1 })));
    const refused = await cli(['hooks', 'fire', 'Stop', ...W(), '--dialect', 'claude'], '{}');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('timeout must be a positive number of seconds');
    t.write('ws/.claude/settings.json', oneHook('Stop', cmd('echo \'{"decision":"block","reason":"tests first"}\'')));
    const fired = await cli(['hooks', 'fire', 'Stop', ...W(), '--dialect', 'claude', '--session', 'sess-e2e'], '{}');
    expect(fired.code).toBe(1);
    const runs = await cli(['hooks', 'runs', ...W(), '--session', 'sess-e2e']); // the workspace's runs
    const [, head, row] = runs.stdout.split('\n');
    expect(head!.trim().split(/\s{2,}/)).toEqual([
      'Hook',
      'Event',
      'Outcome',
      'Decision',
      'Duration',
      'Error',
      'Recorded',
    ]);
    expect(row).toMatch(/^project:Stop:1\.1\s+Stop\s+denied\s+block\s+\d+ ms/);
  });
});
