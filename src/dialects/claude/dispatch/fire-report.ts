// What a person sees of a claude `fire` and `fire --dry-run` (claude.md §6), as data: the verdict,
// its reason and context, then one row per run (Hook, Type, Outcome, Decision, Duration, Error);
// the plan as Order, Name, Type, Matcher, Matched, If, Gate. src/views/fire.ts paints and fits it.
import {
  type FireReport,
  type ReportTable,
  type ReportText,
  identifier,
  planMatcherText,
  toned,
} from '../../../report.js';
import type { ClaudeDispatchResult } from './dispatch.js';
import type { ClaudePlanEntry } from './plan.js';
import type { DispatchResult } from '../../types.js';

const ALLOWING = new Set(['pass', 'allow', 'accept']);
const ASKING = new Set(['ask', 'defer']);

export function claudeFireReport(result: ClaudeDispatchResult): FireReport {
  const tone = ALLOWING.has(result.verdict) ? 'ok' : ASKING.has(result.verdict) ? 'warning' : 'error';
  const lines: { label: string; text: ReportText }[] = [{ label: 'verdict', text: toned(tone, result.verdict) }];
  const add = (label: string, text: ReportText) => lines.push({ label, text });
  if (result.reason) add('reason', result.reason);
  if (result.stop_reason && result.stop_reason !== result.reason) add('stop', result.stop_reason);
  if (result.additional_context) add('context', result.additional_context);
  if (result.system_message) add('message', result.system_message);
  if (result.next_turn_context) add('next turn', result.next_turn_context);
  for (const [field, value] of Object.entries(result.outputs)) add(field, JSON.stringify(value));
  for (const e of result.env_exports) add('env', [`${e.line}  `, toned('dim', `(${e.hook})`)]);
  lines.push(...noticeLines(result));
  // DispatchResult.terminal_errors (Omit over its index signature drops the declared key).
  const terminalErrors = result.terminal_errors as DispatchResult['terminal_errors'];
  return {
    lines,
    footer: `session ${result.session_id}  dispatch ${result.dispatch_id}  event ${result.event}`,
    noRuns: 'No hooks ran.',
    runs: {
      columns: [identifier('Hook'), 'Type', 'Outcome', 'Decision', 'Duration', { head: 'Error', cutFirst: true }],
      rows: result.runs.map((r) => {
        const rec = r as unknown as Record<string, unknown>;
        return [
          r.hook_name,
          `${String(rec.handler_type)}${r.mode === 'async' ? ' (async)' : ''}`,
          toned(r.outcome === 'failed' ? 'error' : r.outcome === 'denied' ? 'warning' : 'ok', r.outcome),
          r.decision ?? '',
          r.outcome === 'skipped' ? '' : `${r.duration_ms} ms`,
          terminalErrors?.get(r.run_id) ?? r.error ?? (r.outcome === 'skipped' ? String(rec.why ?? '') : ''),
        ];
      }),
    },
  };
}

/** The start of the hook_error notice of an exit code other than 0 and 2 (answer.ts). */
const NON_BLOCKING = 'Failed with non-blocking status code: ';

/** What Claude Code would show of a failed hook (hook_error) or a timeout, with its hook's name. */
function noticeLines(result: ClaudeDispatchResult): { label: string; text: ReportText }[] {
  const lines: { label: string; text: ReportText }[] = [];
  let nonBlocking = false;
  for (const n of result.notifications) {
    if (n.event.kind === 'system_message') continue; // shown as `message`
    const text: ReportText = n.event.message.includes(n.event.hook_name)
      ? toned('warning', n.event.message)
      : [toned('warning', n.event.message), '  ', toned('dim', `(${n.event.hook_name})`)];
    lines.push({ label: 'notice', text });
    if (n.event.kind === 'hook_error' && n.event.message.startsWith(NON_BLOCKING)) nonBlocking = true;
  }
  if (nonBlocking) {
    lines.push({
      label: 'hint',
      text: toned('dim', 'only exit 2 blocks: another exit code is a non-blocking error, and Claude goes on'),
    });
  }
  return lines;
}

export function claudePlanTable(plan: ClaudePlanEntry[]): ReportTable {
  return {
    // The verdict has its own column (as compozy's Matched): a cut Matcher cell never hides it.
    columns: [
      'Order',
      identifier('Name'),
      'Type',
      { head: 'Matcher', cutFirst: true },
      'Matched',
      { head: 'If', cutFirst: true },
      { head: 'Gate', cutFirst: true },
    ],
    rows: plan.map((p) => [
      p.order,
      p.matched ? toned('ok', p.name ?? '') : p.name,
      `${p.handler_type}${p.runnable ? '' : ' (not run)'}`,
      planMatcherText(p),
      p.matched ? toned('ok', 'yes') : toned('warning', 'no'),
      p.if === null
        ? ''
        : `${p.if.rule}: ${p.if.verdict.replace('_', ' ')}${p.if.verdict === 'match' ? '' : ` (${p.if.why})`}`,
      `${p.status}${p.why ? `: ${p.why}` : ''}`,
    ]),
  };
}
