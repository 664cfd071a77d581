// Human views of runs over time (SPEC §9): the sessions table, the stats table, and the lines
// `runs --follow` prints as records arrive. JSON output is the results themselves.
import type { Colour } from '../cli/colour.js';
import { usageError } from '../errors.js';
import { cutToWidth, displayWidth, renderTable } from '../cli/table.js';
import type { RunRecord } from '../ledger/record.js';
import type { SessionSummary } from '../ledger/sessions.js';
import type { RunStatsRow } from '../ledger/stats.js';
import { paintOutcome } from './run-records.js';

export function sessionsTable(sessions: readonly SessionSummary[], colour: Colour): string {
  if (sessions.length === 0) return 'No sessions recorded yet.';
  return renderTable(
    ['Session', 'Dialect', 'Runs', 'Failed', 'Denied', 'First', 'Last'],
    sessions.map((s) => [
      s.session_id,
      s.dialect,
      s.runs,
      countCell(colour, s.outcomes.failed),
      countCell(colour, s.outcomes.denied),
      s.first_recorded_at ?? '-',
      s.last_recorded_at ?? '-',
    ]),
    colour,
  );
}

function countCell(colour: Colour, n: number | undefined): string {
  return n ? colour.paint('error', String(n)) : '0';
}

export function statsTable(rows: readonly RunStatsRow[], colour: Colour): string {
  if (rows.length === 0) return 'No runs match.';
  return renderTable(
    ['Hook', 'Event', 'Dialect', 'Runs', 'Applied', 'Denied', 'Failed', 'Timed out', 'p50', 'p95', 'p99', 'Max'],
    rows.map((r) => [
      r.hook_name,
      r.event,
      r.dialect,
      r.runs,
      r.outcomes.applied ?? 0,
      r.outcomes.denied ?? 0,
      countCell(colour, r.outcomes.failed),
      countCell(colour, r.timed_out),
      `${r.p50_ms} ms`,
      `${r.p95_ms} ms`,
      `${r.p99_ms} ms`,
      `${r.max_ms} ms`,
    ]),
    colour,
  );
}

/**
 * One line per record for `--follow`: the table's columns with fixed widths, since the rows to
 * come are not known when a line is printed.
 */
export function followLine(r: RunRecord, colour: Colour): string {
  const outcome = String(r.outcome ?? '');
  const detail = r.error ?? (r.decision ? `decision: ${r.decision}` : '');
  return [
    colour.paint('dim', String(r.recorded_at ?? '').padEnd(24)),
    fit(String(r.hook_name ?? ''), 28),
    fit(String(r.event ?? ''), 24),
    paintOutcome(outcome, colour) + ' '.repeat(Math.max(0, 9 - outcome.length)),
    `${r.duration_ms} ms`.padStart(9),
    detail ? ` ${detail}` : '',
  ]
    .join(' ')
    .trimEnd();
}

/** How `--follow` prints a record in an output format; `json` cannot stream (a usage error). */
export function followFormat(format: string, colour: Colour): (r: RunRecord) => string {
  if (format === 'json') throw usageError('--follow streams records: use -o jsonl (or human output)');
  return format === 'jsonl' ? (r) => JSON.stringify(r) : (r) => followLine(r, colour);
}

export function followHeader(colour: Colour): string {
  return colour.paint(
    'bold',
    [
      'Recorded'.padEnd(24),
      'Hook'.padEnd(28),
      'Event'.padEnd(24),
      'Outcome'.padEnd(9),
      'Duration'.padStart(9),
      ' Error',
    ].join(' '),
  );
}

/** `text` in exactly `width` columns: cut as the tables cut, else padded. */
function fit(text: string, width: number): string {
  const cut = cutToWidth(text, width);
  return cut + ' '.repeat(Math.max(0, width - displayWidth(cut)));
}

/** What `runs --export otlp` says when it is done. */
export function exportSummary(
  e: { runs: number; dispatches: number; spans: number; logs: number; failures: readonly string[] },
  url: string,
): string {
  const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
  const what = `${n(e.runs, 'run')} of ${n(e.dispatches, 'dispatch', 'dispatches')} to ${url} (${n(e.spans, 'span')}, ${n(e.logs, 'log record')})`;
  return e.failures.length === 0 ? `exported ${what}` : `not all exported: ${what}; see the warnings above`;
}
