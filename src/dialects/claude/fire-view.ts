// Human output of a claude `fire` and `fire --dry-run` (claude.md §6): the verdict, its reason
// and context, then one row per run (Hook, Type, Outcome, Decision, Duration, Error); the plan
// as Order, Name, Type, Matcher, Matched, If, Gate. Formatting only: the results come from the dialect.
import type { Colour } from '../../cli/colour.js';
import { identifier, renderTable } from '../../cli/table.js';
import type { ClaudeDispatchResult } from './dispatch.js';
import type { ClaudePlanEntry } from './plan.js';
import type { DispatchResult } from '../types.js';

const ALLOWING = new Set(['pass', 'allow', 'accept']);
const ASKING = new Set(['ask', 'defer']);

function labelled(colour: Colour, label: string, text: string): string {
  const pad = ' '.repeat(Math.max(1, 9 - label.length));
  return `${colour.paint('bold', label)}${pad}${text.replaceAll('\n', `\n${' '.repeat(label.length + pad.length)}`)}`;
}

export function renderClaudeFire(result: ClaudeDispatchResult, colour: Colour): string {
  const style = ALLOWING.has(result.verdict) ? 'ok' : ASKING.has(result.verdict) ? 'warning' : 'error';
  const lines = [labelled(colour, 'verdict', colour.paint(style, result.verdict))];
  if (result.reason) lines.push(labelled(colour, 'reason', result.reason));
  if (result.stop_reason && result.stop_reason !== result.reason)
    lines.push(labelled(colour, 'stop', result.stop_reason));
  if (result.additional_context) lines.push(labelled(colour, 'context', result.additional_context));
  if (result.system_message) lines.push(labelled(colour, 'message', result.system_message));
  if (result.next_turn_context) lines.push(labelled(colour, 'next turn', result.next_turn_context));
  for (const [field, value] of Object.entries(result.outputs))
    lines.push(labelled(colour, field, JSON.stringify(value)));
  for (const e of result.env_exports)
    lines.push(labelled(colour, 'env', `${e.line}  ${colour.paint('dim', `(${e.hook})`)}`));
  lines.push(...noticeLines(result, colour));
  lines.push(
    colour.paint('dim', `session ${result.session_id}  dispatch ${result.dispatch_id}  event ${result.event}`),
  );
  lines.push('');
  if (result.runs.length === 0) lines.push('No hooks ran.');
  else {
    // DispatchResult.terminal_errors (Omit over its index signature drops the declared key).
    const terminalErrors = result.terminal_errors as DispatchResult['terminal_errors'];
    lines.push(
      renderTable(
        [identifier('Hook'), 'Type', 'Outcome', 'Decision', 'Duration', { head: 'Error', cutFirst: true }],
        result.runs.map((r) => {
          const rec = r as unknown as Record<string, unknown>;
          return [
            r.hook_name,
            `${String(rec.handler_type)}${r.mode === 'async' ? ' (async)' : ''}`,
            colour.paint(r.outcome === 'failed' ? 'error' : r.outcome === 'denied' ? 'warning' : 'ok', r.outcome),
            r.decision ?? '',
            r.outcome === 'skipped' ? '' : `${r.duration_ms} ms`,
            terminalErrors?.get(r.run_id) ?? r.error ?? (r.outcome === 'skipped' ? String(rec.why ?? '') : ''),
          ];
        }),
        colour,
      ),
    );
  }
  return lines.join('\n');
}

/** The start of the hook_error notice of an exit code other than 0 and 2 (answer.ts). */
const NON_BLOCKING = 'Failed with non-blocking status code: ';

/** What Claude Code would show of a failed hook (hook_error) or a timeout, with its hook's name. */
function noticeLines(result: ClaudeDispatchResult, colour: Colour): string[] {
  const lines: string[] = [];
  let nonBlocking = false;
  for (const n of result.notifications) {
    if (n.event.kind === 'system_message') continue; // shown as `message`
    const hook = n.event.message.includes(n.event.hook_name)
      ? ''
      : `  ${colour.paint('dim', `(${n.event.hook_name})`)}`;
    const text = `${colour.paint('warning', n.event.message)}${hook}`;
    lines.push(labelled(colour, 'notice', text));
    if (n.event.kind === 'hook_error' && n.event.message.startsWith(NON_BLOCKING)) nonBlocking = true;
  }
  if (nonBlocking) {
    lines.push(
      labelled(
        colour,
        'hint',
        colour.paint('dim', 'only exit 2 blocks: another exit code is a non-blocking error, and Claude goes on'),
      ),
    );
  }
  return lines;
}

function matcherText(p: ClaudePlanEntry): string {
  const f = p.fields[0];
  if (f === undefined) return '(none)';
  const value = f.value === null || f.value === undefined ? '(absent)' : JSON.stringify(f.value);
  const pattern = f.pattern === null ? '(all)' : JSON.stringify(f.pattern);
  return `${f.field} ${pattern} vs ${value}`;
}

export function renderClaudePlan(event: string, plan: ClaudePlanEntry[], colour: Colour): string {
  if (plan.length === 0) return `No hooks declared for ${event}.`;
  return renderTable(
    // The verdict has its own column (as compozy's Matched): a cut Matcher cell never hides it.
    [
      'Order',
      identifier('Name'),
      'Type',
      { head: 'Matcher', cutFirst: true },
      'Matched',
      { head: 'If', cutFirst: true },
      { head: 'Gate', cutFirst: true },
    ],
    plan.map((p) => [
      p.order,
      p.matched ? colour.paint('ok', p.name ?? '') : p.name,
      `${p.handler_type}${p.runnable ? '' : ' (not run)'}`,
      matcherText(p),
      p.matched ? colour.paint('ok', 'yes') : colour.paint('warning', 'no'),
      p.if === null
        ? ''
        : `${p.if.rule}: ${p.if.verdict.replace('_', ' ')}${p.if.verdict === 'match' ? '' : ` (${p.if.why})`}`,
      `${p.status}${p.why ? `: ${p.why}` : ''}`,
    ]),
    colour,
  );
}
