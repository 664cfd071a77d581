// What a person sees of a codex `fire` and `fire --dry-run` (codex.md §6), as data: the verdict,
// its reason and context, then one row per run (Hook, Trust, Outcome, Decision, Duration, Error);
// the plan as Order, Name, Trust, Matcher, Matched, Status. src/views/fire.ts paints and fits it.
import {
  type FireReport,
  type ReportTable,
  type ReportText,
  identifier,
  planMatcherText,
  toned,
} from '../../report.js';
import type { DispatchResult } from '../types.js';
import type { CodexDispatchResult } from './dispatch/dispatch.js';
import type { CodexPlanEntry } from './dispatch/plan.js';

export function codexFireReport(result: CodexDispatchResult): FireReport {
  const tone = result.verdict === 'pass' || result.verdict === 'allow' ? 'ok' : 'error';
  const lines: { label: string; text: ReportText }[] = [{ label: 'verdict', text: toned(tone, result.verdict) }];
  const add = (label: string, text: ReportText) => lines.push({ label, text });
  if (result.reason) add('reason', result.reason);
  if (result.stop_reason && result.stop_reason !== result.reason) add('stop', result.stop_reason);
  if (result.feedback && result.feedback !== result.reason) add('feedback', result.feedback);
  if (result.additional_context) add('context', result.additional_context);
  if (result.system_message) add('message', result.system_message);
  if (result.next_turn_context) add('next turn', result.next_turn_context);
  // A PreToolUse allow carries an updatedInput (§5.5), applied unless the verdict is deny (§5.7
  // rule 1): the person sees the tool_input Codex would run, as -o json's payload has it.
  if (
    result.event === 'PreToolUse' &&
    result.verdict !== 'deny' &&
    result.runs.some((r) => r.decision === 'allow' && r.mode === 'sync')
  )
    add('input', JSON.stringify(result.payload.tool_input));
  for (const e of result.env_exports) add('env', [`${e.line}  `, toned('dim', `(${e.hook})`)]);
  // DispatchResult.terminal_errors (the index signature hides the declared key).
  const terminalErrors = result.terminal_errors as DispatchResult['terminal_errors'];
  return {
    lines,
    footer: `session ${result.session_id}  dispatch ${result.dispatch_id}  event ${result.event}`,
    noRuns: 'No hooks ran.',
    runs: {
      columns: [identifier('Hook'), 'Trust', 'Outcome', 'Decision', 'Duration', { head: 'Error', cutFirst: true }],
      rows: result.runs.map((r) => {
        const rec = r as unknown as Record<string, unknown>;
        const trust = String(rec.trust ?? '');
        return [
          `${r.hook_name}${r.mode === 'async' ? ' (async)' : ''}`,
          trust === 'untrusted' || trust === 'modified' ? toned('warning', trust) : trust,
          toned(
            r.outcome === 'failed' ? 'error' : r.outcome === 'denied' || r.outcome === 'skipped' ? 'warning' : 'ok',
            r.outcome,
          ),
          r.decision ?? '',
          r.outcome === 'skipped' ? '' : `${r.duration_ms} ms`,
          terminalErrors?.get(r.run_id) ?? r.error ?? (r.outcome === 'skipped' ? String(rec.why ?? '') : ''),
        ];
      }),
    },
  };
}

export function codexPlanTable(plan: CodexPlanEntry[]): ReportTable {
  return {
    columns: [
      'Order',
      identifier('Name'),
      'Trust',
      { head: 'Matcher', cutFirst: true },
      'Matched',
      { head: 'Status', cutFirst: true },
    ],
    rows: plan.map((p) => [
      p.order,
      p.matched ? toned('ok', p.name ?? '') : p.name,
      `${p.trust}${p.runnable ? '' : ' (not run)'}`,
      planMatcherText(p),
      p.matched ? toned('ok', 'yes') : toned('warning', 'no'),
      // A hook the fire would skip says why here, as its record would (nothing silent).
      `${p.status}${p.why ? `: ${p.why}` : ''}${p.skipped_why ? ` (not run: ${p.skipped_why})` : ''}`,
    ]),
  };
}
