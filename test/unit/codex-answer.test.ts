// One codex hook's answer (codex.md §5.4) and the strict check of its JSON (§5.5), table-driven
// over every event and every rule, with Codex's exact messages.
import { describe, expect, it } from 'vitest';
import { readCodexAnswer, type CodexAnswer } from '../../src/dialects/codex/dispatch/answer.js';
import { codexCatalogEvents, codexEvent } from '../../src/dialects/codex/catalog.js';
import type { CodexEventData } from '../../src/dialects/codex/catalog-types.js';

const ev = (name: string): CodexEventData => codexEvent(name)!;
const exited = (code: number | null, stdout = '', stderr = '', signal: string | null = null) =>
  ({ kind: 'exited', code, signal, stdout, stderr }) as const;
const json = (event: string, obj: unknown): CodexAnswer => readCodexAnswer(ev(event), exited(0, JSON.stringify(obj)));
const hso = (event: string, more: Record<string, unknown> = {}) => ({ hookEventName: event, ...more });

const ALL = codexCatalogEvents().map((e) => e.name);
const EXIT2 = ALL.filter((e) => ev(e).exit2 !== null);

describe('codex answer: the process (§5.4)', () => {
  it.each(ALL)('%s: a spawn failure and a timeout fail with their own message', (e) => {
    expect(readCodexAnswer(ev(e), { kind: 'failed', message: 'spawn /bin/nope ENOENT' })).toMatchObject({
      outcome: 'failed',
      codexStatus: 'failed',
      error: 'spawn /bin/nope ENOENT',
    });
    expect(readCodexAnswer(ev(e), { kind: 'timed_out', timeoutS: 3 })).toMatchObject({
      outcome: 'failed',
      error: 'hook timed out after 3s',
      timedOut: true,
      decision: null,
    });
  });

  it.each(ALL)('%s: killed by a signal', (e) => {
    const expected = ['PreCompact', 'PostCompact', 'SessionEnd'].includes(e)
      ? 'hook process terminated without an exit code'
      : 'hook exited without a status code';
    expect(readCodexAnswer(ev(e), exited(null, '', '', 'SIGKILL'))).toMatchObject({
      outcome: 'failed',
      error: expected,
    });
  });

  it.each(ALL)('%s: exit 0 with blank stdout is applied', (e) => {
    expect(readCodexAnswer(ev(e), exited(0, ' \n\t'))).toMatchObject({
      outcome: 'applied',
      decision: null,
      codexStatus: 'completed',
      output: 'empty',
    });
  });

  it.each(EXIT2)('%s: exit 2 with stderr is the event exit2 decision, with the trimmed stderr as reason', (e) => {
    const a = readCodexAnswer(ev(e), exited(2, 'ignored', '  no way \n'));
    expect(a.decision).toBe(ev(e).exit2);
    expect(a.reason).toBe('no way');
    expect(a.outcome).toBe(ev(e).exit2 === 'feedback' ? 'applied' : 'denied');
    expect(a.codexStatus).toBe('blocked');
  });

  it.each(EXIT2)('%s: exit 2 with blank stderr fails with the event exit2_empty_error', (e) => {
    expect(readCodexAnswer(ev(e), exited(2, '', ' \n'))).toMatchObject({
      outcome: 'failed',
      error: ev(e).exit2_empty_error,
    });
  });

  it('the exact exit2_empty_error of PreToolUse', () => {
    expect(readCodexAnswer(ev('PreToolUse'), exited(2)).error).toBe(
      'PreToolUse hook exited with code 2 but did not write a blocking reason to stderr',
    );
  });

  it.each(ALL)(
    '%s: another exit code (and exit 2 without an exit2 effect) fails; stderr never reaches the record',
    (e) => {
      const compact = ['PreCompact', 'PostCompact', 'SessionEnd'].includes(e);
      const boom = readCodexAnswer(ev(e), exited(3, '', 'boom\nmore\n'));
      expect(boom.error).toBe('hook exited with code 3');
      // Codex's own wording on these events is the stderr: the terminal gets it, as a warning
      expect(boom.warnings).toEqual(compact ? ['Codex reports this failure as: boom'] : []);
      expect(readCodexAnswer(ev(e), exited(3, '', '')).error).toBe('hook exited with code 3');
      if (ev(e).exit2 === null) {
        expect(readCodexAnswer(ev(e), exited(2, '', 'x')).error).toBe('hook exited with code 2');
      }
    },
  );

  it.each(ALL.filter((e) => e !== 'SessionEnd'))('%s: stdout that looks like JSON but is not fails', (e) => {
    for (const text of ['{nope', '[1,2]', '{"a":1} trailing']) {
      expect(readCodexAnswer(ev(e), exited(0, text))).toMatchObject({
        outcome: 'failed',
        error: ev(e).invalid_json_error,
      });
    }
  });

  it('SessionEnd never reads stdout', () => {
    for (const text of ['{nope', 'plain', '{"decision":"block"}']) {
      expect(readCodexAnswer(ev('SessionEnd'), exited(0, text)).outcome).toBe('applied');
    }
  });

  it.each(ALL.filter((e) => e !== 'SessionEnd'))('%s: plain text per plain_stdout', (e) => {
    const a = readCodexAnswer(ev(e), exited(0, '  some words \n'));
    const rule = ev(e).plain_stdout;
    if (rule === 'context') expect(a).toMatchObject({ outcome: 'applied', context: 'some words', output: 'text' });
    else if (rule === 'failed') expect(a).toMatchObject({ outcome: 'failed', error: ev(e).plain_stdout_error });
    else expect(a).toMatchObject({ outcome: 'applied', context: null, output: 'text' });
  });

  it('the exact plain-text errors of Stop, SubagentStop, Interrupt', () => {
    expect(readCodexAnswer(ev('Stop'), exited(0, 'x')).error).toBe('hook returned invalid stop hook JSON output');
    expect(readCodexAnswer(ev('SubagentStop'), exited(0, 'x')).error).toBe(
      'hook returned invalid subagent stop hook JSON output',
    );
    expect(readCodexAnswer(ev('Interrupt'), exited(0, 'x')).error).toBe('Interrupt hook returned non-JSON stdout');
  });
});

describe('codex answer: decoding (§5.5)', () => {
  it.each(ALL.filter((e) => e !== 'SessionEnd'))('%s: an unknown top-level key fails as invalid JSON', (e) => {
    expect(json(e, { nonsense: 1 })).toMatchObject({ outcome: 'failed', error: ev(e).invalid_json_error });
  });

  it.each(ALL.filter((e) => e !== 'SessionEnd' && e !== 'Interrupt'))(
    '%s: the universal keys decode; wrong types fail',
    (e) => {
      const a = json(e, { systemMessage: 'hi' });
      expect(a.outcome).toBe('applied');
      expect(a.systemMessage).toBe('hi');
      for (const bad of [{ continue: 'no' }, { stopReason: 1 }, { suppressOutput: 'x' }, { systemMessage: 2 }]) {
        expect(json(e, bad)).toMatchObject({ outcome: 'failed', error: ev(e).invalid_json_error });
      }
    },
  );

  it('Interrupt accepts only systemMessage', () => {
    expect(json('Interrupt', { systemMessage: 'bye' })).toMatchObject({ outcome: 'applied', systemMessage: 'bye' });
    for (const k of ['continue', 'stopReason', 'suppressOutput', 'decision', 'hookSpecificOutput']) {
      expect(json('Interrupt', { [k]: true })).toMatchObject({
        outcome: 'failed',
        error: 'hook returned invalid interrupt hook JSON output',
      });
    }
  });

  const WITH_HSO = ALL.filter((e) => ev(e).output_fields.includes('hookSpecificOutput'));
  const WITHOUT_HSO = ALL.filter((e) => !ev(e).output_fields.includes('hookSpecificOutput') && e !== 'SessionEnd');

  it.each(WITH_HSO)('%s: hookSpecificOutput needs a known hookEventName and only its keys', (e) => {
    expect(json(e, { hookSpecificOutput: {} }).error).toBe(ev(e).invalid_json_error);
    expect(json(e, { hookSpecificOutput: { hookEventName: 'Nope' } }).error).toBe(ev(e).invalid_json_error);
    expect(json(e, { hookSpecificOutput: hso(e, { extra: 1 }) }).error).toBe(ev(e).invalid_json_error);
    expect(json(e, { hookSpecificOutput: hso(e) }).outcome).toBe('applied');
  });

  it.each(WITH_HSO)('%s: another event name in hookEventName is accepted with a warning', (e) => {
    const other = e === 'Stop' ? 'PreToolUse' : 'Stop';
    const a = json(e, { hookSpecificOutput: { hookEventName: other } });
    expect(a.outcome).toBe('applied');
    expect(a.warnings).toEqual([`hookSpecificOutput.hookEventName "${other}" is not the fired event "${e}"; accepted`]);
  });

  it.each(WITHOUT_HSO)('%s: hookSpecificOutput is an unknown key', (e) => {
    expect(json(e, { hookSpecificOutput: hso(e) }).error).toBe(ev(e).invalid_json_error);
  });

  it('PostToolUse updatedToolOutput is an unknown key (D3)', () => {
    expect(json('PostToolUse', { hookSpecificOutput: hso('PostToolUse', { updatedToolOutput: 'x' }) }).error).toBe(
      'hook returned invalid post-tool-use JSON output',
    );
  });

  it.each(ALL.filter((e) => ev(e).additional_context))('%s: additionalContext is honoured', (e) => {
    expect(json(e, { hookSpecificOutput: hso(e, { additionalContext: 'ctx' }) }).context).toBe('ctx');
  });

  it('a decision value outside the enum fails to decode', () => {
    expect(json('Stop', { decision: 'allow' }).error).toBe('hook returned invalid stop hook JSON output');
    expect(json('PreToolUse', { hookSpecificOutput: hso('PreToolUse', { permissionDecision: 'maybe' }) }).error).toBe(
      'hook returned invalid pre-tool-use JSON output',
    );
  });
});

type Row = [event: string, answer: Record<string, unknown>, expected: Partial<CodexAnswer>];

const P = 'PreToolUse';
const R = 'PermissionRequest';
const O = 'PostToolUse';
const failedWith = (error: string): Partial<CodexAnswer> => ({ outcome: 'failed', codexStatus: 'failed', error });

const RULES: Row[] = [
  // PreToolUse
  [P, { continue: false }, failedWith('PreToolUse hook returned unsupported continue:false')],
  [P, { stopReason: 'x' }, failedWith('PreToolUse hook returned unsupported stopReason')],
  [P, { suppressOutput: true }, failedWith('PreToolUse hook returned unsupported suppressOutput')],
  [P, { suppressOutput: false }, { outcome: 'applied' }],
  [
    P,
    { hookSpecificOutput: hso(P, { updatedInput: { a: 1 } }) },
    failedWith('PreToolUse hook returned updatedInput without permissionDecision:allow'),
  ],
  [
    P,
    { hookSpecificOutput: hso(P, { permissionDecision: 'deny', updatedInput: {} }) },
    failedWith('PreToolUse hook returned updatedInput without permissionDecision:allow'),
  ],
  [
    P,
    { hookSpecificOutput: hso(P, { permissionDecision: 'allow' }) },
    failedWith('PreToolUse hook returned unsupported permissionDecision:allow'),
  ],
  [
    P,
    { hookSpecificOutput: hso(P, { permissionDecision: 'ask' }) },
    failedWith('PreToolUse hook returned unsupported permissionDecision:ask'),
  ],
  [
    P,
    { hookSpecificOutput: hso(P, { permissionDecision: 'deny', permissionDecisionReason: '  ' }) },
    failedWith('PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason'),
  ],
  [
    P,
    { hookSpecificOutput: hso(P, { permissionDecisionReason: 'why' }) },
    failedWith('PreToolUse hook returned permissionDecisionReason without permissionDecision'),
  ],
  [
    P,
    { hookSpecificOutput: hso(P, { permissionDecision: 'deny', permissionDecisionReason: ' no ' }) },
    { outcome: 'denied', decision: 'deny', reason: 'no', codexStatus: 'blocked' },
  ],
  [
    P,
    { hookSpecificOutput: hso(P, { permissionDecision: 'allow', updatedInput: { command: 'ls' } }) },
    { outcome: 'applied', decision: 'allow', updatedInput: { command: 'ls' }, codexStatus: 'completed' },
  ],
  [P, { decision: 'approve' }, failedWith('PreToolUse hook returned unsupported decision:approve')],
  [P, { decision: 'block' }, failedWith('PreToolUse hook returned decision:block without a non-empty reason')],
  [P, { reason: 'r' }, failedWith('PreToolUse hook returned reason without decision')],
  [P, { decision: 'block', reason: 'legacy' }, { outcome: 'denied', decision: 'block', reason: 'legacy' }],
  // PermissionRequest
  [R, { continue: false }, failedWith('PermissionRequest hook returned unsupported continue:false')],
  [R, { stopReason: 'x' }, failedWith('PermissionRequest hook returned unsupported stopReason')],
  [R, { suppressOutput: true }, failedWith('PermissionRequest hook returned unsupported suppressOutput')],
  [
    R,
    { hookSpecificOutput: hso(R, { decision: { behavior: 'allow', updatedInput: {} } }) },
    failedWith('PermissionRequest hook returned unsupported updatedInput'),
  ],
  [
    R,
    { hookSpecificOutput: hso(R, { decision: { behavior: 'allow', updatedPermissions: [] } }) },
    failedWith('PermissionRequest hook returned unsupported updatedPermissions'),
  ],
  [
    R,
    { hookSpecificOutput: hso(R, { decision: { behavior: 'deny', interrupt: true } }) },
    failedWith('PermissionRequest hook returned unsupported interrupt:true'),
  ],
  [R, { hookSpecificOutput: hso(R, { decision: { behavior: 'allow' } }) }, { outcome: 'applied', decision: 'allow' }],
  [
    R,
    { hookSpecificOutput: hso(R, { decision: { behavior: 'deny' } }) },
    { outcome: 'denied', decision: 'deny', reason: 'PermissionRequest hook denied approval' },
  ],
  [
    R,
    { hookSpecificOutput: hso(R, { decision: { behavior: 'deny', message: 'not here', interrupt: false } }) },
    { outcome: 'denied', decision: 'deny', reason: 'not here' },
  ],
  [R, { decision: 'block' }, failedWith('hook returned invalid permission-request JSON output')],
  // PostToolUse
  [O, { suppressOutput: true }, failedWith('PostToolUse hook returned unsupported suppressOutput')],
  [
    O,
    { hookSpecificOutput: hso(O, { updatedMCPToolOutput: { x: 1 } }) },
    failedWith('PostToolUse hook returned unsupported updatedMCPToolOutput'),
  ],
  [O, { decision: 'block' }, failedWith('PostToolUse hook returned decision:block without a non-empty reason')],
  [O, { reason: 'r' }, failedWith('PostToolUse hook returned reason without decision')],
  [O, { decision: 'block', reason: 'bad' }, { outcome: 'denied', decision: 'block', reason: 'bad', feedback: 'bad' }],
  [
    O,
    { continue: false, stopReason: 'halt' },
    { outcome: 'denied', decision: 'stop', stopReason: 'halt', feedback: 'halt', codexStatus: 'stopped' },
  ],
  [O, { continue: false }, { decision: 'stop', feedback: 'PostToolUse hook stopped execution' }],
  [O, { continue: false, reason: 'model text', stopReason: 's' }, { decision: 'stop', feedback: 'model text' }],
  // continue:false is read before the rules that would fail it; its context is then dropped.
  [
    O,
    { continue: false, suppressOutput: true, hookSpecificOutput: hso(O, { additionalContext: 'c' }) },
    { decision: 'stop', context: null },
  ],
  [O, { continue: false, hookSpecificOutput: hso(O, { additionalContext: 'c' }) }, { decision: 'stop', context: 'c' }],
  [
    O,
    { continue: false, hookSpecificOutput: hso(O, { updatedMCPToolOutput: 1 }) },
    { decision: 'stop', outcome: 'denied' },
  ],
  [O, { continue: false, decision: 'block' }, { decision: 'stop', outcome: 'denied' }],
];

for (const e of ['UserPromptSubmit', 'Stop', 'SubagentStop']) {
  RULES.push(
    [e, { decision: 'block' }, failedWith(`${e} hook returned decision:block without a non-empty reason`)],
    [e, { decision: 'block', reason: ' ' }, failedWith(`${e} hook returned decision:block without a non-empty reason`)],
    [e, { decision: 'block', reason: 'again' }, { outcome: 'denied', decision: 'block', reason: 'again' }],
    [e, { continue: false, stopReason: 'enough' }, { outcome: 'denied', decision: 'stop', stopReason: 'enough' }],
    [e, { continue: false, decision: 'block' }, { decision: 'stop' }],
    [e, { suppressOutput: true }, { outcome: 'applied' }],
  );
}
for (const e of ['SessionStart', 'PreCompact', 'PostCompact']) {
  RULES.push(
    [e, { continue: false, stopReason: 'no' }, { outcome: 'denied', decision: 'stop', reason: 'no', stopReason: 'no' }],
    [e, { continue: true, suppressOutput: true }, { outcome: 'applied', decision: null }],
  );
}
RULES.push(
  ['SubagentStart', { continue: false, stopReason: 'x' }, { outcome: 'applied', decision: null }],
  ['SessionStart', { decision: 'block', reason: 'x' }, failedWith('hook returned invalid session start JSON output')],
);

describe('codex answer: the rules of every event (§5.5)', () => {
  it.each(RULES)('%s %j', (event, answer, expected) => {
    expect(json(event, answer)).toMatchObject(expected);
  });

  it('a failed check keeps systemMessage and nothing else', () => {
    const a = json(P, {
      systemMessage: 'heads up',
      hookSpecificOutput: hso(P, { permissionDecision: 'ask', additionalContext: 'dropped' }),
    });
    expect(a).toMatchObject({ outcome: 'failed', systemMessage: 'heads up', context: null, decision: null });
  });

  it('an answer that does not decode keeps no systemMessage', () => {
    expect(json(P, { systemMessage: 'x', bogus: 1 })).toMatchObject({ outcome: 'failed', systemMessage: null });
  });
});
