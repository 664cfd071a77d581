// SPEC §7 for the claude dialect, on the built CLI: handlers with errors stay visible (list --all,
// info, fire --dry-run, --skip-invalid; a plugin with a hook-file error has all its hooks invalid),
// --help names claude's variables, fire --verbose / --hook / --no-record / --session, did-you-mean
// for claude event names, list --agent. Plus cosh: hooks under an unknown event group are invalid.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cmd, group, sandbox, type Sandbox } from './claude-support.js';

interface Entry {
  name: string;
  source: string;
  status: string;
  why: string | null;
  diagnostics?: { code: string; message: string }[];
}

const listAll = async (box: Sandbox, ...flags: string[]): Promise<Entry[]> => {
  const r = await box.cli(['hooks', 'list', '--all', '-o', 'json', ...flags]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Entry[];
};

/** A workspace with one good PreToolUse hook, one without its command, one under a misspelt event. */
function brokenBox(): Sandbox {
  const box = sandbox();
  const good = box.script('good.sh', `touch ${join(box.out, 'good')}`);
  box.settings({
    PreToolUse: [group([cmd(good), { type: 'command' }], 'Bash')],
    PreToolUs: [group([cmd(good)])],
  });
  return box;
}

/** A --plugin-dir whose hooks.json has one good handler and one with a bad timeout. */
function brokenPlugin(box: Sandbox): string {
  const root = join(box.root, 'dev');
  mkdirSync(join(root, '.claude-plugin'), { recursive: true });
  mkdirSync(join(root, 'hooks'), { recursive: true });
  writeFileSync(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'dev' }));
  writeFileSync(
    join(root, 'hooks', 'hooks.json'),
    JSON.stringify({ hooks: { PreToolUse: [group([cmd('true'), cmd('true', { timeout: -1 })])] } }),
  );
  return root;
}

describe('claude: handlers with errors stay visible (SPEC §7.2)', { timeout: 120_000 }, () => {
  it('list --all: invalid with the first diagnostic as why; a broken plugin has every hook invalid', async () => {
    const box = brokenBox();
    const entries = await listAll(box, '--dialect', 'claude', '--plugin-dir', brokenPlugin(box));
    const by = (name: string) => entries.find((e) => e.name === name);
    expect(by('project:PreToolUse:1.1')).toMatchObject({ status: 'active' });
    const missing = by('project:PreToolUse:1.2')!;
    expect(missing).toMatchObject({ status: 'invalid', why: 'command hook requires "command"' });
    expect(missing.diagnostics!.map((d) => d.code)).toEqual(['claude_field_required']);
    const misspelt = by('project:PreToolUs:1.1')!;
    expect(misspelt).toMatchObject({ status: 'invalid' });
    expect(misspelt.why).toBe('unknown hook event "PreToolUs"; did you mean "PreToolUse"?');
    const plugin = entries.filter((e) => e.source === 'claude_plugin');
    expect(plugin).toHaveLength(2);
    for (const p of plugin) {
      expect(p.status).toBe('invalid');
      expect(p.diagnostics!.map((d) => d.code)).toContain('claude_invalid_timeout');
    }
    // without --all, none of them is listed
    const active = await box.cli(['hooks', 'list', '-o', 'json', '--dialect', 'claude']);
    expect((JSON.parse(active.stdout) as Entry[]).map((e) => e.name)).toEqual(['project:PreToolUse:1.1']);
  });

  it('info NAME finds a broken handler and prints its diagnostics, exit 0', async () => {
    const box = brokenBox();
    const r = await box.cli(['hooks', 'info', 'project:PreToolUse:1.2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/status\s+invalid: command hook requires "command"/);
    expect(r.stdout).toMatch(/error\s+\S*settings\.json:\d+:\d+\s+claude_field_required/);
  });

  it('fire --dry-run lists it as invalid; fire refuses; --skip-invalid runs the valid ones and names the skipped', async () => {
    const box = brokenBox();
    const payload = { session_id: 's1', tool_name: 'Bash', tool_input: { command: 'ls' } };
    const plan = await box.cli(
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '--dry-run', '-o', 'json'],
      JSON.stringify(payload),
    );
    expect(plan.code, plan.stderr).toBe(0);
    const entries = (JSON.parse(plan.stdout) as { plan: Entry[] }).plan;
    expect(entries.map((e) => [e.name, e.status])).toEqual([
      ['project:PreToolUse:1.1', 'active'],
      ['project:PreToolUse:1.2', 'invalid'],
    ]);
    const refused = await box.cli(['hooks', 'fire', 'PreToolUse', '--dialect', 'claude'], JSON.stringify(payload));
    expect(refused.code).toBe(2);
    expect(existsSync(join(box.out, 'good'))).toBe(false);
    const r = await box.fire('PreToolUse', payload, '--skip-invalid');
    expect(r.code, r.stderr).toBe(0);
    // each skipped declaration by its NAME (issue 28), also when its diagnostic names no hook
    expect(r.stderr).toMatch(
      /^hookctl: warning: skipped \(invalid\): "project:PreToolUse:1\.2" at .*settings\.json:\d+: command hook requires/m,
    );
    expect(r.stderr).toMatch(
      /^hookctl: warning: skipped \(invalid\): "project:PreToolUs:1\.1" at .*settings\.json:\d+: unknown hook event "PreToolUs"/m,
    );
    expect(existsSync(join(box.out, 'good'))).toBe(true);
    expect(box.records('s1').map((x) => x.hook_name)).toEqual(['project:PreToolUse:1.1']);
  });
});

describe('claude: help, fire debugging, names (SPEC §7.1, §7.3)', { timeout: 120_000 }, () => {
  it('--help lists CLAUDE_CONFIG_DIR, HOOKCTL_CLAUDE_MANAGED_DIR and HOOKCTL_STATE_DIR', async () => {
    const box = sandbox();
    for (const args of [['--help'], ['hooks', 'fire', '--help']]) {
      const r = await box.cli(args);
      for (const v of ['CLAUDE_CONFIG_DIR', 'HOOKCTL_CLAUDE_MANAGED_DIR', 'HOOKCTL_STATE_DIR'])
        expect(r.stdout).toMatch(new RegExp(`^\\s+${v}\\s+\\S`, 'm'));
    }
  });

  it('--verbose shows what each hook printed, by its name; --hook NAME; --no-record; --session', async () => {
    const box = sandbox();
    const talker = box.script('talker.sh', `cat > ${join(box.out, 'stdin.json')}; echo said-out; echo said-err >&2`);
    const other = box.script('other.sh', `touch ${join(box.out, 'other')}`);
    box.settings({ Stop: [group([cmd(talker), cmd(other)])] });
    const v = await box.fire('Stop', { session_id: 'from-payload' }, '--verbose', '--session', 'chosen');
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr).toMatch(
      /^hookctl: hook "project:Stop:1\.1" \(exit 0, \d+ ms\)\n\[stdout\] said-out\n\[stderr\] said-err$/m,
    );
    expect(v.stderr).toMatch(/^hookctl: hook "project:Stop:1\.2" \(exit 0, \d+ ms\)$/m);
    // --session replaces the payload's session_id, and the transcript_path hookctl fills is the session's
    const got = JSON.parse(readFileSync(join(box.out, 'stdin.json'), 'utf8')) as Record<string, string>;
    expect(got.session_id).toBe('chosen');
    expect(got.transcript_path).toContain(join('chosen', 'transcript.jsonl'));
    expect(box.records('chosen')).toHaveLength(2);
    expect(
      readFileSync(join(box.root, 'state', 'claude', 'sessions', 'chosen', 'hook-runs.jsonl'), 'utf8'),
    ).not.toContain('said-');
    expect(existsSync(join(box.root, 'state', 'claude', 'sessions', 'from-payload'))).toBe(false);

    // --hook with claude's positional name runs only that one; --no-record writes nothing
    const one = await box.fire('Stop', { session_id: 'one' }, '--hook', 'project:Stop:1.2', '--no-record');
    expect(one.code, one.stderr).toBe(0);
    expect(one.json.runs.map((x) => x.hook_name)).toEqual(['project:Stop:1.2']);
    expect(existsSync(join(box.root, 'state', 'claude', 'sessions', 'one'))).toBe(false);
    const plan = await box.cli(
      ['hooks', 'fire', 'Stop', '--dialect', 'claude', '--hook', 'project:Stop:1.2', '--dry-run', '-o', 'json'],
      '{}',
    );
    expect((JSON.parse(plan.stdout) as { plan: Entry[] }).plan.map((e) => e.status)).toEqual([
      'not_selected',
      'active',
    ]);
  });

  it('did-you-mean for claude events in fire and validate; the case-only hint stays as claude.md words it', async () => {
    const box = sandbox();
    box.settings({ pretooluse: [group([cmd('true')])], PreToolUs: [group([cmd('true')])] });
    const [withDialect, without, validate] = await Promise.all([
      box.cli(['hooks', 'fire', 'PreToolUs', '--dialect', 'claude'], '{}'),
      box.cli(['hooks', 'fire', 'PostToolUs'], '{}'),
      box.cli(['hooks', 'validate', '-o', 'json']),
    ]);
    expect(withDialect.code).toBe(2);
    expect(withDialect.stderr).toContain('unknown event "PreToolUs" for dialect "claude"; did you mean "PreToolUse"?');
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('"PostToolUse"');
    const messages = (JSON.parse(validate.stdout) as { diagnostics: { code: string; message: string }[] }).diagnostics
      .filter((d) => d.code === 'claude_unknown_event')
      .map((d) => d.message)
      .sort();
    expect(messages).toEqual([
      'unknown hook event "PreToolUs"; did you mean "PreToolUse"?',
      'unknown hook event "pretooluse"; did you mean "PreToolUse"?',
    ]);
  });

  it('list --agent NAME: the hooks that would run for that agent', async () => {
    const box = sandbox();
    box.settings({
      PreToolUse: [group([cmd('true')])],
      SubagentStart: [group([cmd('true')], 'reviewer'), group([cmd('true')], 'writer')],
    });
    const agents = join(box.workspace, '.claude', 'agents');
    mkdirSync(agents, { recursive: true });
    for (const name of ['reviewer', 'writer'])
      writeFileSync(
        join(agents, `${name}.md`),
        `---\nname: ${name}\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: "true"\n---\n`,
      );
    const r = await box.cli(['hooks', 'list', '--agent', 'reviewer', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Entry[]).map((e) => e.name)).toEqual([
      'project:PreToolUse:1.1',
      'project:SubagentStart:1.1',
      'agent/project/reviewer:Stop:1.1',
    ]);
  });
});

describe('cosh: hooks under an unknown event group are invalid (SPEC §7.2)', { timeout: 60_000 }, () => {
  it('[[hooks.PreToolUs]] shows its hook as invalid with the event diagnostic', async () => {
    const box = sandbox();
    mkdirSync(box.env.COSH_HOME!, { recursive: true });
    writeFileSync(
      join(box.env.COSH_HOME!, 'config.toml'),
      '[[hooks.PreToolUs]]\nname = "typo-guard"\ncommand = "true"\n\n[[hooks.PreToolUse]]\nname = "fine"\ncommand = "true"\n',
    );
    const entries = await listAll(box, '--dialect', 'cosh');
    expect(entries.find((e) => e.name === 'fine')).toMatchObject({ status: 'active' });
    const typo = entries.find((e) => e.name === 'typo-guard')!;
    expect(typo).toMatchObject({ status: 'invalid' });
    expect(typo.why).toMatch(/^unknown cosh event "PreToolUs"/);
    expect(typo.diagnostics!.map((d) => d.code)).toEqual(['invalid_event']);
    const v = await box.cli(['hooks', 'validate', '-o', 'json']);
    // validate still reports the event once
    const codes = (JSON.parse(v.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code);
    expect(codes.filter((c) => c === 'invalid_event')).toHaveLength(1);
  });
});
