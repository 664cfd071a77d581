// The rest of claude.md §4–§6 end to end, one rule per test, on the built CLI: matchers, the
// hook's environment and payload, skill/agent/plugin hooks, async and once, SessionEnd's
// deadline, the per-event outputs, depth, capture limits and warnings.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bash, cmd, group, sandbox } from './claude-support.js';

const specific = (event: string, fields: Record<string, unknown>) =>
  `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: event, ...fields } })}'`;

describe('matchers (§4.1)', () => {
  it('reads exact lists, unanchored regexes, MCP names and the narrow FileChanged form', async () => {
    const sb = sandbox();
    sb.settings({
      PreToolUse: [
        group([cmd('exit 0')], 'Edit, Write'),
        group([cmd('exit 0')], 'Edit.*'),
        group([cmd('exit 0')], 'mcp__memory__.*'),
        group([cmd('exit 0')], 'mcp__memory'),
      ],
      FileChanged: [group([cmd('exit 0')], '.envrc|package.json'), group([cmd('exit 0')], 'envrc')],
    });
    const names = async (event: string, payload: Record<string, unknown>) =>
      (await sb.fire(event, { session_id: 's', ...payload })).json.runs.map((r) => r.hook_name);
    expect(await names('PreToolUse', { tool_name: 'NotebookEdit' })).toEqual(['project:PreToolUse:2.1']);
    expect(await names('PreToolUse', { tool_name: 'Write' })).toEqual(['project:PreToolUse:1.1']);
    expect(await names('PreToolUse', { tool_name: 'mcp__memory__create' })).toEqual(['project:PreToolUse:3.1']);
    expect(await names('FileChanged', { file_path: '/p/.envrc', event: 'change' })).toEqual([
      'project:FileChanged:1.1',
    ]);
  });

  it('runs a match-all group without the field, and ignores the matcher of an event without one', async () => {
    const sb = sandbox();
    sb.settings({
      PreToolUse: [group([cmd('exit 0')], '*'), group([cmd('exit 0')], 'Bash')],
      Stop: [group([cmd('exit 0')], 'Bash')],
    });
    expect((await sb.fire('PreToolUse', { session_id: 's' })).json.runs.map((r) => r.hook_name)).toEqual([
      'project:PreToolUse:1.1',
    ]);
    expect((await sb.fire('Stop', { session_id: 's' })).json.runs).toHaveLength(1);
  });
});

describe('if rules (§4.2)', () => {
  it('fails open on $VAR when the pattern names more than the command word, and globs file paths relative to cwd', async () => {
    const sb = sandbox();
    sb.settings({
      PreToolUse: [
        group([cmd('exit 0', { if: 'Bash(git push *)' })], 'Bash'),
        group([cmd('exit 0', { if: 'Edit(src/**)' })], 'Edit'),
      ],
    });
    const bashRun = await sb.fire('PreToolUse', bash('git $SUB origin'));
    expect(bashRun.json.runs).toHaveLength(1);
    const inside = await sb.fire('PreToolUse', {
      session_id: 's',
      tool_name: 'Edit',
      cwd: sb.workspace,
      tool_input: { file_path: join(sb.workspace, 'src/a/b.ts') },
    });
    expect(inside.json.runs).toHaveLength(1);
    const other = await sb.fire('PreToolUse', {
      session_id: 's',
      tool_name: 'Edit',
      cwd: sb.workspace,
      tool_input: { file_path: join(sb.workspace, 'lib/src/b.ts') },
    });
    expect(other.json.runs).toHaveLength(0);
  });
});

describe("if rules as Anthropic's plugins write them (§4.2, issue 27)", () => {
  it('runs a "Bash(git commit:*)" guard on git commit, also with runs of blanks, and not on git commitx', async () => {
    const sb = sandbox();
    sb.settings({ PreToolUse: [group([cmd('exit 0', { if: 'Bash(git commit:*)' })], 'Bash')] });
    const runs = async (command: string) => (await sb.fire('PreToolUse', bash(command))).json.runs.length;
    expect(await runs('git commit -m x')).toBe(1);
    expect(await runs('git   commit\t-m x')).toBe(1);
    expect(await runs('git commitx')).toBe(0);
    expect(await runs('git push')).toBe(0);
  });
});

describe('if rules that used to crash or stall the dispatch (issue 24)', () => {
  it('a file pattern that cannot compile is a validate error, shown by list --all, info and --dry-run; fire --skip-invalid runs the siblings', async () => {
    const sb = sandbox();
    sb.settings({
      PreToolUse: [group([cmd('exit 0', { if: 'Edit(*.[z-a])' }), cmd(`touch ${join(sb.out, 'sibling')}`)], 'Edit')],
    });
    const why = '"if" pattern "*.[z-a]" cannot be matched: range z-a is out of order';
    const validate = await sb.cli(['hooks', 'validate', '--dialect', 'claude', '-o', 'json']);
    expect(validate.code, validate.stderr).toBe(1);
    expect(validate.stdout).toContain('claude_invalid_if_pattern');
    const list = await sb.cli(['hooks', 'list', '--all', '--dialect', 'claude', '-o', 'json']);
    expect(
      (JSON.parse(list.stdout) as { name: string; status: string; why: string | null }[]).map((e) => [
        e.name,
        e.status,
        e.why,
      ]),
    ).toEqual([
      ['project:PreToolUse:1.1', 'invalid', why],
      ['project:PreToolUse:1.2', 'active', null],
    ]);
    const info = await sb.cli(['hooks', 'info', 'project:PreToolUse:1.1']);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toContain('claude_invalid_if_pattern');
    const payload = { session_id: 's1', tool_name: 'Edit', cwd: sb.workspace, tool_input: { file_path: 'a.ts' } };
    const plan = await sb.cli(
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '--dry-run', '-o', 'json'],
      JSON.stringify(payload),
    );
    expect(plan.code, plan.stderr).toBe(0);
    expect((JSON.parse(plan.stdout) as { plan: { status: string }[] }).plan.map((e) => e.status)).toEqual([
      'invalid',
      'active',
    ]);
    const refused = await sb.cli(['hooks', 'fire', 'PreToolUse', '--dialect', 'claude'], JSON.stringify(payload));
    expect(refused.code).toBe(2); // declarations_invalid, as for any invalid hook: not an internal error (1)
    expect(refused.stderr).not.toMatch(/internal/);
    const r = await sb.fire('PreToolUse', payload, '--skip-invalid');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.runs.map((x) => x.hook_name)).toEqual(['project:PreToolUse:1.2']);
    expect(existsSync(join(sb.out, 'sibling'))).toBe(true);
  });

  it('a 40 KB && chain, 3,000 nested $() and a backtracking-shaped glob: the rules answer, the siblings run', async () => {
    const sb = sandbox();
    sb.settings({
      PreToolUse: [
        group(
          [
            cmd('exit 0', { if: 'Bash(rm *)' }),
            cmd('exit 0', { if: 'Bash(git *-*-*-*-*-*-X)' }),
            cmd(`echo x >> ${join(sb.out, 'sibling')}`),
          ],
          'Bash',
        ),
      ],
    });
    const names = async (command: string) => {
      const r = await sb.fire('PreToolUse', bash(command));
      expect(r.code, r.stderr).toBe(0);
      return r.json.runs.map((x) => x.hook_name);
    };
    const chain = Array.from({ length: 8000 }, (_, i) => `c${i}`).join(' && ') + ' && rm -rf x';
    expect(await names(chain)).toEqual(['project:PreToolUse:1.1', 'project:PreToolUse:1.3']); // parsed: rm matches
    const deep = 'echo ' + '$(echo '.repeat(3000) + 'x' + ')'.repeat(3000);
    expect(await names(deep)).toEqual(['project:PreToolUse:1.1', 'project:PreToolUse:1.2', 'project:PreToolUse:1.3']); // past a bound: both fail open
    expect(await names('git ' + '-'.repeat(50_000))).toEqual(['project:PreToolUse:1.3']); // no match, at once
    expect(readFileSync(join(sb.out, 'sibling'), 'utf8')).toBe('x\nx\nx\n');
  });
});

describe('payload and environment (§5.1–§5.3)', () => {
  it('fills the common fields, replaces a wrong hook_event_name with a warning, and lets --session win', async () => {
    const sb = sandbox();
    const out = join(sb.out, 'stdin.json');
    sb.settings({ PreToolUse: [group([cmd(`cat > ${out}`)])] });
    const r = await sb.fire(
      'PreToolUse',
      { session_id: 'from-payload', hook_event_name: 'Stop', tool_name: 'Bash' },
      '--session',
      'flag',
    );
    expect(r.stderr).toContain('payload hook_event_name "Stop" replaced with "PreToolUse"');
    const sent = JSON.parse(readFileSync(out, 'utf8'));
    expect(sent).toMatchObject({
      session_id: 'flag',
      transcript_path: join(sb.root, 'state', 'claude', 'sessions', 'flag', 'transcript.jsonl'),
      cwd: sb.workspace,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
    });
    expect(sb.records('flag')).toHaveLength(1);
    const fresh = await sb.fire('PreToolUse', { tool_name: 'Bash' });
    expect(fresh.json.session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('gives hooks the invoking environment without OTEL_*, the settings env and the claude variables', async () => {
    const sb = sandbox();
    const out = join(sb.out, 'env');
    sb.env.OTEL_SERVICE_NAME = 'x';
    sb.env.MINE = 'kept';
    sb.settings(
      {
        PreToolUse: [
          group([
            cmd(
              `echo "$MINE|\${OTEL_SERVICE_NAME-unset}|$FROM_SETTINGS|$CLAUDE_PROJECT_DIR|$CLAUDE_CODE_SESSION_ID|$HOOKCTL_DISPATCH_DEPTH|$(pwd)" > ${out}`,
            ),
          ]),
        ],
      },
      { env: { FROM_SETTINGS: 'yes' } },
    );
    await sb.fire('PreToolUse', { session_id: 'e1', tool_name: 'Bash', cwd: '/nonexistent' });
    expect(readFileSync(out, 'utf8').trim()).toBe(`kept|unset|yes|${sb.workspace}|e1|1|${sb.workspace}`);
  });

  it('resolves exec form on PATH, and fails a dispatch past depth 3 before any hook runs (exit 3)', async () => {
    const sb = sandbox();
    const tool = sb.script('my-tool', 'echo ran');
    sb.env.PATH = `${join(tool, '..')}:${sb.env.PATH}`;
    sb.settings({ UserPromptSubmit: [group([{ type: 'command', command: 'my-tool', args: [] }])] });
    expect((await sb.fire('UserPromptSubmit', { session_id: 's', prompt: 'p' })).json.additional_context).toBe('ran');
    sb.env.HOOKCTL_DISPATCH_DEPTH = '3';
    const deep = await sb.cli(['hooks', 'fire', 'UserPromptSubmit', '--dialect', 'claude'], '{"prompt":"p"}');
    expect(deep.code).toBe(3);
    expect(deep.stderr).toContain('dispatch depth exceeded');
  });

  it('keeps 1 MiB of stdout and marks the run truncated past it', async () => {
    const sb = sandbox();
    sb.settings({
      UserPromptSubmit: [
        group([cmd('head -c 600000 /dev/zero | tr "\\0" a'), cmd('head -c 2000000 /dev/zero | tr "\\0" b')]),
      ],
    });
    const r = await sb.fire('UserPromptSubmit', { session_id: 's', prompt: 'p' });
    expect(r.json.runs.map((x) => [x.truncated, x.stdout_bytes])).toEqual([
      [false, 600000],
      [true, 2000000],
    ]);
    expect(r.stderr).toContain('Claude Code replaces strings over 10000 characters with a preview and a file path');
  });
});

describe('plugins, skills and agents (§5.1, §5.3, §5.9)', () => {
  it('runs a --plugin-dir hook with its placeholders and variables', async () => {
    const sb = sandbox();
    const plugin = join(sb.root, 'my-plugin');
    mkdirSync(join(plugin, 'hooks'), { recursive: true });
    mkdirSync(join(plugin, '.claude-plugin'), { recursive: true });
    writeFileSync(join(plugin, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'my-plugin' }));
    writeFileSync(
      join(plugin, 'hooks', 'hooks.json'),
      JSON.stringify({
        hooks: { UserPromptSubmit: [group([cmd('echo "${CLAUDE_PLUGIN_ROOT}|$CLAUDE_PLUGIN_DATA"')])] },
      }),
    );
    const r = await sb.fire('UserPromptSubmit', { session_id: 's', prompt: 'p' }, '--plugin-dir', plugin);
    expect(r.json.additional_context).toBe(
      `${plugin}|${join(sb.env.CLAUDE_CONFIG_DIR!, 'plugins', 'data', 'my-plugin')}`,
    );
    expect(r.json.runs[0]).toMatchObject({
      source: 'claude_plugin',
      hook_name: 'plugin/my-plugin:UserPromptSubmit:1.1',
    });
  });

  it('runs skill hooks only with --skill, a once hook once per session, and agent hooks for their agent', async () => {
    const sb = sandbox();
    const skill = join(sb.workspace, '.claude', 'skills', 'deploy');
    mkdirSync(skill, { recursive: true });
    writeFileSync(
      join(skill, 'SKILL.md'),
      [
        '---',
        'name: deploy',
        'description: d',
        'hooks:',
        '  UserPromptSubmit:',
        '    - hooks:',
        '        - type: command',
        '          command: echo skill',
        '          once: true',
        '---',
        'body',
        '',
      ].join('\n'),
    );
    const agents = join(sb.workspace, '.claude', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(
      join(agents, 'reviewer.md'),
      [
        '---',
        'name: reviewer',
        'description: r',
        'hooks:',
        '  Stop:',
        '    - hooks:',
        '        - type: command',
        '          command: echo agent',
        '---',
        'body',
        '',
      ].join('\n'),
    );
    const prompt = { session_id: 'k1', prompt: 'p' };
    expect((await sb.fire('UserPromptSubmit', prompt)).json.runs).toHaveLength(0);
    const first = await sb.fire('UserPromptSubmit', prompt, '--skill', 'deploy');
    expect(first.json.runs[0]).toMatchObject({ outcome: 'applied', skill_source: 'project' });
    const again = await sb.fire('UserPromptSubmit', prompt, '--skill', '*');
    expect(again.json.runs[0]).toMatchObject({ outcome: 'skipped', why: 'once: already ran in this session' });
    expect((await sb.fire('SubagentStop', { session_id: 'k1' })).json.runs).toHaveLength(0);
    expect((await sb.fire('SubagentStop', { session_id: 'k1', agent_type: 'reviewer' })).json.runs).toHaveLength(1);
    expect((await sb.fire('SubagentStop', { session_id: 'k1' }, '--agent', 'reviewer')).json.runs).toHaveLength(1);
  });

  it('waits for async hooks, records them async, and sends asyncRewake stderr to the next turn', async () => {
    const sb = sandbox();
    sb.settings({
      PostToolUse: [
        group([
          cmd('sleep 0.3; echo "lint failed" >&2; exit 2', { asyncRewake: true }),
          cmd(`echo '{"decision":"block","reason":"ignored"}'`, { async: true }),
        ]),
      ],
    });
    const r = await sb.fire('PostToolUse', { ...bash('ls'), tool_response: {} });
    expect([r.json.verdict, r.json.next_turn_context]).toEqual(['pass', 'lint failed']);
    expect(r.json.runs.map((x) => [x.mode, x.decision])).toEqual([
      ['async', 'rewake'],
      ['async', null],
    ]);
  });
});

describe('timeouts (§5.7)', () => {
  it('stops SessionEnd hooks at the shared deadline', async () => {
    const sb = sandbox();
    sb.env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS = '400';
    sb.settings({ SessionEnd: [group([cmd('sleep 5')])] });
    const r = await sb.fire('SessionEnd', { session_id: 's', reason: 'other' });
    expect(r.json.runs[0]).toMatchObject({ timed_out: true, error: 'hook timed out after 0.4s' });
  });
});

describe('per-event answers (§5.4–§5.6)', () => {
  it('takes the WorktreeCreate path from the last stdout line and blocks on a non-zero exit', async () => {
    const sb = sandbox();
    sb.settings({ WorktreeCreate: [group([cmd('echo creating; printf "\\033[1m/tmp/wt-1\\033[0m\\n"')])] });
    expect((await sb.fire('WorktreeCreate', { session_id: 's', name: 'w' })).json.outputs).toEqual({
      worktreePath: '/tmp/wt-1',
    });
    sb.settings({ WorktreeCreate: [group([cmd('exit 1')])] });
    const failed = await sb.fire('WorktreeCreate', { session_id: 's', name: 'w' });
    expect([failed.json.verdict, failed.code]).toEqual(['block', 1]);
  });

  it('puts PermissionRequest updatedInput into the payload only with allow, and deny beats allow', async () => {
    const sb = sandbox();
    const allow = specific('PermissionRequest', { decision: { behavior: 'allow', updatedInput: { command: 'safe' } } });
    const deny = specific('PermissionRequest', { decision: { behavior: 'deny', message: 'no' } });
    sb.settings({ PermissionRequest: [group([cmd(allow)])] });
    const ok = await sb.fire('PermissionRequest', bash('risky'));
    expect([ok.json.verdict, ok.json.payload.tool_input]).toEqual(['allow', { command: 'safe' }]);
    sb.settings({ PermissionRequest: [group([cmd(allow), cmd(deny)])] });
    const no = await sb.fire('PermissionRequest', bash('risky'));
    expect([no.json.verdict, no.json.reason, no.json.payload.tool_input]).toEqual(['deny', 'no', { command: 'risky' }]);
  });

  it('replaces PostToolUse tool_response with updatedToolOutput', async () => {
    const sb = sandbox();
    sb.settings({
      PostToolUse: [group([cmd(specific('PostToolUse', { updatedToolOutput: { stdout: 'redacted' } }))])],
    });
    const r = await sb.fire('PostToolUse', { ...bash('cat secrets'), tool_response: { stdout: 'hunter2' } });
    expect(r.json.payload.tool_response).toEqual({ stdout: 'redacted' });
  });

  it('orders Elicitation answers cancel > decline > accept', async () => {
    const sb = sandbox();
    const action = (a: string) => cmd(specific('Elicitation', { action: a }));
    sb.settings({ Elicitation: [group([action('accept'), action('decline')])] });
    expect((await sb.fire('Elicitation', { session_id: 's', mcp_server_name: 'm' })).json.verdict).toBe('decline');
    sb.settings({ Elicitation: [group([action('accept'), action('cancel'), action('decline')])] });
    expect((await sb.fire('Elicitation', { session_id: 's', mcp_server_name: 'm' })).json.verdict).toBe('cancel');
    sb.settings({ Elicitation: [group([action('accept')])] });
    const accepted = await sb.fire('Elicitation', { session_id: 's', mcp_server_name: 'm' });
    expect([accepted.json.verdict, accepted.code]).toEqual(['accept', 0]);
  });

  it('never blocks a policy_settings ConfigChange, and warns about fields without effect', async () => {
    const sb = sandbox();
    sb.settings({ ConfigChange: [group([cmd(`echo '{"decision":"block","reason":"r","systemMessage":"m"}'`)])] });
    const user = await sb.fire('ConfigChange', { session_id: 's', source: 'user_settings' });
    expect(user.json.verdict).toBe('block');
    expect(user.stderr).toContain('project:ConfigChange:1.1: systemMessage has no effect on ConfigChange');
    expect((await sb.fire('ConfigChange', { session_id: 's', source: 'policy_settings' })).json.verdict).toBe('pass');
  });
});
