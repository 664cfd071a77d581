// Reading one answer (claude.md §5.4) and combining answers (§5.6).
import { describe, expect, it } from 'vitest';
import { classifyStdout, readAnswer, type HandlerRun } from '../../src/dialects/claude/dispatch/answer.js';
import { claudeEvent } from '../../src/dialects/claude/catalog.js';
import { combineAnswers, type CombineEntry } from '../../src/dialects/claude/dispatch/combine.js';
import { verdictExitCode } from '../../src/dialects/claude/verdicts.js';

const ev = (name: string) => claudeEvent(name)!;
const opts = { name: 'project:PreToolUse:1.1', handlerType: 'command', async: false, asyncRewake: false };
const exited = (code: number | null, stdout = '', stderr = ''): HandlerRun => ({
  kind: 'exited',
  code,
  stdout,
  stderr,
  ...(code !== 0
    ? { failure: `hook command failed: exit status ${code}${stderr ? ` (stderr: ${stderr.length} bytes)` : ''}` }
    : {}),
});
const deny = (reason: string) =>
  JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  });

describe('classifyStdout', () => {
  it('is JSON only when it starts with { and all of it is one object', () => {
    expect(classifyStdout('  {"a":1}\n').kind).toBe('json');
    expect(classifyStdout('{"a":1} trailing').kind).toBe('text');
    expect(classifyStdout('[1]').kind).toBe('text');
    expect(classifyStdout('hello {"a":1}').kind).toBe('text');
    expect(classifyStdout(' \n ').kind).toBe('empty');
  });

  it('2.1.248 (brace_stdout_error): `{…}` that is not one JSON object is invalid, not plain text (issue 28)', () => {
    expect(classifyStdout('{not json}')).toEqual({ kind: 'invalid', why: expect.stringMatching(/\(1:2\)$/) });
    expect(classifyStdout(' {"a":1}{"b":2}\n')).toEqual({ kind: 'invalid', why: expect.stringMatching(/\(1:9\)$/) });
    expect(classifyStdout('{"a": 1').kind).toBe('text'); // does not end with }: plain text
    const a = readAnswer(ev('PreToolUse'), exited(0, '{"hookSpecificOutput": oops}'), opts);
    expect(a).toMatchObject({
      outcome: 'failed',
      error: "hook output is not valid JSON: unexpected character 'o', expected a value (1:24)",
      notice: 'PreToolUse hook error: hook output is not valid JSON',
      output: 'json',
    });
    // exit 2 still blocks: the refusal does not depend on the output parsing
    expect(readAnswer(ev('PreToolUse'), exited(2, '{bad}', 'no'), opts)).toMatchObject({
      outcome: 'denied',
      reason: 'no',
    });
  });
});

describe('exit 2', () => {
  it('denies PreToolUse with the trimmed stderr as reason, even when the JSON allows', () => {
    const allow = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    const a = readAnswer(ev('PreToolUse'), exited(2, allow, '  no pushes to main \n'), opts);
    expect(a).toMatchObject({
      outcome: 'denied',
      decision: 'deny',
      blocking: true,
      reason: 'no pushes to main',
      output: 'json',
    });
  });

  it('takes the JSON refusal reason over stderr', () => {
    const a = readAnswer(ev('PreToolUse'), exited(2, deny('policy says no'), 'stderr text'), opts);
    expect(a.reason).toBe('policy says no');
  });

  it('blocks on block and feedback events, declines on Elicitation', () => {
    expect(readAnswer(ev('UserPromptSubmit'), exited(2, '', 'x'), opts).decision).toBe('block');
    expect(readAnswer(ev('PostToolUse'), exited(2, '', 'x'), opts).decision).toBe('block');
    expect(readAnswer(ev('Stop'), exited(2, '', 'x'), opts).decision).toBe('block');
    expect(readAnswer(ev('Elicitation'), exited(2, '', 'x'), opts).decision).toBe('decline');
  });

  it('is a non-blocking error on notice and ignored events, with the stderr as notice only on notice events', () => {
    const notice = readAnswer(ev('SessionStart'), exited(2, '', 'careful\n'), opts);
    expect(notice).toMatchObject({
      outcome: 'failed',
      decision: null,
      error: 'hook command failed: exit status 2 (stderr: 8 bytes)',
      notice: 'careful',
    });
    const ignored = readAnswer(ev('PermissionRequest'), exited(2, '', 'x'), opts);
    expect(ignored.outcome).toBe('failed');
    expect(ignored.notice).toBeUndefined();
  });
});

describe('other exit codes', () => {
  it('lets a valid JSON answer decide whatever the code', () => {
    const a = readAnswer(ev('PreToolUse'), exited(1, deny('nope')), opts);
    expect(a).toMatchObject({ outcome: 'denied', decision: 'deny', reason: 'nope', blocking: false });
    expect(a.error).toBeUndefined();
  });

  it('is a non-blocking error without one, noticed with the first stderr line', () => {
    const a = readAnswer(ev('PreToolUse'), exited(1, 'oops', 'first\nsecond'), opts);
    expect(a).toMatchObject({
      outcome: 'failed',
      notice: 'Failed with non-blocking status code: first',
      output: 'text',
    });
  });
});

describe('exit 0', () => {
  it('reads plain text as context only on the stdout_context events', () => {
    expect(readAnswer(ev('UserPromptSubmit'), exited(0, 'branch: main\n'), opts).context).toEqual(['branch: main']);
    const pre = readAnswer(ev('PreToolUse'), exited(0, 'branch: main\n'), opts);
    expect(pre).toMatchObject({ outcome: 'applied', output: 'text', context: [] });
  });

  it('fails a JSON answer that does not pass the checks, using nothing of it', () => {
    const missing = readAnswer(
      ev('PreToolUse'),
      exited(0, '{"hookSpecificOutput":{"permissionDecision":"deny"}}'),
      opts,
    );
    expect(missing).toMatchObject({
      outcome: 'failed',
      decision: null,
      error: 'invalid hook output: hookSpecificOutput is missing required field "hookEventName"',
      notice: 'PreToolUse hook error: hookSpecificOutput is missing required field "hookEventName"',
    });
    expect(readAnswer(ev('PreToolUse'), exited(0, '{"continue":"no"}'), opts).error).toBe(
      'invalid hook output: continue must be a boolean',
    );
    const bad = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'maybe' } });
    expect(readAnswer(ev('PreToolUse'), exited(0, bad), opts).outcome).toBe('failed');
    expect(readAnswer(ev('Stop'), exited(0, '{"decision":"block"}'), opts).error).toBe(
      'invalid hook output: decision "block" requires a non-empty "reason"',
    );
  });

  it('maps the legacy decision, reads continue:false as stop, and warns about fields without effect', () => {
    expect(readAnswer(ev('PreToolUse'), exited(0, '{"decision":"approve"}'), opts).decision).toBe('allow');
    expect(readAnswer(ev('PreToolUse'), exited(0, '{"decision":"block","reason":"r"}'), opts)).toMatchObject({
      decision: 'deny',
      reason: 'r',
    });
    const stop = readAnswer(ev('PreToolUse'), exited(0, '{"continue":false,"stopReason":"enough"}'), opts);
    expect(stop).toMatchObject({ outcome: 'denied', decision: 'stop', stop: true, stopReason: 'enough' });
    const cfg = readAnswer(ev('ConfigChange'), exited(0, '{"systemMessage":"hi","foo":1}'), opts);
    expect(cfg.systemMessage).toBeNull();
    expect(cfg.warnings).toEqual([
      `${opts.name}: systemMessage has no effect on ConfigChange`,
      `${opts.name}: foo has no effect on ConfigChange`,
    ]);
  });

  it('keeps PermissionRequest updatedInput only with allow', () => {
    const out = (behavior: string) =>
      JSON.stringify({
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: { behavior, updatedInput: { a: 1 }, message: 'm' },
        },
      });
    expect(readAnswer(ev('PermissionRequest'), exited(0, out('allow')), opts)).toMatchObject({
      decision: 'allow',
      fields: { updatedInput: { a: 1 } },
    });
    expect(readAnswer(ev('PermissionRequest'), exited(0, out('deny')), opts)).toMatchObject({
      decision: 'deny',
      reason: 'm',
      fields: {},
    });
  });

  it('never reads stdout on events that honour no JSON field', () => {
    const a = readAnswer(ev('SessionEnd'), exited(0, '{"continue":false}'), opts);
    expect(a).toMatchObject({ outcome: 'applied', output: null, stop: false });
  });
});

describe('WorktreeCreate', () => {
  it('takes the last non-empty stdout line without ANSI escapes as the path, never JSON', () => {
    const a = readAnswer(ev('WorktreeCreate'), exited(0, 'creating…\n\x1b[32m/tmp/wt\x1b[0m\n\n'), opts);
    expect(a.fields).toEqual({ worktreePath: '/tmp/wt' });
  });
  it('blocks on any non-zero exit', () => {
    expect(readAnswer(ev('WorktreeCreate'), exited(1), opts)).toMatchObject({
      decision: 'block',
      outcome: 'denied',
      blocking: false,
    });
    expect(readAnswer(ev('WorktreeCreate'), exited(2, '', 'no space'), opts)).toMatchObject({
      decision: 'block',
      blocking: true,
      reason: 'no space',
    });
  });
});

describe('timeouts, failures and async', () => {
  it('records a timeout as failed with no decision', () => {
    expect(readAnswer(ev('PreToolUse'), { kind: 'timed_out', timeoutS: 0.3 }, opts)).toMatchObject({
      outcome: 'failed',
      decision: null,
      error: 'hook timed out after 0.3s',
    });
  });

  it('gives an async hook no decision and sends its context to the next turn', () => {
    const ctx = JSON.stringify({
      systemMessage: 'later',
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', additionalContext: 'ctx' },
    });
    const a = readAnswer(ev('PreToolUse'), exited(0, ctx), { ...opts, async: true });
    expect(a).toMatchObject({ outcome: 'applied', decision: null, context: [], nextTurn: ['ctx', 'later'] });
  });

  it('records an asyncRewake exit 2 as rewake with its stderr, else stdout, for the next turn', () => {
    const a = readAnswer(ev('PostToolUse'), exited(2, 'out', 'tests failed'), {
      ...opts,
      async: true,
      asyncRewake: true,
    });
    expect(a).toMatchObject({
      outcome: 'applied',
      decision: 'rewake',
      reason: 'tests failed',
      nextTurn: ['tests failed'],
    });
    const b = readAnswer(ev('PostToolUse'), exited(2, 'from stdout', ''), { ...opts, async: true, asyncRewake: true });
    expect(b.nextTurn).toEqual(['from stdout']);
  });
});

describe('combineAnswers', () => {
  const pre = ev('PreToolUse');
  const entry = (name: string, stdout: string, code = 0, stderr = ''): CombineEntry => ({
    name,
    async: false,
    answer: readAnswer(pre, exited(code, stdout, stderr), { ...opts, name }),
  });
  const decide = (d: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: d,
        permissionDecisionReason: `${d} reason`,
        ...extra,
      },
    });

  it('orders deny > defer > ask > allow, joining the reasons of the deciding hooks', () => {
    const c = combineAnswers(
      pre,
      [entry('a', decide('allow')), entry('b', decide('ask')), entry('c', decide('ask')), entry('d', decide('defer'))],
      {},
    );
    expect(c.verdict).toBe('defer');
    expect(c.reason).toBe('defer reason');
    expect(combineAnswers(pre, [entry('a', decide('ask')), entry('b', decide('ask'))], {}).reason).toBe(
      'ask reason\nask reason',
    );
    expect(combineAnswers(pre, [entry('a', decide('allow')), entry('b', '', 2, 'blocked')], {})).toMatchObject({
      verdict: 'deny',
      reason: 'blocked',
    });
  });

  it('lets continue:false beat every decision, with the first stopReason', () => {
    const c = combineAnswers(
      pre,
      [
        entry('a', decide('deny')),
        entry('b', '{"continue":false,"stopReason":"s1"}'),
        entry('c', '{"continue":false,"stopReason":"s2"}'),
      ],
      {},
    );
    expect(c).toMatchObject({ verdict: 'stop', stop_reason: 's1', reason: 's1\ns2' });
  });

  it('ignores failed hooks (fail-open)', () => {
    expect(combineAnswers(pre, [entry('a', 'junk', 1)], {}).verdict).toBe('pass');
  });

  it('takes updatedInput from the last hook in declaration order, warns on disagreement, and puts it into the payload', () => {
    const c = combineAnswers(
      pre,
      [
        entry('a', decide('allow', { updatedInput: { command: 'one' } })),
        entry('b', decide('allow', { updatedInput: { command: 'two' } })),
      ],
      {
        tool_name: 'Bash',
        tool_input: { command: 'orig' },
      },
    );
    expect(c.outputs).toEqual({ updatedInput: { command: 'two' } });
    expect(c.payload.tool_input).toEqual({ command: 'two' });
    expect(c.warnings).toEqual([
      'updatedInput from 2 hooks (a, b); hookctl used the last in declaration order (b); Claude Code uses whichever finishes last',
    ]);
    const denied = combineAnswers(pre, [entry('a', decide('deny', { updatedInput: { command: 'x' } }))], {
      tool_input: { command: 'orig' },
    });
    expect(denied.payload.tool_input).toEqual({ command: 'orig' });
  });

  it('joins additional context and system messages in declaration order', () => {
    const ups = ev('UserPromptSubmit');
    const c = combineAnswers(
      ups,
      [
        { name: 'a', async: false, answer: readAnswer(ups, exited(0, 'plain'), opts) },
        {
          name: 'b',
          async: false,
          answer: readAnswer(
            ups,
            exited(
              0,
              JSON.stringify({
                systemMessage: 'm',
                hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'json' },
              }),
            ),
            opts,
          ),
        },
      ],
      {},
    );
    expect(c).toMatchObject({ verdict: 'pass', additional_context: 'plain\njson', system_message: 'm' });
  });

  it('never blocks a policy_settings ConfigChange', () => {
    const cc = ev('ConfigChange');
    const block = readAnswer(cc, exited(2, '', 'no'), opts);
    expect(
      combineAnswers(cc, [{ name: 'a', async: false, answer: block }], { source: 'policy_settings' }).verdict,
    ).toBe('pass');
    expect(combineAnswers(cc, [{ name: 'a', async: false, answer: block }], { source: 'user_settings' }).verdict).toBe(
      'block',
    );
  });

  it('maps verdicts to exit codes', () => {
    expect(
      ['pass', 'allow', 'accept', 'deny', 'block', 'stop', 'decline', 'cancel', 'ask', 'defer'].map(verdictExitCode),
    ).toEqual([0, 0, 0, 1, 1, 1, 1, 1, 4, 4]);
  });
});
