import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Declaration } from '../../src/declarations/model.js';
import {
  dispatchCosh,
  fillCoshPayload,
  type CoshDispatchOptions,
  type CoshNotification,
} from '../../src/dialects/cosh/dispatch.js';
import { HookctlError } from '../../src/errors.js';
import { runSubprocess } from '../../src/exec/subprocess.js';
import type { ExecRequest, ExecResult, Executor } from '../../src/exec/types.js';
import { RUN_RECORD_FIELDS, type RunRecord } from '../../src/ledger/record.js';

const SEED_NOTIFICATION =
  '{"type":"stream_event","event":{"subtype":"hook_notification","hook_name":"security-check","message":"Command blocked by security policy","decision":"block"}}';
const SEED_OUTPUT =
  '{\n  "decision": "block",\n  "reason": "Dangerous rm -rf command",\n  "systemMessage": "Command blocked by security policy"\n}\n';

function decl(name: string, event = 'PreToolUse', extra: Partial<Declaration> = {}): Declaration {
  return {
    dialect: 'cosh',
    name,
    event,
    source: 'cosh_config',
    mode: 'sync',
    required: false,
    priority: 0,
    timeout_ms: 5000,
    enabled: true,
    metadata: {},
    matcher: {},
    executor_kind: 'subprocess',
    command: `hook-${name}`,
    args: [],
    env: {},
    secret_env: {},
    cwd: '/ws',
    location: { file: '/cfg/config.toml', line: 1 },
    status: 'active',
    ...extra,
  };
}

function exited(stdout: string, exitCode = 0, extra: Partial<ExecResult> = {}): ExecResult {
  return {
    exitCode,
    signal: null,
    timedOut: false,
    stdout,
    stdoutBytes: Buffer.byteLength(stdout),
    stderrBytes: 0,
    truncated: false,
    durationMs: 3,
    ...extra,
  };
}
const answer = (o: Record<string, unknown>) => exited(JSON.stringify(o));

/** A fake executor: each declaration's command maps to a scripted result; calls are kept. */
function scripted(results: Record<string, ExecResult>): Executor & { calls: ExecRequest[] } {
  const calls: ExecRequest[] = [];
  const executor = async (req: ExecRequest) => {
    calls.push(req);
    const command = req.args[1]!;
    const result = results[command];
    if (!result) throw new Error(`unexpected hook ${command}`);
    return result;
  };
  return Object.assign(executor, { calls });
}

async function run(
  event: string,
  decls: Declaration[],
  results: Record<string, ExecResult>,
  opts: Partial<CoshDispatchOptions> = {},
) {
  const executor = scripted(results);
  const recorded: RunRecord[] = [];
  const streamed: CoshNotification[] = [];
  const result = await dispatchCosh({
    event,
    payload: { tool_name: 'shell', tool_input: { command: 'rm -rf /tmp/old' } },
    declarations: decls,
    executor,
    sessionId: 'abc-123',
    dispatchId: 'd_1',
    depth: 1,
    invokingEnv: { PATH: '/usr/bin', SOME_VAR: 'kept' },
    workspace: '/ws',
    coshHome: '/home/u/.copilot-shell',
    onRecord: (r) => {
      recorded.push(r);
    },
    onNotification: (n) => streamed.push(n),
    ...opts,
  });
  return { result, calls: executor.calls, recorded, streamed };
}

describe('fillCoshPayload', () => {
  const ctx = {
    event: 'PreToolUse',
    sessionId: 'abc-123',
    workspace: '/home/user/project',
    coshHome: '/home/user/.copilot-shell',
    now: new Date('2026-07-01T10:00:00.123Z'),
  };

  it('fills the base fields in the seed order, before the caller fields', () => {
    const out = fillCoshPayload({ tool_name: 'shell', tool_input: { command: 'rm -rf /tmp/old' } }, ctx);
    expect(JSON.stringify(out)).toBe(
      '{"session_id":"abc-123","cwd":"/home/user/project","hook_event_name":"PreToolUse","timestamp":"2026-07-01T10:00:00Z",' +
        '"transcript_path":"/home/user/.copilot-shell/sessions/abc-123","tool_name":"shell","tool_input":{"command":"rm -rf /tmp/old"}}',
    );
  });

  it('keeps fields the caller set', () => {
    const out = fillCoshPayload(
      { session_id: 's2', cwd: '/else', timestamp: 'then', hook_event_name: 'X', transcript_path: '/t' },
      ctx,
    );
    expect(out).toEqual({
      session_id: 's2',
      cwd: '/else',
      timestamp: 'then',
      hook_event_name: 'X',
      transcript_path: '/t',
    });
    expect(fillCoshPayload({ session_id: 's2' }, ctx).transcript_path).toBe('/home/user/.copilot-shell/sessions/s2');
  });
});

describe('dispatchCosh', () => {
  it('runs each hook as sh -c <command> with the filled payload on stdin and the cosh environment', async () => {
    const d = decl('a', 'PreToolUse', {
      env: { POLICY: 'strict' },
      timeout_ms: 1200,
      command: 'echo "$POLICY" | tee x',
    });
    const { calls } = await run('PreToolUse', [d, decl('b', 'PreToolUse', { timeout_ms: 0 })], {
      'echo "$POLICY" | tee x': exited(''),
      'hook-b': exited(''),
    });
    expect(calls[0]).toMatchObject({
      command: '/bin/sh',
      args: ['-c', 'echo "$POLICY" | tee x'],
      cwd: '/ws',
      timeoutMs: 1200,
    });
    expect(calls[0]!.env).toMatchObject({ POLICY: 'strict', SOME_VAR: 'kept', HOOKCTL_DISPATCH_DEPTH: '1' });
    expect(JSON.parse(calls[0]!.stdin)).toMatchObject({
      session_id: 'abc-123',
      cwd: '/ws',
      hook_event_name: 'PreToolUse',
      transcript_path: '/home/u/.copilot-shell/sessions/abc-123',
      tool_name: 'shell',
    });
    expect(calls[1]!.timeoutMs).toBe(5000);
  });

  it.each([
    ['allow', 'allow', 'applied'],
    ['ask', 'ask', 'applied'],
    ['block', 'block', 'denied'],
    ['deny', 'block', 'denied'],
    ['', 'pass', 'applied'],
  ])('takes decision %j on PreToolUse as verdict %s (outcome %s)', async (decision, verdict, outcome) => {
    const { result, recorded } = await run('PreToolUse', [decl('a')], {
      'hook-a': answer({ decision, reason: 'why' }),
    });
    expect(result.verdict).toBe(verdict);
    expect(recorded).toEqual([
      expect.objectContaining({ hook_name: 'a', outcome, decision: decision === '' ? null : decision, reason: 'why' }),
    ]);
  });

  it.each(['', '   \n\t', '{}'])('passes through on stdout %j', async (stdout) => {
    const { result, recorded } = await run('PreToolUse', [decl('a')], { 'hook-a': exited(stdout) });
    expect(result).toMatchObject({
      verdict: 'pass',
      reason: null,
      system_message: null,
      additional_context: null,
      notifications: [],
    });
    expect(recorded).toEqual([expect.objectContaining({ outcome: 'applied', decision: null })]);
  });

  it('prefers ask over allow over pass-through', async () => {
    const decls = [decl('a'), decl('b'), decl('c')];
    expect(
      (
        await run('PreToolUse', decls, {
          'hook-a': exited(''),
          'hook-b': answer({ decision: 'allow' }),
          'hook-c': exited(''),
        })
      ).result.verdict,
    ).toBe('allow');
    expect(
      (
        await run('PreToolUse', decls, {
          'hook-a': answer({ decision: 'ask' }),
          'hook-b': answer({ decision: 'allow' }),
          'hook-c': exited(''),
        })
      ).result.verdict,
    ).toBe('ask');
    expect(
      (
        await run('PreToolUse', decls, {
          'hook-a': answer({ decision: 'allow' }),
          'hook-b': exited(''),
          'hook-c': answer({ decision: 'ask' }),
        })
      ).result.verdict,
    ).toBe('ask');
  });

  it('ends the chain at the first block: later hooks never run and are not recorded', async () => {
    const { result, calls, recorded } = await run('PreToolUse', [decl('a'), decl('b'), decl('c')], {
      'hook-a': answer({ decision: 'ask', reason: 'check' }),
      'hook-b': answer({ decision: 'deny', reason: 'no', systemMessage: 'Denied by b' }),
      'hook-c': answer({ decision: 'allow' }),
    });
    expect(result).toMatchObject({ verdict: 'block', reason: 'no', system_message: 'Denied by b' });
    expect(calls.map((c) => c.args[1])).toEqual(['hook-a', 'hook-b']);
    expect(recorded.map((r) => [r.hook_name, r.outcome, r.decision])).toEqual([
      ['a', 'applied', 'ask'],
      ['b', 'denied', 'deny'],
    ]);
  });

  it("reports the blocking hook's reason even when it gave none, and otherwise the last one given", async () => {
    let r = await run('PreToolUse', [decl('a'), decl('b')], {
      'hook-a': answer({ decision: 'allow', reason: 'first', systemMessage: 'msg a' }),
      'hook-b': answer({ decision: 'block' }),
    });
    expect(r.result).toMatchObject({ verdict: 'block', reason: null, system_message: null });
    r = await run('PreToolUse', [decl('a'), decl('b'), decl('c')], {
      'hook-a': answer({ decision: 'allow', reason: 'first', systemMessage: 'msg a' }),
      'hook-b': answer({ reason: 'second' }),
      'hook-c': exited(''),
    });
    expect(r.result).toMatchObject({ verdict: 'allow', reason: 'second', system_message: 'msg a' });
  });

  it('records and ignores decisions an event cannot take', async () => {
    // PostToolUse takes block/allow only: ask is ignored.
    let r = await run('PostToolUse', [decl('a', 'PostToolUse'), decl('b', 'PostToolUse')], {
      'hook-a': answer({ decision: 'ask' }),
      'hook-b': answer({ decision: 'allow' }),
    });
    expect(r.result.verdict).toBe('allow');
    expect(r.recorded.map((x) => [x.outcome, x.decision])).toEqual([
      ['applied', 'ask'],
      ['applied', 'allow'],
    ]);
    // SessionStart takes none: a block neither stops the chain nor blocks.
    r = await run('SessionStart', [decl('a', 'SessionStart'), decl('b', 'SessionStart')], {
      'hook-a': answer({ decision: 'block', reason: 'nope' }),
      'hook-b': answer({ decision: 'allow' }),
    });
    expect(r.result.verdict).toBe('pass');
    expect(r.calls).toHaveLength(2);
    expect(r.recorded.map((x) => [x.outcome, x.decision, x.reason])).toEqual([
      ['applied', 'block', 'nope'],
      ['applied', 'allow', null],
    ]);
  });

  it('treats a timeout as pass-through, recorded failed with timed_out', async () => {
    const { result, recorded } = await run('PreToolUse', [decl('slow'), decl('b')], {
      'hook-slow': exited('', null as unknown as number, {
        exitCode: null,
        signal: 'SIGTERM',
        timedOut: true,
        durationMs: 5003,
      }),
      'hook-b': answer({ decision: 'allow' }),
    });
    expect(result.verdict).toBe('allow');
    expect(recorded[0]).toMatchObject({
      outcome: 'failed',
      timed_out: true,
      error: 'hook timed out after 5s',
      decision: null,
      duration_ms: 5003,
    });
  });

  it('ignores the output of a hook that exits non-zero', async () => {
    const { result, recorded } = await run('PreToolUse', [decl('a')], {
      'hook-a': exited(JSON.stringify({ decision: 'block' }), 2, { stderrBytes: 12 }),
    });
    expect(result.verdict).toBe('pass');
    expect(recorded[0]).toMatchObject({
      outcome: 'failed',
      exit_code: 2,
      stderr_bytes: 12,
      error: 'hook command failed: exit status 2 (stderr: 12 bytes)',
    });
  });

  it('records a hook that could not start, without process facts', async () => {
    const start = {
      ...exited(''),
      exitCode: null,
      startError: { kind: 'spawn' as const, message: 'fork/exec /bin/sh: no such file or directory' },
    };
    const { result, recorded } = await run('PreToolUse', [decl('a')], { 'hook-a': start });
    expect(result.verdict).toBe('pass');
    expect(recorded[0]).toMatchObject({ outcome: 'failed', error: 'fork/exec /bin/sh: no such file or directory' });
    expect(recorded[0]!.exit_code).toBeNull();
  });

  it.each([
    ['not json', 'not valid JSON'],
    ['{"decision": "block"} {"decision": "allow"}', 'not valid JSON'],
    ['["block"]', 'got an array'],
    ['"block"', 'got string'],
    ['{"decision": true}', '"decision" must be a string'],
    ['{"decision": "maybe"}', 'unknown decision "maybe"'],
    ['{"decision": "block", "x": "...[truncated]', 'not valid JSON'],
  ])('ignores stdout %j as a failure with a clear error', async (stdout, error) => {
    const { result, recorded } = await run('PreToolUse', [decl('a'), decl('b')], {
      'hook-a': exited(stdout),
      'hook-b': exited(''),
    });
    expect(result.verdict).toBe('pass');
    expect(recorded).toHaveLength(2);
    expect(recorded[0]!.outcome).toBe('failed');
    expect(recorded[0]!.error).toContain(error);
  });

  it('keeps the raw unknown decision in the record', async () => {
    const { recorded } = await run('PreToolUse', [decl('a')], { 'hook-a': answer({ decision: 'maybe' }) });
    expect(recorded[0]).toMatchObject({ outcome: 'failed', decision: 'maybe' });
  });

  it('joins additional_context values in order with a newline, accepting additionalContext too', async () => {
    const { result } = await run(
      'PostToolUseFailure',
      [
        decl('a', 'PostToolUseFailure'),
        decl('b', 'PostToolUseFailure'),
        decl('c', 'PostToolUseFailure'),
        decl('d', 'PostToolUseFailure'),
      ],
      {
        'hook-a': answer({ hookSpecificOutput: { additional_context: 'one' } }),
        'hook-b': answer({ hookSpecificOutput: {} }),
        'hook-c': answer({ hookSpecificOutput: { additionalContext: 'two' } }),
        'hook-d': answer({ decision: 'block', hookSpecificOutput: { additional_context: 'three\nlines' } }),
      },
    );
    expect(result.additional_context).toBe('one\ntwo\nthree\nlines');
    expect(result.verdict).toBe('pass');
  });

  it("emits the seed's notification line byte for byte", async () => {
    const d = decl('security-check');
    const { result, streamed } = await run('PreToolUse', [d], { 'hook-security-check': exited(SEED_OUTPUT) });
    expect(result.notifications.map((n) => JSON.stringify(n))).toEqual([SEED_NOTIFICATION]);
    expect(streamed).toEqual(result.notifications);
  });

  it('notifies per hook in order, falling back to reason, with decision null when none', async () => {
    const { result } = await run('PreToolUse', [decl('a'), decl('b'), decl('c'), decl('d')], {
      'hook-a': answer({ reason: 'only a reason' }),
      'hook-b': answer({ decision: 'allow' }),
      'hook-c': answer({ decision: 'ask', reason: 'r', systemMessage: 'Please confirm' }),
      'hook-d': answer({ decision: 'deny', reason: 'Blocked by d' }),
    });
    expect(result.notifications.map((n) => JSON.stringify(n))).toEqual([
      '{"type":"stream_event","event":{"subtype":"hook_notification","hook_name":"a","message":"only a reason","decision":null}}',
      '{"type":"stream_event","event":{"subtype":"hook_notification","hook_name":"c","message":"Please confirm","decision":"ask"}}',
      '{"type":"stream_event","event":{"subtype":"hook_notification","hook_name":"d","message":"Blocked by d","decision":"deny"}}',
    ]);
  });

  it('filters by matcher on tool events only, without recording the hooks it skips', async () => {
    const decls = [
      decl('exact', 'PreToolUse', { matcher: { tool_name: '^shell$' } }),
      decl('search', 'PreToolUse', { matcher: { tool_name: 'shell' } }),
      decl('all', 'PreToolUse'),
    ];
    const { calls, recorded } = await run(
      'PreToolUse',
      decls,
      { 'hook-search': exited(''), 'hook-all': exited('') },
      {
        payload: { tool_name: 'run_shell_command' },
      },
    );
    expect(calls.map((c) => c.args[1])).toEqual(['hook-search', 'hook-all']);
    expect(recorded.map((r) => r.hook_name)).toEqual(['search', 'all']);

    const none = await run('PreToolUse', decls.slice(0, 2), {}, { payload: {} });
    expect(none.calls).toEqual([]);
  });

  it('writes run records with the cosh fields in SPEC order', async () => {
    const { recorded } = await run('PreToolUse', [decl('a')], {
      'hook-a': answer({ decision: 'allow', reason: 'ok' }),
    });
    const r = recorded[0]!;
    expect(Object.keys(r)).toEqual([...RUN_RECORD_FIELDS]);
    expect(r).toMatchObject({
      skill_source: null,
      patch_applied: null,
      error: null,
      workspace: '/ws',
      declared_in: '/cfg/config.toml',
    });
    expect(r).toMatchObject({
      dispatch_id: 'd_1',
      session_id: 'abc-123',
      dialect: 'cosh',
      event: 'PreToolUse',
      mode: 'sync',
      dispatch_depth: 1,
    });
    expect(r.recorded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('refuses an unknown event', async () => {
    await expect(run('preToolUse', [], {})).rejects.toBeInstanceOf(HookctlError);
  });
});

describe('dispatchCosh with real processes', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hookctl-cosh-dispatch-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('feeds the payload to sh -c hooks and acts on their answers', async () => {
    // The first hook echoes back what it read; the second blocks rm -rf using the stdin payload.
    const echoContext = `printf '{"hookSpecificOutput":{"additional_context":"%s"}}' "$(cat | tr -d '"\\n' | cut -c1-20)"`;
    const guard = `if grep -q 'rm -rf' ; then printf '%s' '${SEED_OUTPUT.replace(/\n/g, '')}'; fi`;
    const result = await dispatchCosh({
      event: 'PreToolUse',
      payload: { tool_name: 'shell', tool_input: { command: 'rm -rf /tmp/old' } },
      declarations: [
        decl('echo', 'PreToolUse', { command: echoContext, cwd: dir }),
        decl('security-check', 'PreToolUse', { command: guard, cwd: dir }),
      ],
      executor: runSubprocess,
      sessionId: 'abc-123',
      dispatchId: 'd_real',
      depth: 1,
      invokingEnv: { PATH: process.env.PATH },
      workspace: dir,
      coshHome: join(dir, 'cosh'),
      onRecord: () => {},
    });
    expect(result.verdict).toBe('block');
    expect(result.additional_context).toBe('{session_id:abc-123,');
    expect(result.notifications.map((n) => JSON.stringify(n))).toEqual([SEED_NOTIFICATION]);
    expect(result.runs.map((r) => [r.outcome, r.exit_code])).toEqual([
      ['applied', 0],
      ['denied', 0],
    ]);
  });
});
