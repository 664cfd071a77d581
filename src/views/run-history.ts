// Human views of runs over time (SPEC §9): the sessions table, the stats table, and the lines
// `runs --follow` prints as records arrive. JSON output is the results themselves.
import type { Colour } from '../cli/colour.js';
import { usageError } from '../errors.js';
import { identifier, renderTable, StreamTable } from '../cli/table.js';
import type { RunRecord } from '../ledger/record.js';
import type { SessionSummary } from '../ledger/sessions.js';
import type { RunStatsRow } from '../ledger/stats.js';
import { errorCell, paintOutcome, runColumns } from './run-records.js';

export function sessionsTable(sessions: readonly SessionSummary[], colour: Colour): string {
  if (sessions.length === 0) return 'No sessions recorded yet.';
  return renderTable(
    [
      identifier('Session'),
      { head: 'Dialect', dropOrder: 1 },
      'Runs',
      'Failed',
      { head: 'Denied', dropOrder: 2 },
      { head: 'First', timestamp: true, dropOrder: 3 },
      { head: 'Last', timestamp: true },
    ],
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
    // Hook and Event whole; what a narrow terminal leaves out first: the dialect (in the hook's
    // name for claude), the counts that Runs and the others imply, the percentiles; Max and the
    // Denied and Failed counts stay longest.
    [
      identifier('Hook'),
      identifier('Event'),
      { head: 'Dialect', dropOrder: 1 },
      'Runs',
      { head: 'Applied', dropOrder: 2 },
      { head: 'Denied', dropOrder: 7 },
      'Failed',
      { head: 'Timed out', dropOrder: 3 },
      { head: 'p50', dropOrder: 6 },
      { head: 'p95', dropOrder: 4 },
      { head: 'p99', dropOrder: 5 },
      'Max',
    ],
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

/** How wide `--follow`'s columns start (a longer name widens its column from its row on). */
const FOLLOW_MIN_WIDTHS = [22, 18, 8, 8, 0, 24];

/**
 * How `--follow` prints records in an output format: human lines have the columns and order of
 * `runs` (a decision, which `runs` gives its own column, goes in Error: a stream cannot know
 * whether a later record has one), laid out for the terminal a line at a time. `json` cannot
 * stream (a usage error).
 */
export function followFormat(
  format: string,
  colour: Colour,
  opts: { maxWidth?: number | null } = {},
): { header?: string; line: (r: RunRecord) => string } {
  if (format === 'json') throw usageError('--follow streams records: use -o jsonl (or human output)');
  if (format === 'jsonl') return { line: (r) => JSON.stringify(r) };
  const table = new StreamTable(runColumns(false), colour, { ...opts, minWidths: FOLLOW_MIN_WIDTHS });
  return {
    header: table.header(),
    line: (r) =>
      table.row([
        r.hook_name,
        r.event,
        paintOutcome(String(r.outcome ?? ''), colour),
        `${r.duration_ms} ms`,
        errorCell(r) || (r.decision ? `decision: ${r.decision}` : ''),
        colour.paint('dim', String(r.recorded_at ?? '')),
      ]),
  };
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
