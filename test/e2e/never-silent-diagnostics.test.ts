// Issue 28, "the mistakes that make a hook never fire get a diagnostic", through the built CLI:
// each mistake is a `validate` diagnostic at its place, and the ones a hook survives are shown by
// `list --all`, `info` and as the reason in `fire --dry-run`'s plan.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { sandbox } from './claude-support.js';

interface Diag {
  code: string;
  severity: string;
  message: string;
  line: number;
  column?: number;
  hook?: string;
}

const diagnosticsOf = (stdout: string): Diag[] => (JSON.parse(stdout) as { diagnostics: Diag[] }).diagnostics;

describe('never silent: JSON sources', { timeout: 120_000 }, () => {
  it('a trailing comma in a settings file is reported at the comma, as a trailing comma', async () => {
    const s = sandbox();
    const file = join(s.workspace, '.claude', 'settings.json');
    writeFileSync(
      file,
      '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [ { "type": "command", "command": "true" } ] },\n    ]\n  }\n}\n',
    );
    const r = await s.cli(['hooks', 'validate', '-o', 'json']);
    expect(r.code).toBe(1);
    expect(diagnosticsOf(r.stdout).map((d) => [d.code, d.line, d.column, d.message])).toEqual([
      ['json_parse_error', 4, 64, "invalid JSON: trailing comma before ']'"],
    ]);
  });

  it('a trailing comma in a cosh-extension.json and a compozy extension.json is reported at the comma', async () => {
    const dir = tempDir('hookctl-e2e-comma-');
    const cosh = join(dir, 'cosh-extension.json');
    writeFileSync(cosh, '{\n  "name": "x",\n  "version": "1.0.0",\n}\n');
    const compozy = join(dir, 'extension.json');
    writeFileSync(compozy, '{\n  "extension": { "name": "x", "version": "1.0.0", },\n  "resources": {}\n}\n');
    const env = isolatedEnv();
    for (const [file, line, column] of [
      [cosh, 3, 21],
      [compozy, 2, 49],
    ] as const) {
      const r = await runCli(['hooks', 'validate', file, '-o', 'json'], { env, cwd: dir });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      const d = diagnosticsOf(r.stdout);
      expect(
        d.map((x) => [x.code, x.line, x.column]),
        file,
      ).toEqual([['json_parse_error', line, column]]);
      expect(d[0]!.message).toContain("trailing comma before '}'");
    }
  });
});

describe('never silent: an event name as a top-level settings key', { timeout: 120_000 }, () => {
  it('validate warns, list --all and info show the hook skipped, fire --dry-run gives the reason', async () => {
    const s = sandbox();
    const hook = s.script('fmt.sh', 'exit 0');
    s.settings(
      { Stop: [{ hooks: [{ type: 'command', command: hook }] }] },
      { PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: hook }] }] },
    );
    const v = await s.cli(['hooks', 'validate', '-o', 'json']);
    expect(v.code, v.stdout).toBe(0);
    expect(diagnosticsOf(v.stdout).map((d) => [d.severity, d.code, d.hook])).toEqual([
      ['warning', 'claude_event_outside_hooks', 'project:PostToolUse:1.1'],
    ]);
    expect(diagnosticsOf(v.stdout)[0]!.message).toContain('did you mean hooks.PostToolUse?');
    expect((await s.cli(['hooks', 'validate', '--strict'])).code).toBe(1);

    const list = await s.cli(['hooks', 'list', '--all', '--dialect', 'claude', '-o', 'json']);
    const entries = JSON.parse(list.stdout) as { name: string; status: string; why: string | null }[];
    expect(entries.map((e) => [e.name, e.status])).toEqual([
      ['project:PostToolUse:1.1', 'skipped'],
      ['project:Stop:1.1', 'active'],
    ]);
    expect(entries[0]!.why).toContain('did you mean hooks.PostToolUse?');
    const human = await s.cli(['hooks', 'list', '--all', '--dialect', 'claude']);
    expect(human.stdout).toContain('did you mean hooks.PostToolUse?');

    const info = await s.cli(['hooks', 'info', 'project:PostToolUse:1.1']);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toMatch(/status +skipped: "PostToolUse" is a hook event/);

    const plan = await s.cli(
      ['hooks', 'fire', 'PostToolUse', '--dialect', 'claude', '--dry-run', '-o', 'json'],
      JSON.stringify({ tool_name: 'Edit' }),
    );
    expect(plan.code, plan.stderr).toBe(0);
    const entry = (
      JSON.parse(plan.stdout) as { plan: { name: string; status: string; why: string; matched: boolean }[] }
    ).plan[0]!;
    expect([entry.name, entry.status, entry.matched]).toEqual(['project:PostToolUse:1.1', 'skipped', false]);
    expect(entry.why).toContain('did you mean hooks.PostToolUse?');
  });
});

describe('never silent: a matcher off by case', { timeout: 120_000 }, () => {
  it('validate warns (--strict fails), list --all, info and fire --dry-run give the reason', async () => {
    const s = sandbox();
    const hook = s.script('guard.sh', 'exit 0');
    s.settings({ PreToolUse: [{ matcher: 'edit|write', hooks: [{ type: 'command', command: hook }] }] });
    const v = await s.cli(['hooks', 'validate', '-o', 'json']);
    expect(v.code, v.stdout).toBe(0);
    expect(diagnosticsOf(v.stdout).map((d) => [d.severity, d.code, d.message, d.hook])).toEqual([
      [
        'warning',
        'claude_matcher_case',
        'tool names are case-sensitive; did you mean "Edit|Write"?',
        'project:PreToolUse:1.1',
      ],
    ]);
    expect((await s.cli(['hooks', 'validate', '--strict'])).code).toBe(1);

    const list = await s.cli(['hooks', 'list', '--all', '--dialect', 'claude', '-o', 'json']);
    const [entry] = JSON.parse(list.stdout) as { status: string; why: string; diagnostics: Diag[] }[];
    expect([entry!.status, entry!.why]).toEqual([
      'active',
      'tool names are case-sensitive; did you mean "Edit|Write"?',
    ]);
    expect(entry!.diagnostics.map((d) => d.code)).toEqual(['claude_matcher_case']);
    expect((await s.cli(['hooks', 'list', '--all'])).stdout).toContain('did you mean "Edit|Write"?');

    const info = await s.cli(['hooks', 'info', 'project:PreToolUse:1.1']);
    expect(info.stdout).toMatch(/status +active: tool names are case-sensitive; did you mean "Edit\|Write"\?/);
    expect(info.stdout).toMatch(/warning .*claude_matcher_case/);

    const plan = await s.cli(
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '--dry-run', '-o', 'json'],
      JSON.stringify({ tool_name: 'Edit' }),
    );
    const p = (JSON.parse(plan.stdout) as { plan: { matched: boolean; why: string }[] }).plan[0]!;
    expect([p.matched, p.why]).toEqual([false, 'tool names are case-sensitive; did you mean "Edit|Write"?']);
    const human = await s.cli(
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '--dry-run'],
      JSON.stringify({ tool_name: 'Edit' }),
    );
    expect(human.stdout).toContain('did you mean "Edit|Write"?');
  });
});

describe('never silent: a command whose script cannot run', { timeout: 120_000 }, () => {
  it('claude: missing and not-executable scripts warn with the resolved path; list --all, info and fire --dry-run say so', async () => {
    const s = sandbox();
    const ok = s.script('ok.sh', 'exit 0');
    const noExec = join(s.root, 'bin', 'noexec.sh');
    writeFileSync(noExec, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    s.settings({
      PreToolUse: [
        {
          hooks: [
            { type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/missing.sh' },
            { type: 'command', command: './gone.sh --x' },
            { type: 'command', command: '~/nope.sh' },
            { type: 'command', command: noExec },
            { type: 'command', command: ok },
            { type: 'command', command: 'some-tool-on-path --flag' },
            { type: 'command', command: '$UNKNOWN/x.sh' },
          ],
        },
      ],
    });
    const v = await s.cli(['hooks', 'validate', '-o', 'json']);
    expect(v.code, v.stdout).toBe(0);
    const found = diagnosticsOf(v.stdout).map((d) => [d.severity, d.code, d.hook, d.message]);
    const ws = s.workspace;
    const home = join(s.root, 'home');
    expect(found).toEqual([
      [
        'warning',
        'claude_command_not_found',
        'project:PreToolUse:1.1',
        `command "${ws}/.claude/hooks/missing.sh" does not exist: the hook fails each time it runs (exit 127)`,
      ],
      [
        'warning',
        'claude_command_not_found',
        'project:PreToolUse:1.2',
        `command "${ws}/gone.sh" does not exist: the hook fails each time it runs (exit 127)`,
      ],
      [
        'warning',
        'claude_command_not_found',
        'project:PreToolUse:1.3',
        `command "${home}/nope.sh" does not exist: the hook fails each time it runs (exit 127)`,
      ],
      [
        'warning',
        'claude_command_not_found',
        'project:PreToolUse:1.4',
        `command "${noExec}" is not executable (chmod +x): the hook fails each time it runs (exit 126)`,
      ],
    ]);
    // `validate FILE` says the same of the file on its own.
    const one = await s.cli(['hooks', 'validate', join(ws, '.claude', 'settings.json'), '-o', 'json']);
    expect(diagnosticsOf(one.stdout).map((d) => d.hook)).toEqual([
      'project:PreToolUse:1.1',
      'project:PreToolUse:1.2',
      'project:PreToolUse:1.3',
      'project:PreToolUse:1.4',
    ]);

    const list = await s.cli(['hooks', 'list', '--all', '--dialect', 'claude', '-o', 'json']);
    const entries = JSON.parse(list.stdout) as { name: string; status: string; why: string | null }[];
    expect(entries.map((e) => [e.name, e.status, e.why !== null])).toEqual([
      ['project:PreToolUse:1.1', 'active', true],
      ['project:PreToolUse:1.2', 'active', true],
      ['project:PreToolUse:1.3', 'active', true],
      ['project:PreToolUse:1.4', 'active', true],
      ['project:PreToolUse:1.5', 'active', false],
      ['project:PreToolUse:1.6', 'active', false],
      ['project:PreToolUse:1.7', 'active', false],
    ]);
    const info = await s.cli(['hooks', 'info', 'project:PreToolUse:1.2']);
    expect(info.stdout).toContain(`active: command "${ws}/gone.sh" does not exist`);
    const plan = await s.cli(
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '--dry-run', '-o', 'json'],
      JSON.stringify({ tool_name: 'Bash' }),
    );
    const p = (JSON.parse(plan.stdout) as { plan: { name: string; matched: boolean; why: string | null }[] }).plan;
    expect(p[0]).toMatchObject({ matched: true, why: expect.stringContaining('missing.sh" does not exist') });
    expect(p[4]!.why).toBeNull();
  });
});

describe('never silent: a missing command in compozy and cosh', { timeout: 120_000 }, () => {
  it('compozy config and cosh config hooks with a missing or non-executable script warn; list --all, info and fire --dry-run say why', async () => {
    const ws = tempDir('hookctl-e2e-script-');
    const env = isolatedEnv();
    mkdirSync(join(ws, '.compozy'), { recursive: true });
    mkdirSync(join(ws, '.copilot-shell'), { recursive: true });
    mkdirSync(join(ws, 'hooks'), { recursive: true });
    writeFileSync(join(ws, 'hooks', 'plain.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    writeFileSync(
      join(ws, '.compozy', 'config.toml'),
      '[[hooks.declarations]]\nname = "gone"\nevent = "tool.pre_call"\ncommand = "./hooks/gone.sh"\n\n' +
        '[[hooks.declarations]]\nname = "on-path"\nevent = "tool.pre_call"\ncommand = "true"\n',
    );
    writeFileSync(
      join(ws, '.copilot-shell', 'config.toml'),
      '[[hooks.PreToolUse]]\nname = "plain"\ncommand = "./hooks/plain.sh --check"\n\n' +
        '[[hooks.PreToolUse]]\nname = "logger"\ncommand = "logger -t x"\n',
    );
    const cli = (args: string[], input?: string) =>
      runCli([...args, '--workspace', ws], { env, cwd: ws, ...(input !== undefined ? { input } : {}) });
    const v = await cli(['hooks', 'validate', '-o', 'json']);
    expect(v.code, v.stdout).toBe(0);
    expect(diagnosticsOf(v.stdout).map((d) => [d.severity, d.code, d.hook, d.message])).toEqual([
      [
        'warning',
        'command_not_found',
        'gone',
        `hooks: hook "gone" command "${join(ws, 'hooks', 'gone.sh')}" does not exist; firing it will fail`,
      ],
      [
        'warning',
        'command_not_found',
        'plain',
        `command "${join(ws, 'hooks', 'plain.sh')}" is not executable (chmod +x): the hook fails each time it runs (exit 126)`,
      ],
    ]);

    const list = JSON.parse((await cli(['hooks', 'list', '--all', '-o', 'json'])).stdout) as {
      name: string;
      status: string;
      why: string | null;
    }[];
    expect(list.map((e) => [e.name, e.status, e.why !== null])).toEqual([
      ['gone', 'active', true],
      ['on-path', 'active', false],
      ['plain', 'active', true],
      ['logger', 'active', false],
    ]);
    const info = await cli(['hooks', 'info', 'gone']);
    expect(info.stdout).toMatch(/status +active: hooks: hook "gone" command .* does not exist/);

    const compozyPlan = await cli(['hooks', 'fire', 'tool.pre_call', '--dry-run', '-o', 'json'], '{}');
    const gone = (JSON.parse(compozyPlan.stdout) as { plan: { name: string; why?: string | null }[] }).plan[0]!;
    expect(gone.why).toContain('gone.sh" does not exist');
    const human = await cli(['hooks', 'fire', 'PreToolUse', '--dialect', 'cosh', '--dry-run'], '{}');
    expect(human.stdout).toContain('is not executable (chmod +x)');
  });
});

describe('never silent: validate FILE tells a claude settings file by content', { timeout: 120_000 }, () => {
  const settings = {
    $schema: 'https://json.schemastore.org/claude-code-settings.json',
    permissions: { allow: ['Bash(git *)'] },
    model: 'opus',
    env: { A: '1' },
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', timeout: 0 }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'true' }] }],
    },
  };

  it('a settings file under another name is read as claude settings, not as a cosh extension', async () => {
    const dir = tempDir('hookctl-e2e-kind-');
    const file = join(dir, 'ci-settings.json');
    writeFileSync(file, JSON.stringify(settings, null, 2));
    const r = await runCli(['hooks', 'validate', file, '-o', 'json'], { env: isolatedEnv(), cwd: dir });
    expect(r.code, r.stdout).toBe(1);
    expect(diagnosticsOf(r.stdout).map((d) => [d.code, d.hook])).toEqual([
      ['claude_invalid_timeout', 'project:PreToolUse:1.1'],
    ]);
    // Only a hooks object keyed by Claude event names, no other setting: still claude's.
    const bare = join(dir, 'hooks-only.json');
    writeFileSync(bare, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } }));
    const b = await runCli(['hooks', 'validate', bare, '-o', 'json'], { env: isolatedEnv(), cwd: dir });
    expect([b.code, diagnosticsOf(b.stdout)]).toEqual([0, []]);
  });

  it('a cosh extension under another name stays cosh; --dialect claude forces claude', async () => {
    const dir = tempDir('hookctl-e2e-kind-');
    const ext = join(dir, 'ext.json');
    writeFileSync(
      ext,
      JSON.stringify({
        name: 'x',
        version: '1.0.0',
        hooks: { Stop: [{ hooks: [{ type: 'command', name: 'n', command: 'true' }] }] },
      }),
    );
    const cosh = await runCli(['hooks', 'validate', ext, '-o', 'json'], { env: isolatedEnv(), cwd: dir });
    expect([cosh.code, diagnosticsOf(cosh.stdout)]).toEqual([0, []]);

    const odd = join(dir, 'odd.json');
    writeFileSync(odd, JSON.stringify({ hooks: { Stopp: [] } }));
    const forced = await runCli(['hooks', 'validate', odd, '--dialect', 'claude', '-o', 'json'], {
      env: isolatedEnv(),
      cwd: dir,
    });
    expect(diagnosticsOf(forced.stdout).map((d) => d.code)).toEqual(['claude_unknown_event']);
    expect(diagnosticsOf(forced.stdout)[0]!.message).toContain('did you mean "Stop"?');
  });
});
