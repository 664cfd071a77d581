// The §7 edit commands on claude settings files through the built CLI: every other byte kept,
// names printed, --dry-run diffs, refusals with their codes and exit codes, immutable sources,
// --all-hooks, and an atomic write that a crash cannot tear.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { claudeCliEnv, makeClaudeTree, oneHook, type ClaudeTree } from '../support/claude-tree.js';

let t: ClaudeTree;
let env: Record<string, string>;
beforeEach(() => {
  t = makeClaudeTree('hookctl-e2e-claude-edit-');
  env = claudeCliEnv(t, isolatedEnv({ home: t.home }));
});

const W = () => ['--workspace', t.workspace];
const cli = (args: string[], extraEnv: Record<string, string> = {}) =>
  runCli(['hooks', ...args, ...W()], { env: { ...env, ...extraEnv }, cwd: t.root });
const project = () => join(t.workspace, '.claude', 'settings.json');
const read = () => readFileSync(project(), 'utf8');

// A settings file as people write them: 4 spaces, CRLF, other keys around hooks, a one-line group.
const ORIGINAL =
  '{\r\n    "$schema": "https://json.schemastore.org/claude-code-settings.json",\r\n    "model": "opus",\r\n    "hooks": {\r\n        "PreToolUse": [\r\n            { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./guard.sh" } ] }\r\n        ]\r\n    },\r\n    "permissions": { "allow": ["Bash(ls)"] }\r\n}\r\n';

describe('claude edits', { timeout: 120_000 }, () => {
  it('create joins the group with the same matcher, prints the name and keeps every other byte', async () => {
    t.write('ws/.claude/settings.json', ORIGINAL);
    const r = await cli([
      'create',
      '--event',
      'PreToolUse',
      '--matcher',
      'Bash',
      '--command',
      './audit.sh',
      '--timeout',
      '2.5',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`created hook "project:PreToolUse:1.2" in ${join('ws', '.claude', 'settings.json')}`);
    expect(read()).toBe(
      ORIGINAL.replace(
        '"command": "./guard.sh" } ]',
        '"command": "./guard.sh" }, {"type": "command", "command": "./audit.sh", "timeout": 2.5} ]',
      ),
    );
    const group = await cli([
      'create',
      '--event',
      'PreToolUse',
      '--matcher',
      'Edit|Write',
      '--url',
      'http://127.0.0.1:9/x',
      '-o',
      'json',
    ]);
    const json = JSON.parse(group.stdout);
    expect(json).toMatchObject({
      action: 'create',
      name: 'project:PreToolUse:2.1',
      scope: 'project',
      file: project(),
      changed: true,
    });
    expect(json.targets).toEqual([{ dialect: 'claude', file: project(), changed: true }]);
    expect(read()).toContain(
      '\r\n            {\r\n                "matcher": "Edit|Write",\r\n                "hooks": [\r\n',
    );
    expect(read().includes('\n') && !/[^\r]\n/.test(read())).toBe(true); // CRLF kept everywhere
    const list = await runCli(['hooks', 'list', ...W(), '--dialect', 'claude', '-o', 'json'], { env, cwd: t.root });
    expect(JSON.parse(list.stdout).map((e: { name: string }) => e.name)).toEqual([
      'project:PreToolUse:1.1',
      'project:PreToolUse:1.2',
      'project:PreToolUse:2.1',
    ]);
  });

  it('a missing file and its .claude folder are created, 2-space indented; --dry-run shows the diff and writes nothing', async () => {
    const dry = await cli(['create', '--event', 'Stop', '--command', 'say done', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('--- /dev/null\n+++ ws/.claude/settings.json\n@@');
    expect(dry.stdout).toContain('+        "hooks": [');
    expect(existsSync(join(t.workspace, '.claude'))).toBe(false);
    const json = JSON.parse(
      (await cli(['create', '--event', 'Stop', '--command', 'say done', '--dry-run', '-o', 'json'])).stdout,
    );
    expect(json).toMatchObject({ dry_run: true, changed: true, name: 'project:Stop:1.1' });
    expect(json.diff).toContain('+{');
    expect((await cli(['create', '--event', 'Stop', '--command', 'say done'])).code).toBe(0);
    expect(read()).toBe(
      '{\n  "hooks": {\n    "Stop": [\n      {\n        "hooks": [\n          {\n            "type": "command",\n            "command": "say done"\n          }\n        ]\n      }\n    ]\n  }\n}\n',
    );
  });

  it('update changes fields in place; a new matcher moves the handler; delete removes group and event', async () => {
    t.write(
      'ws/.claude/settings.json',
      oneHook('PreToolUse', { type: 'command', command: 'a', timeout: 5, if: 'Bash(git *)' }, 'Bash'),
    );
    const before = read();
    const u = await cli(['update', 'project:PreToolUse:1.1', '--timeout', '9', '--unset', 'if']);
    expect(u.code, u.stderr).toBe(0);
    expect(read()).toBe(before.replace('"timeout": 5,\n            "if": "Bash(git *)"', '"timeout": 9'));
    const m = await cli(['update', 'project:PreToolUse:1.1', '--matcher', 'Edit']);
    expect(m.stdout.trim()).toBe(`updated hook "project:PreToolUse:1.1" in ${join('ws', '.claude', 'settings.json')}`);
    expect(JSON.parse(read()).hooks.PreToolUse).toEqual([
      { matcher: 'Edit', hooks: [{ type: 'command', command: 'a', timeout: 9 }] },
    ]);
    const d = await cli(['delete', 'project:PreToolUse:1.1']);
    expect(d.code).toBe(0);
    expect(JSON.parse(read())).toEqual({ hooks: {} });
    const gone = await cli(['delete', 'project:PreToolUse:1.1', '--json']);
    expect(gone.code).toBe(1);
    expect(JSON.parse(gone.stdout).error).toMatchObject({
      code: 'hook_not_found',
      message: 'hook "project:PreToolUse:1.1" not found',
      exit: 1,
    });
  });

  it('managed, plugin, skill and agent hooks are immutable (exit 1)', async () => {
    t.write('managed/managed-settings.json', oneHook('Stop', { type: 'command', command: 'm' }));
    t.write('dev/.claude-plugin/plugin.json', { name: 'dev' });
    t.write('dev/hooks/hooks.json', oneHook('Stop', { type: 'command', command: 'p' }));
    t.write(
      'ws/.claude/skills/s/SKILL.md',
      '---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: s\n---\n',
    );
    t.write(
      'ws/.claude/agents/a.md',
      '---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: a\n---\n',
    );
    const plugin = ['--plugin-dir', join(t.root, 'dev')];
    const cases: [string, string][] = [
      ['managed:Stop:1.1', 'claude_managed'],
      ['plugin/dev:Stop:1.1', 'claude_plugin'],
      ['skill/project/s:Stop:1.1', 'claude_skill'],
      ['agent/project/a:SubagentStop:1.1', ''],
      ['agent/project/a:Stop:1.1', 'claude_agent'],
    ];
    for (const [name, source] of cases) {
      const r = await cli(['delete', name, ...plugin]);
      expect(r.code, name).toBe(1);
      expect(r.stderr.trim(), name).toBe(
        `hookctl: ${source ? `hook "${name}" source "${source}" is immutable by tools` : `hook "${name}" not found`}`,
      );
    }
    const u = await cli(['update', 'managed:Stop:1.1', '--timeout', '3', '--json']);
    expect(JSON.parse(u.stdout).error.code).toBe('hook_source_immutable');
  });

  it('refusals: usage errors exit 2, validation, secrets and duplicates exit 1; nothing is written', async () => {
    t.write('ws/.claude/settings.json', oneHook('Stop', { type: 'command', command: 'x' }));
    const before = read();
    const cases: [string[], number, string][] = [
      [['create', 'guard', '--event', 'Stop', '--command', 'y'], 2, 'claude hooks have no names; omit "guard"'],
      [
        ['create', '--event', 'Stop', '--command', 'y', '--timeout', 'soon'],
        2,
        '--timeout must be a positive number of seconds',
      ],
      [
        ['create', '--event', 'Stop', '--command', 'y', '--timeout', '0'],
        2,
        '--timeout must be a positive number of seconds',
      ],
      [['create', '--event', 'Stop', '--command', 'y', '--if', 'Bash(rm *)'], 1, 'hook declaration validation failed'],
      [['create', '--event', 'SessionStart', '--url', 'http://127.0.0.1:1/'], 1, 'hook declaration validation failed'],
      [['create', '--event', 'Stop', '--command', 'x'], 1, 'an identical hook already exists: project:Stop:1.1'],
      [
        [
          'create',
          '--event',
          'Stop',
          '--url',
          'https://x.test/',
          '--header',
          'Authorization=Bearer sk-ant-abcdefghijklmnop0123456789',
        ],
        1,
        'hook executor env contains a forbidden secret-bearing input',
      ],
      [
        ['enable', 'project:Stop:1.1'],
        1,
        'claude hooks have no on/off switch; use hooks delete, or hooks disable --all-hooks',
      ],
      [['update', 'project:Stop:1.1', '--unset', 'command'], 2, '--unset takes'],
      [['update', 'project:Stop:1.1', '--scope', 'user', '--timeout', '3'], 1, 'hook "project:Stop:1.1" not found'],
    ];
    for (const [args, exit, message] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(exit);
      expect(r.stderr, args.join(' ')).toContain(message);
      expect(read(), args.join(' ')).toBe(before);
    }
    const v = await cli(['create', '--event', 'Stop', '--command', 'y', '--if', 'Bash(rm *)', '--json']);
    const error = JSON.parse(v.stdout).error;
    expect(error.code).toBe('hook_validation_failed');
    expect(error.diagnostics.map((d: { code: string }) => d.code)).toEqual(['claude_if_not_tool_event']);
    t.write('ws/.claude/settings.json', '{ "hooks": { "Stop": [ { "hooks": [ { "type": "command" } ] } ] } }');
    const broken = await cli(['create', '--event', 'Stop', '--command', 'z']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('hook declaration validation failed');
    expect(broken.stderr).toContain('command hook requires "command"');
  });

  it('disable --all-hooks and enable --all-hooks, with the warning when another file still turns hooks off', async () => {
    t.write('ws/.claude/settings.json', '{\n  "model": "x"\n}\n');
    const off = await cli(['disable', '--all-hooks', '--dialect', 'claude']);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout.trim()).toBe(
      `set "disableAllHooks": true in ${join('ws', '.claude', 'settings.json')}: only managed hooks and force-enabled plugins' hooks run`,
    );
    expect(read()).toBe('{\n  "model": "x",\n  "disableAllHooks": true\n}\n');
    t.write('home/.claude/settings.json', { disableAllHooks: true });
    const on = await cli(['enable', '--all-hooks']);
    expect(on.code).toBe(0);
    expect(read()).toBe('{\n  "model": "x"\n}\n');
    expect(on.stderr).toContain(`disableAllHooks is still true in ${join('home', '.claude', 'settings.json')}`);
    const user = await cli(['enable', '--all-hooks', '--scope', 'user']);
    expect(user.code).toBe(0);
    expect(JSON.parse(readFileSync(join(t.configDir, 'settings.json'), 'utf8'))).toEqual({});
  });

  it('the write is atomic: a crash before the rename leaves the old file whole, and the next write cleans up', async () => {
    t.write('ws/.claude/settings.json', ORIGINAL);
    const crash = await cli(['create', '--event', 'Stop', '--command', 'x'], {
      HOOKCTL_TEST_FAULT: 'kill-before-rename',
    });
    expect(crash.code).not.toBe(0);
    expect(read()).toBe(ORIGINAL);
    const strays = () => readdirSync(join(t.workspace, '.claude')).filter((f) => f.endsWith('.tmp'));
    expect(strays().length).toBe(1);
    const ok = await cli(['create', '--event', 'Stop', '--command', 'x']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(strays()).toEqual([]);
    expect(JSON.parse(read()).hooks.Stop).toHaveLength(1);
  });
});
