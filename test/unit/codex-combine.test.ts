// Combining codex answers (codex.md §5.7): the eight rules, feedback and context joining, the
// updatedInput and additionalContextLimit warnings, and async answers (§5.8).
import { describe, expect, it } from 'vitest';
import { checkAnswer, readCodexAnswer, type CodexAnswer } from '../../src/dialects/codex/dispatch/answer.js';
import { codexEvent } from '../../src/dialects/codex/catalog.js';
import {
  codexVerdictExitCode,
  combineCodexAnswers,
  type AnsweredHook,
} from '../../src/dialects/codex/dispatch/combine.js';

const ev = (name: string) => codexEvent(name)!;
const ans = (event: string, obj: Record<string, unknown>) => checkAnswer(ev(event), obj);
const exit2 = (event: string, stderr: string) =>
  readCodexAnswer(ev(event), { kind: 'exited', code: 2, signal: null, stdout: '', stderr });
const text = (event: string, stdout: string) =>
  readCodexAnswer(ev(event), { kind: 'exited', code: 0, signal: null, stdout, stderr: '' });

function hooks(...answers: (CodexAnswer | [CodexAnswer, Partial<AnsweredHook>])[]): AnsweredHook[] {
  return answers.map((a, i) => {
    const [answer, more] = Array.isArray(a) ? a : [a, {}];
    return { name: `h${i + 1}`, async: false, answer, contextLimit: null, finishedAt: i, ...more };
  });
}
const hso = (event: string, more: Record<string, unknown>) => ({
  hookSpecificOutput: { hookEventName: event, ...more },
});
const P = 'PreToolUse';

describe('codex combine (§5.7)', () => {
  it('1 PreToolUse: any block denies with the first reason in declaration order; no updatedInput then', () => {
    const c = combineCodexAnswers(
      ev(P),
      hooks(
        ans(P, hso(P, { permissionDecision: 'allow', updatedInput: { command: 'ls' } })),
        exit2(P, 'first'),
        ans(P, { decision: 'block', reason: 'second' }),
      ),
      { tool_input: { command: 'rm' } },
    );
    expect(c).toMatchObject({ verdict: 'deny', reason: 'first', payload: { tool_input: { command: 'rm' } } });
    expect(codexVerdictExitCode(c.verdict)).toBe(1);
  });

  it('1 PreToolUse: the last updatedInput in declaration order wins, with a warning naming who finished last', () => {
    const c = combineCodexAnswers(
      ev(P),
      hooks(
        [ans(P, hso(P, { permissionDecision: 'allow', updatedInput: { n: 1 } })), { finishedAt: 5 }],
        [ans(P, {}), { finishedAt: 0 }],
        [ans(P, hso(P, { permissionDecision: 'allow', updatedInput: { n: 3 } })), { finishedAt: 1 }],
      ),
      { tool_input: { n: 0 }, tool_name: 'Bash' },
    );
    expect(c.verdict).toBe('pass');
    expect(c.payload).toEqual({ tool_input: { n: 3 }, tool_name: 'Bash' });
    expect(c.warnings).toEqual([
      'updatedInput from 2 hooks (h1, h3); hookctl used the last in declaration order (h3); Codex uses whichever finishes last (this time: h1)',
    ]);
    expect(codexVerdictExitCode(c.verdict)).toBe(0);
  });

  it('2 PermissionRequest: a deny wins over an allow; else allow; else pass', () => {
    const R = 'PermissionRequest';
    const allow = ans(R, hso(R, { decision: { behavior: 'allow' } }));
    const deny = ans(R, hso(R, { decision: { behavior: 'deny', message: 'nope' } }));
    expect(combineCodexAnswers(ev(R), hooks(allow, deny, exit2(R, 'later')), {})).toMatchObject({
      verdict: 'deny',
      reason: 'nope',
    });
    expect(combineCodexAnswers(ev(R), hooks(ans(R, {}), allow), {}).verdict).toBe('allow');
    expect(combineCodexAnswers(ev(R), hooks(ans(R, {})), {}).verdict).toBe('pass');
  });

  it('3 PostToolUse: stop beats block; feedback joins blocks, exit-2 feedback and stops in order', () => {
    const O = 'PostToolUse';
    const c = combineCodexAnswers(
      ev(O),
      hooks(
        ans(O, { decision: 'block', reason: 'blocked' }),
        exit2(O, 'said on stderr'),
        ans(O, { continue: false, stopReason: 'halt' }),
        ans(O, { continue: false }),
      ),
      {},
    );
    expect(c).toMatchObject({ verdict: 'stop', stop_reason: 'halt' });
    expect(c.feedback).toBe('blocked\n\nsaid on stderr\n\nhalt\n\nPostToolUse hook stopped execution');
    const fb = combineCodexAnswers(ev(O), hooks(exit2(O, 'only feedback')), {});
    expect(fb).toMatchObject({ verdict: 'pass', feedback: 'only feedback' });
    expect(combineCodexAnswers(ev(O), hooks(ans(O, { decision: 'block', reason: 'b' })), {})).toMatchObject({
      verdict: 'block',
      reason: 'b',
    });
  });

  it('4 UserPromptSubmit: stop, else block; reason the first of its kind', () => {
    const U = 'UserPromptSubmit';
    expect(
      combineCodexAnswers(ev(U), hooks(exit2(U, 'blocked'), ans(U, { continue: false, stopReason: 'stopped' })), {}),
    ).toMatchObject({ verdict: 'stop', reason: 'stopped', stop_reason: 'stopped' });
    expect(combineCodexAnswers(ev(U), hooks(ans(U, {}), exit2(U, 'blocked'), exit2(U, 'two')), {})).toMatchObject({
      verdict: 'block',
      reason: 'blocked',
    });
  });

  it('5 Stop and SubagentStop: stop beats block; block reasons join as the continuation prompt', () => {
    for (const S of ['Stop', 'SubagentStop']) {
      expect(
        combineCodexAnswers(ev(S), hooks(exit2(S, 'one'), ans(S, { decision: 'block', reason: 'two' })), {}),
      ).toMatchObject({ verdict: 'block', reason: 'one\n\ntwo' });
      expect(combineCodexAnswers(ev(S), hooks(exit2(S, 'one'), ans(S, { continue: false })), {}).verdict).toBe('stop');
    }
  });

  it('6 SessionStart, PreCompact, PostCompact: stop when any continue:false', () => {
    for (const E of ['SessionStart', 'PreCompact', 'PostCompact']) {
      expect(
        combineCodexAnswers(ev(E), hooks(ans(E, {}), ans(E, { continue: false, stopReason: 'x' })), {}),
      ).toMatchObject({ verdict: 'stop', reason: 'x', stop_reason: 'x' });
      expect(combineCodexAnswers(ev(E), hooks(ans(E, {})), {}).verdict).toBe('pass');
    }
  });

  it('7 additional_context joins every honoured context and plain text in declaration order, kept on stop', () => {
    const S = 'SessionStart';
    const c = combineCodexAnswers(
      ev(S),
      hooks(
        text(S, 'plain one'),
        ans(S, { continue: false, ...hso(S, { additionalContext: 'json two' }) }),
        ans(S, { systemMessage: 'm1' }),
        ans(S, { systemMessage: 'm2' }),
      ),
      {},
    );
    expect(c.additional_context).toBe('plain one\n\njson two');
    expect(c.system_message).toBe('m1\nm2');
    expect(c.verdict).toBe('stop');
  });

  it('8 exit codes: 0 for pass and allow, 1 for deny, block and stop', () => {
    expect(['pass', 'allow', 'deny', 'block', 'stop'].map(codexVerdictExitCode)).toEqual([0, 0, 1, 1, 1]);
  });

  it('warns when a context is over the additionalContextLimit (default 2500, 0 = none)', () => {
    const U = 'UserPromptSubmit';
    const long = 'x'.repeat(10_004);
    const c = combineCodexAnswers(
      ev(U),
      hooks(text(U, long), [text(U, 'y'.repeat(400)), { contextLimit: 10 }], [text(U, long), { contextLimit: 0 }]),
      {},
    );
    expect(c.warnings).toEqual([
      'additionalContext from h1 is about 2501 tokens; Codex replaces contexts over 2500 tokens with a preview and a file path',
      'additionalContext from h2 is about 100 tokens; Codex replaces contexts over 10 tokens with a preview and a file path',
    ]);
    // Kept whole.
    expect(c.additional_context!.length).toBe(10_004 * 2 + 400 + 4);
  });

  it('async answers never change the verdict; their context and messages go to next_turn_context (§5.8)', () => {
    const U = 'UserPromptSubmit';
    const c = combineCodexAnswers(
      ev(U),
      hooks(
        [exit2(U, 'late block'), { async: true }],
        [ans(U, { systemMessage: 'later', ...hso(U, { additionalContext: 'next' }) }), { async: true }],
        text(U, 'now'),
      ),
      {},
    );
    expect(c).toMatchObject({
      verdict: 'pass',
      reason: null,
      additional_context: 'now',
      next_turn_context: 'next\n\nlater',
      system_message: null,
    });
  });
});
