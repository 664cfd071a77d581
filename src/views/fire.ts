// Human rendering of `hooks fire`: the dry-run plan, and a finished dispatch (verdict, why, the
// runs, the final payload).
import type { Colour } from '../cli/colour.js';
import { identifier, renderTable } from '../cli/table.js';
import type { DryRunResult, FireResult } from '../app/fire.js';
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { PlanEntry } from '../dialects/types.js';
import { dialectNamed } from '../dialects/registry.js';
import { ExitCode } from '../errors.js';
import type { FireReport, ReportTable, ReportText } from '../report.js';
import { TRUNCATION_MARK, type ExecResult } from '../exec/types.js';
import { displayPath } from '../display-path.js';
import { anyDecision, decisionCell, errorCell, paintOutcome } from './run-records.js';

export function renderPlan(plan: DryRunResult, colour: Colour): string {
  if (plan.plan.length === 0) return `No hooks declared for ${plan.event}.`;
  return renderTable(
    ['Order', identifier('Name'), 'Source', 'Mode', 'Matched', { head: 'Why', cutFirst: true }],
    plan.plan.map((p) => [
      p.order,
      p.name,
      p.source,
      p.mode,
      p.matched ? colour.paint('ok', 'yes') : colour.paint('warning', 'no'),
      planWhy(p),
    ]),
    colour,
  );
}

function planWhy(p: PlanEntry): string {
  if (p.status !== 'active') return `${p.status}${p.why ? `: ${p.why}` : ''}`;
  const matchers =
    p.fields.length === 0
      ? '(no matcher)'
      : p.fields
          .map(
            (f) =>
              `${f.field} ${JSON.stringify(f.pattern)} vs ${f.value === undefined ? '(absent)' : JSON.stringify(f.value)}: ${f.matched ? 'match' : 'no match'}`,
          )
          .join('; ');
  // An active declaration with a why loads but never fires or fails (a missing script).
  return p.why ? `${matchers}; ${p.why}` : matchers;
}

/** A text field a dialect's result may carry (deny_reason, reason, …): absent is null. */
function text(result: FireResult, key: string): string | null | undefined {
  const v = result[key];
  return typeof v === 'string' || v === null ? v : undefined;
}

export function renderFireResult(result: FireResult, exitCode: number, colour: Colour): string {
  const b = (t: string) => colour.paint('bold', t);
  const verdictStyle = exitCode === ExitCode.ok ? 'ok' : exitCode === ExitCode.ask ? 'warning' : 'error';
  const lines = [`${b('verdict')}  ${colour.paint(verdictStyle, result.verdict)}`];
  const why = text(result, 'deny_reason') ?? result.error ?? text(result, 'reason') ?? null;
  if (why) lines.push(`${b('reason')}   ${why}`);
  const message = text(result, 'system_message');
  if (message) lines.push(`${b('message')}  ${message}`);
  const context = text(result, 'additional_context');
  if (context) lines.push(`${b('context')}  ${context.replaceAll('\n', '\n         ')}`);
  lines.push(
    colour.paint('dim', `session ${result.session_id}  dispatch ${result.dispatch_id}  event ${result.event}`),
  );
  lines.push('');
  if (result.runs.length === 0) lines.push('No hooks ran.');
  else {
    const decisions = anyDecision(result.runs);
    lines.push(
      renderTable(
        [
          identifier('Hook'),
          'Mode',
          'Outcome',
          ...(decisions ? ['Decision'] : []),
          'Duration',
          { head: 'Error', cutFirst: true },
        ],
        result.runs.map((r) => [
          r.hook_name,
          r.mode,
          paintOutcome(r.outcome, colour),
          ...(decisions ? [decisionCell(r)] : []),
          `${r.duration_ms} ms`,
          result.terminal_errors?.get(r.run_id) ?? errorCell(r),
        ]),
        colour,
      ),
    );
  }
  const queued = typeof result.async_queued === 'number' ? result.async_queued : 0;
  if (queued) lines.push(colour.paint('dim', `${queued} async ${queued === 1 ? 'hook' : 'hooks'} queued`));
  lines.push('', b('payload'), JSON.stringify(result.payload, null, 2));
  return lines.join('\n');
}

/**
 * The first line of `fire` and `fire --dry-run` for every dialect: whose hooks answer the event
 * (an event several dialects know is never fired by one the user did not expect, unseen).
 */
export function dialectLine(dialect: string, colour: Colour, dryRun = false): string {
  const dry = dryRun ? colour.paint('dim', '  (dry run: nothing runs, nothing is recorded)') : '';
  return `${colour.paint('bold', 'dialect')}  ${dialect}${dry}`;
}

/** The dispatching dialect's own report when it has one (claude), else the shared view. */
export async function renderFire(result: FireResult, exitCode: number, colour: Colour): Promise<string> {
  const reports = await dialectNamed(result.dialect)?.fireReports?.();
  const body = reports
    ? renderFireReport(reports.result(result, exitCode), colour)
    : renderFireResult(result, exitCode, colour);
  return `${dialectLine(result.dialect, colour)}\n${body}`;
}

export async function renderDryRun(plan: DryRunResult, colour: Colour): Promise<string> {
  const reports = await dialectNamed(plan.dialect)?.fireReports?.();
  const body =
    reports === undefined
      ? renderPlan(plan, colour)
      : plan.plan.length === 0
        ? `No hooks declared for ${plan.event}.`
        : renderReportTable(reports.plan(plan), colour);
  return `${dialectLine(plan.dialect, colour, true)}\n${body}`;
}

/** A dialect's fire report: each label bold and padded to one column, the footer dim, the runs. */
export function renderFireReport(report: FireReport, colour: Colour): string {
  const lines = report.lines.map(({ label, text }) => {
    const pad = ' '.repeat(Math.max(1, 9 - label.length));
    const indent = '\n' + ' '.repeat(label.length + pad.length);
    return `${colour.paint('bold', label)}${pad}${paintText(text, colour).replaceAll('\n', indent)}`;
  });
  lines.push(colour.paint('dim', report.footer), '');
  lines.push(report.runs.rows.length === 0 ? report.noRuns : renderReportTable(report.runs, colour));
  return lines.join('\n');
}

export function renderReportTable(table: ReportTable, colour: Colour): string {
  return renderTable(
    [...table.columns],
    table.rows.map((row) =>
      row.map((cell) => (typeof cell === 'number' || cell === null ? cell : paintText(cell, colour))),
    ),
    colour,
  );
}

/** Text of a report in its tones. */
function paintText(text: ReportText, colour: Colour): string {
  if (typeof text === 'string') return text;
  if ('tone' in text) return colour.paint(text.tone, text.text);
  return text.map((piece) => paintText(piece, colour)).join('');
}

/**
 * `fire --skip-invalid`: one stderr line per declaration error that was skipped instead of
 * refused, naming the declaration when the error belongs to one.
 */
export function renderSkippedInvalid(errors: Diagnostic[]): string {
  return errors
    .map((d) => {
      const name = d.hook ? `${JSON.stringify(d.hook)} at ` : '';
      return `hookctl: warning: skipped (invalid): ${name}${displayPath(d.file)}:${d.line}: ${d.message}\n`;
    })
    .join('');
}

/** `fire --dry-run` on a dialect whose sources have errors: why `fire` would refuse, on stderr. */
export function renderWouldRefuse(event: string, errors: Diagnostic[]): string {
  return errors
    .map((d) => `hookctl: warning: fire would refuse "${event}": ${displayPath(d.file)}:${d.line}: ${d.message}\n`)
    .join('');
}

/**
 * `fire --verbose` (SPEC §7.3): after each run, what the hook printed, each line marked with the
 * stream it came from, capped as captured. For hookctl's stderr: it is shown, never recorded.
 */
export function renderHookOutput(hook: string, exec: ExecResult): string {
  const how = exec.startError
    ? `did not start: ${exec.startError.message}`
    : `${exec.timedOut ? 'timed out' : exec.signal ? `killed by ${exec.signal}` : `exit ${exec.exitCode}`}, ${Math.round(exec.durationMs)} ms`;
  const lines = [`hookctl: hook "${hook}" (${how})`];
  const stream = (mark: string, text: string | undefined, bytes: number) => {
    if (!text) return void lines.push(`${mark} (${bytes === 0 ? 'nothing' : `${bytes} bytes, none captured`})`);
    const shown = capForTerminal(exec.truncated ? text.replace(TRUNCATION_MARK_AT_END, '') : text, bytes);
    for (const line of shown.replace(/\n$/, '').split('\n')) lines.push(`${mark} ${line}`);
  };
  stream('[stdout]', exec.stdout, exec.stdoutBytes);
  stream('[stderr]', exec.stderr, exec.stderrBytes);
  return lines.join('\n') + '\n';
}

/**
 * `fire --verbose` shows at most this much of each stream (docs/DESIGN.md): enough for a
 * traceback's last lines or a JSON answer, while a hook that prints a megabyte cannot flood the
 * terminal. What the hook wrote past it is counted, not shown.
 */
export const VERBOSE_STREAM_LIMIT_BYTES = 4 * 1024;

const TRUNCATION_MARK_AT_END = new RegExp(`${TRUNCATION_MARK.replace(/[.[\]]/g, '\\$&')}$`);

/**
 * The first VERBOSE_STREAM_LIMIT_BYTES of `text` (never half a character), and where anything was
 * cut, by hookctl here or by the executor's capture, `…[truncated N bytes]`: N counts every byte
 * the hook wrote that is not shown.
 */
function capForTerminal(text: string, writtenBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  const shown =
    bytes.length > VERBOSE_STREAM_LIMIT_BYTES
      ? new TextDecoder().decode(bytes.subarray(0, VERBOSE_STREAM_LIMIT_BYTES), { stream: true })
      : text;
  const omitted = writtenBytes - Buffer.byteLength(shown, 'utf8');
  return omitted > 0 ? `${shown}…[truncated ${omitted} bytes]` : shown;
}
