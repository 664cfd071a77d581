// `hooks fire` on cosh events end to end (SPEC §4.4, §5, §6; seed 000 "Protocol", "Execution
// Model", "Notifications"): real `sh -c` hooks answer with decisions; the built CLI's verdict,
// exit code, notification lines, records and the hooks' own marks are checked.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../src/ledger/record.js';
import {
  coshTree,
  hook,
  jsonLines,
  PRE_SHELL,
  removeCoshTrees,
  writeText,
  type CoshHookDef,
  type CoshTree,
} from '../fixtures/e2e-cosh/setup.js';

afterAll(removeCoshTrees);

interface CoshFireJson {
  event: string;
  dialect: string;
  session_id: string;
  dispatch_id: string;
  verdict: string;
  payload: Record<string, unknown>;
  runs: RunRecord[];
  reason: string | null;
  system_message: string | null;
  additional_context: string | null;
  notifications: unknown[];
}

/** A tree whose user layer declares these hooks for one event. */
function treeWith(event: string, hooks: CoshHookDef[]): CoshTree {
  return coshTree({ user: { events: { [event]: hooks } } });
}

async function fireJson(tree: CoshTree, event: string, payload: string, ...flags: string[]) {
  const r = await tree.cli(['hooks', 'fire', event, '-o', 'json', ...flags], { input: payload });
  let json: CoshFireJson;
  try {
    json = JSON.parse(r.stdout) as CoshFireJson;
  } catch {
    throw new Error(`fire ${event} printed no JSON (exit ${r.code}): ${r.stderr}`);
  }
  return { code: r.code, json, stderr: r.stderr, ms: r.ms };
}

const SEED_OUTPUT = {
  decision: 'block',
  reason: 'Dangerous rm -rf command',
  systemMessage: 'Command blocked by security policy',
};
const SEED_NOTIFICATION =
  '{"type":"stream_event","event":{"subtype":"hook_notification","hook_name":"security-check","message":"Command blocked by security policy","decision":"block"}}';

describe.concurrent('one hook: each decision and its exit code', () => {
  it.each([
    { stdout: JSON.stringify(SEED_OUTPUT), verdict: 'block', exit: 1, outcome: 'denied', decision: 'block' },
    { stdout: '{"decision":"deny","reason":"no"}', verdict: 'block', exit: 1, outcome: 'denied', decision: 'deny' },
    { stdout: '{"decision":"ask","reason":"sure?"}', verdict: 'ask', exit: 4, outcome: 'applied', decision: 'ask' },
    { stdout: '{"decision":"allow"}', verdict: 'allow', exit: 0, outcome: 'applied', decision: 'allow' },
    { stdout: '{"reason":"no opinion"}', verdict: 'pass', exit: 0, outcome: 'applied', decision: null },
    { stdout: '{"decision":""}', verdict: 'pass', exit: 0, outcome: 'applied', decision: null },
    { stdout: '', verdict: 'pass', exit: 0, outcome: 'applied', decision: null },
    { stdout: ' \n\t  \n', verdict: 'pass', exit: 0, outcome: 'applied', decision: null },
  ])('stdout $stdout → $verdict, exit $exit', async ({ stdout, verdict, exit, outcome, decision }) => {
    const tree = treeWith('PreToolUse', [hook('only', stdout)]);
    const human = await tree.cli(['hooks', 'fire', 'PreToolUse', '--session', 'one'], { input: PRE_SHELL });
    expect(human.code, human.stderr).toBe(exit);
    expect(human.stdout).toMatch(new RegExp(`^verdict\\s+${verdict}$`, 'm'));
    expect(tree.records('one').map((r) => [r.hook_name, r.outcome, r.decision])).toEqual([['only', outcome, decision]]);
  });
});

describe.concurrent('several hooks', () => {
  it.each([
    { answers: ['ask', 'allow'], verdict: 'ask', exit: 4 },
    { answers: ['allow', ''], verdict: 'allow', exit: 0 },
    { answers: ['', 'allow', 'ask', ''], verdict: 'ask', exit: 4 },
    { answers: ['', ''], verdict: 'pass', exit: 0 },
    { answers: ['ask', 'allow', 'block'], verdict: 'block', exit: 1 },
  ])('$answers → $verdict, exit $exit', async ({ answers, verdict, exit }) => {
    const names = answers.map((_, i) => `h${i + 1}`);
    const tree = treeWith(
      'PreToolUse',
      answers.map((a, i) => hook(names[i]!, a === '' ? '' : { decision: a })),
    );
    const { code, json } = await fireJson(tree, 'PreToolUse', PRE_SHELL);
    expect(code).toBe(exit);
    expect(json.verdict).toBe(verdict);
    expect(tree.ran()).toEqual(names); // strictly one after another, in order
  });

  it('the first block ends the chain: later hooks (config and extension) are not run and not recorded', async () => {
    const tree = treeWith('PreToolUse', [
      hook('first', { decision: 'allow' }),
      hook('blocker', { decision: 'deny', reason: 'stop here' }),
      hook('after', { decision: 'allow' }),
    ]);
    writeText(
      join(tree.coshHome, 'extensions', 'late', 'cosh-extension.json'),
      JSON.stringify({
        name: 'late',
        hooks: {
          PreToolUse: [{ hooks: [{ type: 'command', name: 'ext-after', command: 'sh "$E2E_HOOK" ext-after' }] }],
        },
      }),
    );
    const r = await tree.cli(['hooks', 'fire', 'PreToolUse', '--session', 'short', '-o', 'jsonl'], {
      input: PRE_SHELL,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(tree.ran()).toEqual(['first', 'blocker']);
    expect(tree.stdinOf('after')).toBeUndefined();
    expect(tree.stdinOf('ext-after')).toBeUndefined();
    const lines = jsonLines(r.stdout);
    expect(lines.filter((l) => l.run_id !== undefined).map((l) => [l.hook_name, l.outcome])).toEqual([
      ['first', 'applied'],
      ['blocker', 'denied'],
    ]);
    expect(tree.records('short').map((rec) => rec.hook_name)).toEqual(['first', 'blocker']);

    const { json } = await fireJson(tree, 'PreToolUse', PRE_SHELL);
    expect(json).toMatchObject({ verdict: 'block', reason: 'stop here' });
    expect(json.runs.map((run) => run.hook_name)).toEqual(['first', 'blocker']);
  });

  it.each([
    { event: 'PostToolUse', decision: 'ask' },
    { event: 'PostToolUseFailure', decision: 'block' },
    { event: 'SessionStart', decision: 'block' },
    { event: 'Stop', decision: 'ask' },
    { event: 'BeforeModel', decision: 'deny' },
  ])('$event cannot take "$decision": recorded and ignored', async ({ event, decision }) => {
    const tree = treeWith(event, [hook('decider', { decision, reason: 'tried' }), hook('next')]);
    const { code, json } = await fireJson(tree, event, PRE_SHELL, '--session', 'ignored');
    expect(code).toBe(0);
    expect(json.verdict).toBe('pass');
    expect(tree.ran()).toEqual(['decider', 'next']); // the chain was not ended
    expect(tree.records('ignored').map((r) => [r.hook_name, r.outcome, r.decision, r.reason])).toEqual([
      ['decider', 'applied', decision, 'tried'],
      ['next', 'applied', null, null],
    ]);
  });
});

describe.concurrent('failures have no effect on the flow', () => {
  it('a timeout kills the whole process group, records failed with timed_out, passes through, and returns quickly', async () => {
    // It ignores SIGTERM (and so does its background child), so only the group SIGKILL ends it.
    const slow = [
      "trap '' TERM",
      'echo $$ > "$E2E_MARKS/slow.pid"',
      'sleep 60 & echo $! > "$E2E_MARKS/slow.child"',
      `printf '{"decision":"block"}'`,
      'wait',
    ].join('; ');
    const tree = treeWith('PreToolUse', [
      { name: 'slow', command: slow, timeout: 300 },
      hook('after', { decision: 'allow' }),
    ]);
    const { code, json, ms } = await fireJson(tree, 'PreToolUse', PRE_SHELL, '--session', 'slow');
    expect(code).toBe(0);
    expect(json.verdict).toBe('allow'); // the block the slow hook printed never counted
    expect(ms).toBeLessThan(20_000); // not the 60 s the hook would sleep (generous: CI machines are busy)
    const [run, after] = tree.records('slow');
    expect(run).toMatchObject({
      hook_name: 'slow',
      outcome: 'failed',
      timed_out: true,
      decision: null,
      error: 'hook timed out after 300ms',
    });
    expect(run!.duration_ms).toBeGreaterThanOrEqual(290);
    expect(run!.duration_ms).toBeLessThan(5000); // timeout + 250 ms grace, plus a busy machine
    expect(after).toMatchObject({ hook_name: 'after', outcome: 'applied', decision: 'allow' });
    for (const f of ['slow.pid', 'slow.child']) {
      const pid = Number(readFileSync(join(tree.marks, f), 'utf8').trim());
      expect(await processGone(pid), `${f} ${pid} outlived the hook`).toBe(true);
    }
  });

  it('a payload that is not one JSON object, or a bad session id, is a usage error: nothing runs, nothing is recorded', async () => {
    const tree = treeWith('PreToolUse', [hook('never')]);
    const [array, broken, session] = await Promise.all([
      tree.cli(['hooks', 'fire', 'PreToolUse'], { input: '[{"tool_name":"shell"}]' }),
      tree.cli(['hooks', 'fire', 'PreToolUse', '-o', 'json'], { input: '{"tool_name":' }),
      tree.cli(['hooks', 'fire', 'PreToolUse', '--session', '../escape'], { input: PRE_SHELL }),
    ]);
    expect([array.code, broken.code, session.code]).toEqual([2, 2, 2]);
    expect(array.stderr).toContain('payload must be a JSON object');
    expect(JSON.parse(broken.stdout).error).toMatchObject({ code: 'invalid_payload' });
    expect(session.stderr).toContain('invalid session id');
    expect(tree.ran()).toEqual([]);
    expect(existsSync(join(tree.coshHome, 'sessions'))).toBe(false);
  });

  it('a non-zero exit, a command that cannot start, or output that is not one JSON object is recorded failed and changes nothing', async () => {
    const tree = treeWith('PreToolUse', [
      { name: 'exit3', command: `printf '{"decision":"block"}'; echo oops >&2; exit 3` },
      { name: 'missing', command: '/nonexistent/guard --check' },
      hook('broken', '{"decision":"block"'),
      hook('two-objects', '{"decision":"block"} {"decision":"block"}'),
      hook('array', '[{"decision":"block"}]'),
      hook('string', '"block"'),
      hook('unknown', '{"decision":"maybe"}'),
      hook('last', { decision: 'allow' }),
    ]);
    const { code, json } = await fireJson(tree, 'PreToolUse', PRE_SHELL, '--session', 'fails');
    expect(code).toBe(0);
    expect(json.verdict).toBe('allow');
    expect(tree.ran()).toEqual(['broken', 'two-objects', 'array', 'string', 'unknown', 'last']);
    const records = tree.records('fails');
    expect(records.map((r) => [r.hook_name, r.outcome])).toEqual([
      ['exit3', 'failed'],
      ['missing', 'failed'],
      ['broken', 'failed'],
      ['two-objects', 'failed'],
      ['array', 'failed'],
      ['string', 'failed'],
      ['unknown', 'failed'],
      ['last', 'applied'],
    ]);
    expect(records[0]).toMatchObject({ exit_code: 3, stderr_bytes: 5, timed_out: false, decision: null });
    expect(records[0]!.error).toBe('hook command failed: exit status 3 (stderr: 5 bytes)');
    expect(records[1]!.error).toMatch(/^hook command failed: exit status 127/);
    expect(records[2]!.error).toMatch(/JSON/);
    expect(records[6]).toMatchObject({ decision: 'maybe' });
    for (const r of records) expect(r.error ?? '').not.toContain('oops'); // stderr content never recorded
  });
});

describe.concurrent('what a hook gets', () => {
  it('matches tool_name by unanchored regex on tool events: shell also matches run_shell_command, ^shell$ does not', async () => {
    const tree = treeWith('PreToolUse', [
      hook('any-shell', '', { matcher: 'shell' }),
      hook('exact-shell', '', { matcher: '^shell$' }),
      hook('every', '', { matcher: '' }),
      hook('bash-or', '', { matcher: '^(Bash|run_shell_command)$' }),
      hook('no-matcher'),
      hook('star', '', { matcher: '*' }), // cosh-core's match-all wildcard, not a regex
    ]);
    // Concurrent fires, one session each: the records say which hooks ran for which tool.
    const tools = ['run_shell_command', 'shell', 'read_file', undefined];
    const codes = await Promise.all(
      tools.map(async (tool, i) => {
        const input = JSON.stringify(tool === undefined ? {} : { tool_name: tool });
        return (await tree.cli(['hooks', 'fire', 'PreToolUse', '--session', `m${i}`], { input })).code;
      }),
    );
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(tools.map((_, i) => tree.records(`m${i}`).map((r) => r.hook_name))).toEqual([
      ['any-shell', 'every', 'bash-or', 'no-matcher', 'star'],
      ['any-shell', 'exact-shell', 'every', 'no-matcher', 'star'],
      ['every', 'no-matcher', 'star'],
      ['every', 'no-matcher', 'star'],
    ]);
    expect(tree.ran()).toHaveLength(16); // and only those ran

    const dry = await tree.cli(['hooks', 'fire', 'PreToolUse', '--dry-run', '-o', 'json'], {
      input: JSON.stringify({ tool_name: 'run_shell_command' }),
    });
    expect(dry.code).toBe(0);
    const plan = (JSON.parse(dry.stdout) as { plan: { name: string; matched: boolean }[] }).plan;
    expect(plan.map((p) => [p.name, p.matched])).toEqual([
      ['any-shell', true],
      ['exact-shell', false],
      ['every', true],
      ['bash-or', true],
      ['no-matcher', true],
      ['star', true],
    ]);
    expect(tree.ran()).toHaveLength(16); // the dry run ran nothing
  });

  it('runs the command with sh -c: pipes, quotes, variables, && and the declared env work; the working directory is the workspace', async () => {
    const tree = treeWith('PreToolUse', [
      { name: 'pipe', command: `echo '{"decision":"ALLOW","reason":"PIPED"}' | tr 'A-Z' 'a-z'` },
      { name: 'quotes', command: `x="two words"; test -n "$x" && printf '{"reason":"%s"}' "$x"` },
      { name: 'env', command: `printf '{"reason":"%s"}' "$POLICY"`, env: { POLICY: 'strict' } },
      { name: 'cwd', command: `printf '{"reason":"%s"}' "$(pwd)"` },
    ]);
    const { code, json } = await fireJson(tree, 'PreToolUse', PRE_SHELL);
    expect(code).toBe(0);
    expect(json.verdict).toBe('allow');
    expect(json.runs.map((r) => [r.hook_name, r.outcome, r.reason])).toEqual([
      ['pipe', 'applied', 'piped'],
      ['quotes', 'applied', 'two words'],
      ['env', 'applied', 'strict'],
      ['cwd', 'applied', tree.workspace],
    ]);
  });

  it('fills session_id, cwd, hook_event_name, timestamp and transcript_path when the payload lacks them, and keeps them when given', async () => {
    const tree = treeWith('PreToolUse', [hook('dump')]);
    const payload = { tool_name: 'shell', tool_input: { command: 'rm -rf /tmp/old' } };
    const { code, json } = await fireJson(tree, 'PreToolUse', JSON.stringify(payload), '--session', 'abc-123');
    expect(code).toBe(0);
    const stdin = tree.stdinOf('dump')!;
    expect(Object.keys(stdin)).toEqual([
      'session_id',
      'cwd',
      'hook_event_name',
      'timestamp',
      'transcript_path',
      'tool_name',
      'tool_input',
    ]);
    expect(stdin).toMatchObject({
      session_id: 'abc-123',
      cwd: tree.workspace,
      hook_event_name: 'PreToolUse',
      transcript_path: join(tree.coshHome, 'sessions', 'abc-123'),
      ...payload,
    });
    expect(stdin.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Math.abs(Date.parse(stdin.timestamp as string) - Date.now())).toBeLessThan(60_000);
    expect(json.payload).toEqual(stdin); // the result's payload is what the hook read

    // Given fields are kept; the payload's session_id names the session.
    const given = {
      session_id: 'given',
      cwd: '/elsewhere',
      hook_event_name: 'Custom',
      timestamp: '2026-07-01T10:00:00Z',
      transcript_path: '/t',
      tool_name: 'shell',
    };
    const second = await fireJson(tree, 'PreToolUse', JSON.stringify(given));
    expect(second.json.session_id).toBe('given');
    expect(tree.stdinOf('dump')).toEqual(given);
    expect(tree.records('given')).toHaveLength(1);

    // Neither --session nor session_id: a new id, shown in the output and used for the transcript.
    const third = await tree.cli(['hooks', 'fire', 'PreToolUse'], { input: '' });
    expect(third.code).toBe(0);
    const fresh = tree.stdinOf('dump')!;
    expect(fresh.session_id).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(third.stdout).toContain(`session ${fresh.session_id as string}`);
    expect(fresh.transcript_path).toBe(join(tree.coshHome, 'sessions', fresh.session_id as string));
    expect(tree.records(fresh.session_id as string)).toHaveLength(1);
  });

  it('joins additional_context with "\\n" in hook order', async () => {
    const tree = treeWith('SessionStart', [
      hook('c1', { hookSpecificOutput: { additional_context: 'first' } }),
      hook('c2', {}),
      hook('c3', { hookSpecificOutput: { additional_context: 'second\nthird' } }),
      hook('c4', { hookSpecificOutput: { additional_context: 'fourth' }, decision: 'allow' }),
    ]);
    const { code, json } = await fireJson(tree, 'SessionStart', '{}');
    expect(code).toBe(0);
    expect(json.additional_context).toBe('first\nsecond\nthird\nfourth');
    const human = await tree.cli(['hooks', 'fire', 'SessionStart'], { input: '{}' });
    expect(human.stdout).toMatch(/^context\s+first$/m);
    expect(human.stdout).toMatch(/^\s+fourth$/m);
  });
});

describe.concurrent('nesting', () => {
  it('a hook that fires its own event again nests at most 3 deep: the 4th fire fails with exit 3 before running a hook', async () => {
    // Guarded at depth 6 so that a missing limit ends the test instead of nesting for ever. The
    // nested fire reads the hook's stdin, so it fires in the same session.
    const recurse = [
      'echo "depth $HOOKCTL_DISPATCH_DEPTH" >> "$E2E_MARKS/depths"',
      'if [ "$HOOKCTL_DISPATCH_DEPTH" -lt 6 ]; then',
      '  "$E2E_NODE" "$E2E_HOOKCTL" hooks fire Stop --workspace "$PWD" >/dev/null 2>"$E2E_MARKS/err-$HOOKCTL_DISPATCH_DEPTH"',
      '  echo "exit $?" >> "$E2E_MARKS/depths"',
      'fi',
    ].join('\n');
    const tree = treeWith('Stop', [{ name: 'recurse', command: recurse, timeout: 20_000 }]);
    const r = await tree.cli(['hooks', 'fire', 'Stop', '--session', 'nest'], { input: '{}', timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(tree.marks, 'depths'), 'utf8').trim().split('\n')).toEqual([
      'depth 1',
      'depth 2',
      'depth 3',
      'exit 3',
      'exit 0',
      'exit 0',
    ]);
    expect(readFileSync(join(tree.marks, 'err-3'), 'utf8')).toBe(
      'hookctl: hooks: dispatch depth exceeded for event "Stop": depth 4 exceeds max 3\n',
    );
    expect(tree.records('nest').map((x) => x.dispatch_depth)).toEqual([3, 2, 1]); // innermost ends first
  });
});

describe.concurrent('notifications and records', () => {
  const chain = () =>
    treeWith('PreToolUse', [
      hook('n1', {
        decision: 'allow',
        systemMessage: 'm1',
        reason: 'r1',
        hookSpecificOutput: { additional_context: 'ctx' },
      }),
      hook('n2', { reason: 'only a reason' }),
      hook('n3', { decision: 'allow' }),
      hook('security-check', SEED_OUTPUT),
      hook('never', { systemMessage: 'not shown' }),
    ]);

  it('-o jsonl streams one notification per notifying hook, in order, right after its record, in the seed shape byte for byte', async () => {
    const tree = chain();
    const r = await tree.cli(['hooks', 'fire', 'PreToolUse', '-o', 'jsonl', '--session', 'notify'], {
      input: PRE_SHELL,
    });
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines.pop()).toBe(''); // newline-terminated
    const shape = lines.map((l) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      return o.type === 'stream_event'
        ? `notify ${(o.event as { hook_name: string }).hook_name}`
        : `run ${o.hook_name as string}`;
    });
    expect(shape).toEqual([
      'run n1',
      'notify n1',
      'run n2',
      'notify n2',
      'run n3',
      'run security-check',
      'notify security-check',
    ]);
    expect(lines.filter((l) => l.includes('"stream_event"'))).toEqual([
      '{"type":"stream_event","event":{"subtype":"hook_notification","hook_name":"n1","message":"m1","decision":"allow"}}',
      '{"type":"stream_event","event":{"subtype":"hook_notification","hook_name":"n2","message":"only a reason","decision":null}}',
      SEED_NOTIFICATION,
    ]);
    // Each record line is the record written to the log.
    expect(lines.filter((l) => l.includes('"run_id"')).map((l) => JSON.parse(l) as RunRecord)).toEqual(
      tree.records('notify'),
    );
  });

  it('-o json carries notifications, reason, system_message and additional_context; records hold dialect, decision and reason', async () => {
    const tree = chain();
    const { code, json } = await fireJson(tree, 'PreToolUse', PRE_SHELL, '--session', 'rec');
    expect(code).toBe(1);
    expect(json).toMatchObject({
      verdict: 'block',
      reason: 'Dangerous rm -rf command',
      system_message: 'Command blocked by security policy',
      additional_context: 'ctx',
    });
    expect(json.notifications.map((n) => JSON.stringify(n))).toEqual([
      '{"type":"stream_event","event":{"subtype":"hook_notification","hook_name":"n1","message":"m1","decision":"allow"}}',
      '{"type":"stream_event","event":{"subtype":"hook_notification","hook_name":"n2","message":"only a reason","decision":null}}',
      SEED_NOTIFICATION,
    ]);

    const records = tree.records('rec');
    expect(records).toEqual(json.runs);
    expect(records.map((r) => [r.hook_name, r.outcome, r.decision, r.reason])).toEqual([
      ['n1', 'applied', 'allow', 'r1'],
      ['n2', 'applied', null, 'only a reason'],
      ['n3', 'applied', 'allow', null],
      ['security-check', 'denied', 'block', 'Dangerous rm -rf command'],
    ]);
    for (const r of records) {
      expect(r).toMatchObject({
        dialect: 'cosh',
        event: 'PreToolUse',
        session_id: 'rec',
        dispatch_id: json.dispatch_id,
        source: 'cosh_config',
        mode: 'sync',
        required: false,
        exit_code: 0,
        timed_out: false,
        dispatch_depth: 1,
      });
      expect(r.recorded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(r.run_id).toBeTruthy();
    }
    expect(new Set(records.map((r) => r.run_id)).size).toBe(4);
    expect(existsSync(join(tree.compozyHome, 'sessions', 'rec'))).toBe(false); // cosh runs go to COSH_HOME only

    const human = await tree.cli(['hooks', 'fire', 'PreToolUse'], { input: PRE_SHELL });
    expect(human.stdout).toMatch(/^reason\s+Dangerous rm -rf command$/m);
    expect(human.stdout).toMatch(/^message\s+Command blocked by security policy$/m);
  });

  it("hooks runs --session reads both dialects' logs of the session, merged oldest first", async () => {
    const tree = coshTree({
      user: { events: { PreToolUse: [hook('cosh-pre', { decision: 'allow' })], Stop: [hook('cosh-stop')] } },
    });
    writeText(
      join(tree.compozyHome, 'config.toml'),
      [
        '[[hooks.declarations]]',
        'name = "compozy-prompt"',
        'event = "prompt.post_assemble"',
        'mode = "sync"',
        'command = "sh"',
        `args = ["-c", "cat >/dev/null; echo '{}'"]`,
        '',
      ].join('\n'),
    );
    const session = ['--session', 'mixed'];
    expect((await tree.cli(['hooks', 'fire', 'PreToolUse', ...session], { input: PRE_SHELL })).code).toBe(0);
    const compozy = await tree.cli(['hooks', 'fire', 'prompt.post_assemble', ...session], { input: '{"prompt":"hi"}' });
    expect(compozy.code, compozy.stderr).toBe(0);
    expect((await tree.cli(['hooks', 'fire', 'Stop', ...session], { input: '{}' })).code).toBe(0);
    // Another, older-named session that must not leak in.
    expect((await tree.cli(['hooks', 'fire', 'Stop', '--session', 'other'], { input: '{}' })).code).toBe(0);

    const r = await tree.cli(['hooks', 'runs', ...session, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const runs = JSON.parse(r.stdout) as RunRecord[];
    expect(runs.map((x) => [x.dialect, x.hook_name])).toEqual([
      ['cosh', 'cosh-pre'],
      ['compozy', 'compozy-prompt'],
      ['cosh', 'cosh-stop'],
    ]);
    const times = runs.map((x) => x.recorded_at);
    expect([...times].sort()).toEqual(times);
    expect(runs[0]).toMatchObject({ decision: 'allow', outcome: 'applied' });

    // Without --session: the most recently written session, whichever dialect wrote it.
    const latest = await tree.cli(['hooks', 'runs', '-o', 'json']);
    expect((JSON.parse(latest.stdout) as RunRecord[]).map((x) => [x.session_id, x.hook_name])).toEqual([
      ['other', 'cosh-stop'],
    ]);
    const filtered = await tree.cli(['hooks', 'runs', ...session, '--event', 'Stop', '-o', 'json']);
    expect((JSON.parse(filtered.stdout) as RunRecord[]).map((x) => x.hook_name)).toEqual(['cosh-stop']);
    const human = await tree.cli(['hooks', 'runs', ...session]);
    expect(human.stdout).toMatch(/cosh-pre\s+PreToolUse\s+applied/);
    expect(human.stdout).toMatch(/compozy-prompt\s+prompt\.post_assemble\s+applied/);
  });
});

/**
 * Whether a process is gone (or a zombie no one has reaped yet), waiting up to 10 s: the kill
 * was sent before fire returned, but a loaded machine may take a while to tear the process down.
 */
async function processGone(pid: number): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return true;
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
