import { describe, expect, it } from 'vitest';
import { evaluateCase, payloadDifferences, ranHooks } from '../../src/hooktest/expect.js';
import type { CaseResult, Expectations } from '../../src/hooktest/model.js';

function dispatch(over: Partial<Extract<CaseResult, { kind: 'dispatch' }>> = {}): CaseResult {
  return {
    kind: 'dispatch',
    verdict: 'denied',
    exitCode: 1,
    failed: false,
    reason: 'secret file .env',
    context: null,
    error: null,
    payload: { tool_input: { path: '.env', args: ['a', 'b'] }, denied: true },
    runs: [
      { hook: 'guard', outcome: 'denied', duration_ms: 12 },
      { hook: 'audit', outcome: 'applied', duration_ms: 40 },
      { hook: 'later', outcome: 'skipped', duration_ms: 0 },
    ],
    ...over,
  };
}

const check = (expectations: Expectations | undefined, result: CaseResult = dispatch()) =>
  evaluateCase({ expect: expectations }, result).map((u) => u.message);

describe('evaluateCase', () => {
  it('a case with no expect passes unless the dispatch failed', () => {
    expect(check(undefined)).toEqual([]);
    expect(
      check(
        undefined,
        dispatch({ verdict: 'failed', exitCode: 3, failed: true, error: 'hooks: required hook "g" failed' }),
      ),
    ).toEqual(['dispatch failed: hooks: required hook "g" failed']);
  });

  it('verdict and exit_code are compared exactly', () => {
    expect(check({ verdict: 'denied', exit_code: 1 })).toEqual([]);
    expect(check({ verdict: 'completed', exit_code: 0 })).toEqual([
      'verdict: expected "completed", got "denied"',
      'exit_code: expected 0, got 1',
    ]);
  });

  it('reason and context: exact text or /regex/', () => {
    expect(check({ reason: { kind: 'exact', text: 'secret file .env' } })).toEqual([]);
    expect(check({ reason: { kind: 'exact', text: 'secret' } })).toEqual([
      'reason: expected "secret", got "secret file .env"',
    ]);
    expect(check({ reason: { kind: 'regex', source: 'SECRET', flags: 'i' } })).toEqual([]);
    expect(check({ reason: { kind: 'regex', source: '^file', flags: '' } })).toEqual([
      'reason: expected /^file/, got "secret file .env"',
    ]);
    expect(check({ context: { kind: 'regex', source: '.', flags: '' } })).toEqual(['context: expected /./, got none']);
    expect(check({ context: { kind: 'exact', text: 'policy' } }, dispatch({ context: 'policy' }))).toEqual([]);
  });

  it('ran is exact and ordered; skipped and dropped runs did not run', () => {
    expect(check({ ran: ['guard', 'audit'] })).toEqual([]);
    expect(check({ ran: ['audit', 'guard'] })).toEqual([
      'ran: expected [audit, guard] (in this order), got [guard, audit]',
    ]);
    expect(check({ ran: ['guard'] })).toEqual(['ran: expected [guard] (in this order), got [guard, audit]']);
    expect(check({ ran: ['guard', 'audit', 'later'] })).toHaveLength(1);
    expect(
      ranHooks([
        { hook: 'a', outcome: 'dropped', duration_ms: 0 },
        { hook: 'b', outcome: 'failed', duration_ms: 0 },
      ]),
    ).toEqual(['b']);
  });

  it('not_ran: none of these ran', () => {
    expect(check({ not_ran: ['later', 'other'] })).toEqual([]);
    expect(check({ not_ran: ['audit', 'x'] })).toEqual(['not_ran: [audit] ran (ran: [guard, audit])']);
  });

  it('outcomes: every run of the hook has the outcome; no run fails', () => {
    expect(check({ outcomes: { guard: 'denied', later: 'skipped' } })).toEqual([]);
    expect(check({ outcomes: { guard: 'applied', ghost: 'applied' } })).toEqual([
      'outcomes.guard: expected "applied", got "denied"',
      'outcomes.ghost: expected "applied", got no run',
    ]);
    const twice = dispatch({
      runs: [
        { hook: 'h', outcome: 'applied', duration_ms: 1 },
        { hook: 'h', outcome: 'failed', duration_ms: 1 },
      ],
    });
    expect(check({ outcomes: { h: 'applied' } }, twice)).toEqual([
      'outcomes.h: expected "applied", got [applied, failed]',
    ]);
  });

  it('payload is a deep subset; arrays are exact', () => {
    expect(check({ payload: { tool_input: { path: '.env' } } })).toEqual([]);
    expect(check({ payload: { tool_input: { args: ['a', 'b'] }, denied: true } })).toEqual([]);
    const unmet = evaluateCase(
      { expect: { payload: { tool_input: { path: 'x', args: ['a'], gone: 1 }, denied: 'true' } } },
      dispatch(),
    );
    expect(unmet).toHaveLength(1);
    expect(unmet[0]!.message).toBe('payload: 4 differences from the expected subset');
    expect(unmet[0]!.differences).toEqual([
      { path: 'tool_input.path', expected: 'x', actual: '.env' },
      { path: 'tool_input.args', expected: ['a'], actual: ['a', 'b'] },
      { path: 'tool_input.gone', expected: 1, actual: undefined },
      { path: 'denied', expected: 'true', actual: true },
    ]);
  });

  it('max_duration_ms: the slowest run stays within', () => {
    expect(check({ max_duration_ms: 40 })).toEqual([]);
    expect(check({ max_duration_ms: 39 })).toEqual(['max_duration_ms: expected at most 39 ms, audit took 40 ms']);
    expect(check({ max_duration_ms: 0 }, dispatch({ runs: [] }))).toEqual([]);
  });

  it('a dry run checks ran / not_ran against the hooks that would run', () => {
    const plan: CaseResult = { kind: 'plan', wouldRun: ['a', 'b'] };
    expect(check(undefined, plan)).toEqual([]);
    expect(check({ ran: ['a', 'b'], not_ran: ['c'] }, plan)).toEqual([]);
    expect(check({ ran: ['b'], not_ran: ['a'] }, plan)).toEqual([
      'ran: expected [b] (in this order), would run [a, b]',
      'not_ran: [a] would run (would run: [a, b])',
    ]);
  });
});

describe('payloadDifferences', () => {
  it('names keys that are not plain words in brackets, and compares a change of type whole', () => {
    expect(payloadDifferences({ env: { 'A-B': 1 } }, { env: { 'A-B': 2 } })).toEqual([
      { path: 'env["A-B"]', expected: 1, actual: 2 },
    ]);
    expect(payloadDifferences({ a: { b: 1 } }, { a: [1] })).toEqual([{ path: 'a', expected: { b: 1 }, actual: [1] }]);
    expect(payloadDifferences({ a: [{ b: 1 }] }, { a: [{ b: 1, c: 2 }] })).toEqual([
      { path: 'a', expected: [{ b: 1 }], actual: [{ b: 1, c: 2 }] },
    ]);
    expect(payloadDifferences({ a: null }, { a: null })).toEqual([]);
    expect(payloadDifferences({ a: null }, {})).toEqual([{ path: 'a', expected: null, actual: undefined }]);
    expect(payloadDifferences({}, { a: 1 })).toEqual([]);
  });
});
