// Checking one case's expectations against what firing it gave (SPEC §8). Pure: the same case
// and result always give the same unmet expectations, each with expected, actual and one line.
//
//   verdict, exit_code       equal
//   reason, context          exact text, or /regex/ (a search, as RegExp.test)
//   ran                      exactly these hooks ran, in the order they ran (sync chain, then async)
//   not_ran                  none of these ran
//   outcomes                 every run of the hook has this outcome (a hook with no run fails)
//   payload                  a subset of the final payload: objects key by key, arrays and
//                            every other value exactly
//   max_duration_ms          the slowest run took at most this long
//
// A run counts as "ran" unless its outcome is `skipped` or `dropped` (nothing of the hook ran).
// A dry-run case checks ran / not_ran against the hooks that would run.
import type { CaseResult, CaseRun, Expectations, PayloadDifference, TestCase, TextPattern, Unmet } from './model.js';

const NOT_RUN_OUTCOMES = new Set(['skipped', 'dropped']);

export function ranHooks(runs: readonly CaseRun[]): string[] {
  return runs.filter((r) => !NOT_RUN_OUTCOMES.has(r.outcome)).map((r) => r.hook);
}

export function evaluateCase(testCase: Pick<TestCase, 'expect'>, result: CaseResult): Unmet[] {
  const expect = testCase.expect;
  if (result.kind === 'plan') return expect ? checkRan(expect, result.wouldRun, 'would run') : [];
  if (expect === undefined) {
    return result.failed
      ? [
          unmet(
            'dispatch',
            'not failed',
            result.error ?? result.verdict,
            `dispatch failed: ${result.error ?? result.verdict}`,
          ),
        ]
      : [];
  }
  const out: Unmet[] = [];
  if (expect.verdict !== undefined && expect.verdict !== result.verdict) {
    out.push(
      unmet(
        'verdict',
        expect.verdict,
        result.verdict,
        `verdict: expected ${show(expect.verdict)}, got ${show(result.verdict)}`,
      ),
    );
  }
  if (expect.exit_code !== undefined && expect.exit_code !== result.exitCode) {
    out.push(
      unmet(
        'exit_code',
        expect.exit_code,
        result.exitCode,
        `exit_code: expected ${expect.exit_code}, got ${result.exitCode}`,
      ),
    );
  }
  checkText(out, 'reason', expect.reason, result.reason);
  out.push(...checkRan(expect, ranHooks(result.runs), 'ran'));
  if (expect.outcomes) out.push(...checkOutcomes(expect.outcomes, result.runs));
  if (expect.payload !== undefined) {
    const differences = payloadDifferences(expect.payload, result.payload);
    if (differences.length > 0) {
      const n = differences.length;
      out.push({
        key: 'payload',
        expected: expect.payload,
        actual: result.payload,
        message: `payload: ${n} difference${n === 1 ? '' : 's'} from the expected subset`,
        differences,
      });
    }
  }
  checkText(out, 'context', expect.context, result.context);
  if (expect.max_duration_ms !== undefined) {
    const slowest = slowestRun(result.runs);
    if (slowest && slowest.duration_ms > expect.max_duration_ms) {
      out.push(
        unmet(
          'max_duration_ms',
          expect.max_duration_ms,
          slowest.duration_ms,
          `max_duration_ms: expected at most ${expect.max_duration_ms} ms, ${slowest.hook} took ${slowest.duration_ms} ms`,
        ),
      );
    }
  }
  return out;
}

function checkRan(expect: Expectations, ran: string[], verb: 'ran' | 'would run'): Unmet[] {
  const out: Unmet[] = [];
  if (expect.ran !== undefined && !sameList(expect.ran, ran)) {
    out.push(
      unmet(
        'ran',
        expect.ran,
        ran,
        `ran: expected ${showList(expect.ran)} (in this order), ${verb === 'ran' ? 'got' : 'would run'} ${showList(ran)}`,
      ),
    );
  }
  if (expect.not_ran !== undefined) {
    const present = expect.not_ran.filter((name) => ran.includes(name));
    if (present.length > 0) {
      out.push(
        unmet('not_ran', expect.not_ran, ran, `not_ran: ${showList(present)} ${verb} (${verb}: ${showList(ran)})`),
      );
    }
  }
  return out;
}

function checkOutcomes(expected: Record<string, string>, runs: readonly CaseRun[]): Unmet[] {
  const out: Unmet[] = [];
  for (const [hook, outcome] of Object.entries(expected)) {
    const actual = runs.filter((r) => r.hook === hook).map((r) => r.outcome);
    if (actual.length > 0 && actual.every((o) => o === outcome)) continue;
    const got = actual.length === 0 ? 'no run' : actual.length === 1 ? show(actual[0]) : showList(actual);
    out.push(
      unmet(
        `outcomes.${hook}`,
        outcome,
        actual.length === 1 ? actual[0] : actual,
        `outcomes.${hook}: expected ${show(outcome)}, got ${got}`,
      ),
    );
  }
  return out;
}

function checkText(
  out: Unmet[],
  key: 'reason' | 'context',
  pattern: TextPattern | undefined,
  actual: string | null,
): void {
  if (pattern === undefined || textMatches(pattern, actual)) return;
  out.push(
    unmet(
      key,
      patternText(pattern),
      actual,
      `${key}: expected ${patternText(pattern)}, got ${actual === null ? 'none' : show(actual)}`,
    ),
  );
}

/** `/pattern/flags` is a regular expression; any other text is matched exactly. */
export function parseTextPattern(written: string): TextPattern {
  const m = /^\/(.+)\/([dgimsuvy]*)$/s.exec(written);
  return m ? { kind: 'regex', source: m[1]!, flags: m[2]! } : { kind: 'exact', text: written };
}

export function textMatches(pattern: TextPattern, actual: string | null): boolean {
  if (actual === null) return false;
  if (pattern.kind === 'exact') return pattern.text === actual;
  return new RegExp(pattern.source, pattern.flags).test(actual);
}

function patternText(pattern: TextPattern): string {
  return pattern.kind === 'exact' ? show(pattern.text) : `/${pattern.source}/${pattern.flags}`;
}

/**
 * Where `actual` departs from the subset `expected`: a key of an expected object that is absent
 * or different (objects compared key by key, recursively); arrays, scalars and a change of type
 * compared whole. Paths read `tool_input.path`, `args[0]`, `env["A-B"]`.
 */
export function payloadDifferences(expected: unknown, actual: unknown, path = ''): PayloadDifference[] {
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const out: PayloadDifference[] = [];
    for (const [key, value] of Object.entries(expected)) {
      const child = childPath(path, key);
      if (!Object.hasOwn(actual, key)) out.push({ path: child, expected: value, actual: undefined });
      else out.push(...payloadDifferences(value, actual[key], child));
    }
    return out;
  }
  return deepEqual(expected, actual) ? [] : [{ path, expected, actual }];
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

function slowestRun(runs: readonly CaseRun[]): CaseRun | undefined {
  let slowest: CaseRun | undefined;
  for (const r of runs) if (!slowest || r.duration_ms > slowest.duration_ms) slowest = r;
  return slowest;
}

function childPath(path: string, key: string): string {
  const bare = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key);
  if (bare) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function unmet(key: string, expected: unknown, actual: unknown, message: string): Unmet {
  return { key, expected, actual, message };
}

/** A value in a message: JSON, cut at 80 characters. */
export function show(value: unknown): string {
  if (value === undefined) return 'absent';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function showList(names: readonly string[]): string {
  return `[${names.join(', ')}]`;
}
