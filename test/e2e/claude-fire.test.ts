// `hooks fire` on claude events end to end (claude.md §4–§6): the built CLI, real hook scripts
// in a sandbox's settings files, real http servers on 127.0.0.1. Checked: verdicts and exit
// codes, records in hookctl's state folder, notifications, dry-run plans and human output.
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bash, cmd, decision, group, sandbox } from './claude-support.js';

describe('claude fire: parallel runs', () => {
  it('starts every hook at once: two 300 ms hooks finish well under 600 ms', async () => {
    const sb = sandbox();
    const stamp = (n: string) =>
      cmd(
        `node -e "const s=Date.now();setTimeout(()=>require('fs').writeFileSync('${join(sb.out, n)}',s+' '+Date.now()),300)"`,
      );
    sb.settings({ UserPromptSubmit: [group([stamp('a'), stamp('b')])] });
    const r = await sb.fire('UserPromptSubmit', { session_id: 's1', prompt: 'hi' });
    expect(r.code).toBe(0);
    const [a, b] = ['a', 'b'].map((n) => readFileSync(join(sb.out, n), 'utf8').split(' ').map(Number));
    const span = Math.max(a![1]!, b![1]!) - Math.min(a![0]!, b![0]!);
    expect(span).toBeGreaterThanOrEqual(300);
    expect(span).toBeLessThan(550);
    expect(r.json.runs.map((x) => x.outcome)).toEqual(['applied', 'applied']);
  });
});

describe('claude fire: decisions', () => {
  it('combines deny > defer > ask > allow and maps the verdict to the exit code', async () => {
    const sb = sandbox();
    const run = async (...ds: string[]) => {
      sb.settings({
        PreToolUse: [
          group(
            ds.map((d) => cmd(decision('PreToolUse', d))),
            'Bash',
          ),
        ],
      });
      return sb.fire('PreToolUse', bash('ls'));
    };
    const all = await run('allow', 'ask', 'defer', 'deny');
    expect([all.json.verdict, all.code, all.json.reason]).toEqual(['deny', 1, 'deny reason']);
    const defer = await run('allow', 'ask', 'defer');
    expect([defer.json.verdict, defer.code]).toEqual(['defer', 4]);
    const ask = await run('allow', 'ask');
    expect([ask.json.verdict, ask.code]).toEqual(['ask', 4]);
    const allow = await run('allow');
    expect([allow.json.verdict, allow.code]).toEqual(['allow', 0]);
    const none = await run();
    expect([none.json.verdict, none.code]).toEqual(['pass', 0]);
  });

  it('lets continue:false stop everything, and puts the last updatedInput into the payload', async () => {
    const sb = sandbox();
    const upd = (c: string) =>
      cmd(
        `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: c } } })}'`,
      );
    sb.settings({ PreToolUse: [group([upd('one'), upd('two')])] });
    const r = await sb.fire('PreToolUse', bash('orig'));
    expect(r.json.verdict).toBe('allow');
    expect(r.json.outputs).toEqual({ updatedInput: { command: 'two' } });
    expect(r.json.payload.tool_input).toEqual({ command: 'two' });
    expect(r.stderr).toContain('updatedInput from 2 hooks');
    sb.settings({
      PreToolUse: [group([cmd(decision('PreToolUse', 'deny')), cmd(`echo '{"continue":false,"stopReason":"halt"}'`)])],
    });
    const stop = await sb.fire('PreToolUse', bash('x'));
    expect([stop.json.verdict, stop.json.stop_reason, stop.code]).toEqual(['stop', 'halt', 1]);
  });
});

describe('claude fire: exit 2 per event', () => {
  const cases: [string, Record<string, unknown>, string, string | null][] = [
    ['PreToolUse', bash('ls'), 'deny', 'deny'],
    ['UserPromptSubmit', { prompt: 'p' }, 'block', 'block'],
    ['PostToolUse', { ...bash('ls'), tool_response: {} }, 'block', 'block'],
    ['Stop', {}, 'block', 'block'],
    ['Elicitation', { mcp_server_name: 'm' }, 'decline', 'decline'],
    ['WorktreeCreate', { name: 'w' }, 'block', 'block'],
    ['SessionStart', { source: 'startup' }, 'pass', null],
    ['PermissionRequest', bash('ls'), 'pass', null],
  ];
  it.each(cases)('%s', async (event, payload, verdict, recorded) => {
    const sb = sandbox();
    sb.settings({ [event]: [group([cmd('echo "  refused by policy " >&2; exit 2')])] });
    const r = await sb.fire(event, { session_id: 's1', ...payload });
    expect(r.json.verdict).toBe(verdict);
    expect(r.code).toBe(verdict === 'pass' ? 0 : 1);
    const run = r.json.runs[0]!;
    expect(run.decision).toBe(recorded);
    if (recorded !== null) {
      expect(run).toMatchObject({ outcome: 'denied', blocking: true, reason: 'refused by policy' });
      expect(r.json.reason).toBe('refused by policy');
    } else {
      expect(run).toMatchObject({
        outcome: 'failed',
        blocking: false,
        error: 'hook command failed: exit status 2 (stderr: 21 bytes)',
      });
      expect(JSON.stringify(run)).not.toContain('refused');
      const notices = r.json.notifications.filter((n) => n.event.kind === 'hook_error').map((n) => n.event.message);
      expect(notices).toEqual(event === 'SessionStart' ? ['refused by policy'] : []);
    }
    expect(sb.records('s1')).toHaveLength(1);
  });
});

describe('claude fire: reading stdout', () => {
  it('reads JSON only when all of stdout is one object; plain text is context on UserPromptSubmit only', async () => {
    const sb = sandbox();
    sb.settings({
      UserPromptSubmit: [
        group([
          cmd('echo "plain context"'),
          cmd(`echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"json context"}}'`),
          cmd(`echo '{"not": json'`),
        ]),
      ],
    });
    const r = await sb.fire('UserPromptSubmit', { session_id: 's1', prompt: 'hi' });
    expect(r.json.runs.map((x) => x.output)).toEqual(['text', 'json', 'text']);
    expect(r.json.additional_context).toBe('plain context\njson context\n{"not": json');
    sb.settings({ PreToolUse: [group([cmd('echo "ignored text"')])] });
    const pre = await sb.fire('PreToolUse', bash('ls'));
    expect([pre.json.verdict, pre.json.additional_context, pre.json.runs[0]!.output]).toEqual(['pass', null, 'text']);
  });

  it('fails a JSON answer without hookEventName (fail-open), with a hook_error notice', async () => {
    const sb = sandbox();
    sb.settings({ PreToolUse: [group([cmd(`echo '{"hookSpecificOutput":{"permissionDecision":"deny"}}'`)])] });
    const r = await sb.fire('PreToolUse', bash('ls'));
    expect([r.json.verdict, r.code]).toEqual(['pass', 0]);
    expect(r.json.runs[0]).toMatchObject({ outcome: 'failed', output: 'json' });
    expect(r.json.notifications[0]!.event).toMatchObject({
      kind: 'hook_error',
      message: 'PreToolUse hook error: hookSpecificOutput is missing required field "hookEventName"',
    });
  });
});

describe('claude fire: if rules and matchers', () => {
  it('runs a Bash(git push *) hook on a matching subcommand only, and fails open on unparsable commands', async () => {
    const sb = sandbox();
    sb.settings({ PreToolUse: [group([cmd('echo no >&2; exit 2', { if: 'Bash(git push *)' })], 'Bash')] });
    expect((await sb.fire('PreToolUse', bash('npm test && git push origin main'))).json.verdict).toBe('deny');
    expect((await sb.fire('PreToolUse', bash('git status'))).json.runs).toHaveLength(0);
    expect((await sb.fire('PreToolUse', bash('git push "unterminated'))).json.verdict).toBe('deny');
    expect((await sb.fire('PreToolUse', { ...bash('git push'), tool_name: 'Edit' })).json.runs).toHaveLength(0);
  });

  it('shows matcher, if and gate verdicts in the dry-run plan and runs nothing', async () => {
    const sb = sandbox();
    const marker = join(sb.out, 'ran');
    sb.settings({
      PreToolUse: [
        group([cmd(`touch ${marker}`, { if: 'Bash(rm *)' })], 'Bash'),
        group([cmd(`touch ${marker}`)], 'Edit|Write'),
      ],
    });
    const r = await sb.cli(
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '--dry-run', '-o', 'json'],
      JSON.stringify(bash('rm -rf build')),
    );
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { dialect: string; plan: Record<string, unknown>[] };
    expect(plan.dialect).toBe('claude');
    expect(plan.plan).toMatchObject([
      {
        name: 'project:PreToolUse:1.1',
        handler_type: 'command',
        status: 'active',
        matched: true,
        fields: [{ field: 'tool_name', pattern: 'Bash', value: 'Bash', matched: true }],
        if: { rule: 'Bash(rm *)', verdict: 'match' },
        runnable: true,
      },
      { name: 'project:PreToolUse:2.1', matched: false, fields: [{ pattern: 'Edit|Write', matched: false }], if: null },
    ]);
    expect(existsSync(marker)).toBe(false);
    const human = await sb.cli(
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '--dry-run'],
      JSON.stringify(bash('rm -rf build')),
    );
    expect(human.stdout.split('\n')[0]).toMatch(/^dialect {2}claude {2}\(dry run/);
    expect(human.stdout.split('\n')[1]).toMatch(/^Order\s+Name\s+Type\s+Matcher\s+Matched\s+If\s+Gate$/);
  });
});

describe('claude fire: processes', () => {
  it('kills the whole process group on timeout and fails open', async () => {
    const sb = sandbox();
    const pid = join(sb.out, 'pid');
    sb.settings({
      PreToolUse: [
        group([cmd(`sleep 30 & echo $! > ${pid}; wait`, { timeout: 0.5 }), cmd(decision('PreToolUse', 'allow'))]),
      ],
    });
    const r = await sb.fire('PreToolUse', bash('ls'));
    expect(r.json.verdict).toBe('allow');
    expect(r.json.runs[0]).toMatchObject({ outcome: 'failed', timed_out: true, error: 'hook timed out after 0.5s' });
    // Gone, or a zombie that a non-reaping init keeps: either way it no longer runs.
    const grandchild = Number(readFileSync(pid, 'utf8'));
    const stat = existsSync(`/proc/${grandchild}/stat`) ? readFileSync(`/proc/${grandchild}/stat`, 'utf8') : '';
    expect(stat === '' || /^\d+ \(.*\) Z/.test(stat)).toBe(true);
  });

  it('runs exec form without a shell, and gives SessionStart hooks CLAUDE_ENV_FILE', async () => {
    const sb = sandbox();
    const args = sb.script(
      'print-args',
      'printf "%s|" "$@"; echo "export FROM=$CLAUDE_PROJECT_DIR" >> "$CLAUDE_ENV_FILE"',
    );
    sb.settings({
      SessionStart: [group([{ type: 'command', command: args, args: ['a b', '$HOME', '${CLAUDE_PROJECT_DIR}'] }])],
    });
    const r = await sb.fire('SessionStart', { session_id: 's1', source: 'startup' });
    expect(r.json.additional_context).toBe(`a b|$HOME|${sb.workspace}|`);
    expect(r.json.env_exports).toEqual([{ hook: 'project:SessionStart:1.1', line: `export FROM=${sb.workspace}` }]);
  });

  it('records prompt hooks skipped and lists them as unevaluated', async () => {
    const sb = sandbox();
    sb.settings({ PreToolUse: [group([{ type: 'prompt', prompt: 'is this safe?' }, cmd('exit 0')])] });
    const r = await sb.fire('PreToolUse', bash('ls'));
    expect(r.json.runs[0]).toMatchObject({
      outcome: 'skipped',
      handler_type: 'prompt',
      why: 'prompt hooks run only inside Claude Code',
    });
    expect(r.json.unevaluated).toHaveLength(1);
    expect(r.stderr).toContain('1 hook could not run outside Claude Code; the verdict does not include them');
  });
});

describe('claude fire: http hooks', () => {
  let server: Server;
  let base: string;
  const auth: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        auth.push(String(req.headers.authorization));
        if (req.url === '/deny') {
          res.end(
            JSON.stringify({
              hookSpecificOutput: {
                hookEventName: JSON.parse(body).hook_event_name,
                permissionDecision: 'deny',
                permissionDecisionReason: 'server says no',
              },
            }),
          );
        } else if (req.url === '/slow') setTimeout(() => res.end('{}'), 5000);
        else {
          res.statusCode = 503;
          res.end();
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('POSTs the payload, expands allowed header variables, and blocks only through its JSON', async () => {
    const sb = sandbox();
    sb.env.API_TOKEN = 'tok';
    sb.settings({
      PreToolUse: [
        group([
          {
            type: 'http',
            url: `${base}/deny`,
            headers: { Authorization: 'Bearer $API_TOKEN' },
            allowedEnvVars: ['API_TOKEN'],
          },
          { type: 'http', url: `${base}/down` },
          { type: 'http', url: `${base}/slow`, timeout: 0.5 },
        ]),
      ],
    });
    const r = await sb.fire('PreToolUse', bash('ls'));
    expect([r.json.verdict, r.json.reason, r.code]).toEqual(['deny', 'server says no', 1]);
    expect(auth).toContain('Bearer tok');
    expect(r.json.runs.map((x) => [x.outcome, x.http_status, x.error ?? null])).toEqual([
      ['denied', 200, null],
      ['failed', 503, 'http status 503'],
      ['failed', null, 'hook timed out after 0.5s'],
    ]);
  });
});

describe('claude fire: records, streams and human output', () => {
  it('writes claude records to the state folder, streams them with -o jsonl, and prints the table', async () => {
    const sb = sandbox();
    sb.settings({
      UserPromptSubmit: [group([cmd(`echo '{"systemMessage":"hello"}'`), cmd('sleep 5', { timeout: 0.3 })])],
    });
    const stream = await sb.cli(
      ['hooks', 'fire', 'UserPromptSubmit', '--dialect', 'claude', '-o', 'jsonl'],
      JSON.stringify({ session_id: 'j1', prompt: 'p' }),
    );
    const lines = stream.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.slice(0, 2).map((l) => l.dialect)).toEqual(['claude', 'claude']);
    expect(lines.slice(2).map((l) => (l.event as Record<string, unknown>).kind)).toEqual(['system_message', 'timeout']);
    expect(sb.records('j1').map((r) => r.hook_name)).toEqual([
      'project:UserPromptSubmit:1.1',
      'project:UserPromptSubmit:1.2',
    ]);
    const human = await sb.cli(
      ['hooks', 'fire', 'UserPromptSubmit', '--dialect', 'claude'],
      JSON.stringify({ session_id: 'j1', prompt: 'p' }),
    );
    expect(human.stdout).toMatch(/^verdict\s+pass$/m);
    expect(human.stdout).toMatch(/^Hook\s+Type\s+Outcome\s+Decision\s+Duration\s+Error$/m);
    expect(human.stdout).toMatch(
      /project:UserPromptSubmit:1\.2\s+command\s+failed\s+\d+ ms\s+hook timed out after 0\.3s/,
    );
  });
});
