// The human codex fire and dry-run output as data (codex.md §6): verdict, reason, context, then
// the table Hook, Trust, Outcome, Decision, Duration, Error; the plan's table.
import { describe, expect, it } from 'vitest';
import { codexFireReport, codexPlanTable } from '../../src/dialects/codex/fire-report.js';
import type { CodexDispatchResult } from '../../src/dialects/codex/dispatch/dispatch.js';
import type { CodexPlanEntry } from '../../src/dialects/codex/dispatch/plan.js';
import type { RunRecord } from '../../src/ledger/record.js';

const run = (over: Record<string, unknown>) =>
  ({
    run_id: 'r',
    hook_name: 'user/hooks.json:PreToolUse:1.1',
    mode: 'sync',
    outcome: 'applied',
    decision: null,
    duration_ms: 12,
    error: null,
    trust: 'trusted',
    why: null,
    ...over,
  }) as unknown as RunRecord;

const result = (over: Partial<CodexDispatchResult>): CodexDispatchResult => ({
  event: 'PreToolUse',
  dialect: 'codex',
  session_id: 's',
  dispatch_id: 'd',
  verdict: 'pass',
  reason: null,
  stop_reason: null,
  system_message: null,
  additional_context: null,
  feedback: null,
  next_turn_context: null,
  env_exports: [],
  payload: {},
  runs: [],
  skipped_untrusted: [],
  notifications: [],
  unevaluated: [],
  error: null,
  warnings: [],
  ...over,
});

const plain = (t: unknown): string =>
  typeof t === 'string' ? t : Array.isArray(t) ? t.map(plain).join('') : String((t as { text: string }).text);

describe('codex fire report', () => {
  it('verdict, reason, context, and one row per run', () => {
    const report = codexFireReport(
      result({
        verdict: 'deny',
        reason: 'no pushes',
        additional_context: 'ctx',
        runs: [
          run({ outcome: 'denied', decision: 'deny' }),
          run({
            hook_name: 'user/hooks.json:PreToolUse:1.2',
            outcome: 'skipped',
            trust: 'untrusted',
            why: 'untrusted: hook has not been trusted (current hash sha256:x)',
          }),
          run({ hook_name: 'a', mode: 'async', outcome: 'failed', error: 'hook timed out after 1s' }),
        ],
      }),
    );
    expect(report.lines.map((l) => [l.label, plain(l.text)])).toEqual([
      ['verdict', 'deny'],
      ['reason', 'no pushes'],
      ['context', 'ctx'],
    ]);
    expect(report.runs.columns.map((c) => (typeof c === 'string' ? c : c.head))).toEqual([
      'Hook',
      'Trust',
      'Outcome',
      'Decision',
      'Duration',
      'Error',
    ]);
    expect(report.runs.rows.map((r) => r.map((c) => (typeof c === 'number' ? c : plain(c))))).toEqual([
      ['user/hooks.json:PreToolUse:1.1', 'trusted', 'denied', 'deny', '12 ms', ''],
      [
        'user/hooks.json:PreToolUse:1.2',
        'untrusted',
        'skipped',
        '',
        '',
        'untrusted: hook has not been trusted (current hash sha256:x)',
      ],
      ['a (async)', 'trusted', 'failed', '', '12 ms', 'hook timed out after 1s'],
    ]);
  });

  it('a PreToolUse rewrite shows the tool_input it applies; none on a deny', () => {
    const allow = run({ decision: 'allow' });
    const payload = { tool_name: 'Bash', tool_input: { command: 'ls -a' } };
    const shown = codexFireReport(result({ payload, runs: [allow] }));
    expect(shown.lines.map((l) => [l.label, plain(l.text)])).toEqual([
      ['verdict', 'pass'],
      ['input', '{"command":"ls -a"}'],
    ]);
    const denied = codexFireReport(result({ verdict: 'deny', reason: 'no', payload, runs: [allow] }));
    expect(denied.lines.map((l) => l.label)).toEqual(['verdict', 'reason']);
    const plainPass = codexFireReport(result({ payload, runs: [run({})] }));
    expect(plainPass.lines.map((l) => l.label)).toEqual(['verdict']);
  });

  it('the plan table: Order, Name, Trust, Matcher, Matched, Status', () => {
    const entry: CodexPlanEntry = {
      name: 'n',
      source: 'codex_user',
      mode: 'sync',
      order: 1,
      status: 'active',
      why: null,
      trust: 'untrusted',
      handler_type: 'command',
      matched: true,
      fields: [{ field: 'tool_name', pattern: '^Bash$', value: 'Bash', matched: true }],
      runnable: false,
      skipped_why: 'untrusted: hook has not been trusted (current hash sha256:1)',
    };
    const mcp: CodexPlanEntry = {
      ...entry,
      name: 'm',
      trust: 'trusted',
      handler_type: 'mcp_tool',
      skipped_why: 'mcp_tool hooks run only inside Codex',
    };
    const ok: CodexPlanEntry = { ...entry, name: 'ok', trust: 'trusted', runnable: true, skipped_why: null };
    const table = codexPlanTable([entry, mcp, ok]);
    // A hook the fire would skip says why (nothing silent), in the words of its record.
    expect(table.rows.map((r) => r.map((c) => (typeof c === 'number' ? c : plain(c))))).toEqual([
      [
        1,
        'n',
        'untrusted (not run)',
        'tool_name "^Bash$" vs "Bash"',
        'yes',
        'active (not run: untrusted: hook has not been trusted (current hash sha256:1))',
      ],
      [
        1,
        'm',
        'trusted (not run)',
        'tool_name "^Bash$" vs "Bash"',
        'yes',
        'active (not run: mcp_tool hooks run only inside Codex)',
      ],
      [1, 'ok', 'trusted', 'tool_name "^Bash$" vs "Bash"', 'yes', 'active'],
    ]);
  });
});
