// Human rendering of `hooks runs`: the session, then one row per recorded run.
import type { Colour } from '../cli/colour.js';
import { renderTable } from '../cli/table.js';
import type { RunsResult } from '../app/runs.js';
import { dialectNamed } from '../dialects/registry.js';

/** An outcome, coloured the same in `runs` and `fire`. */
export function paintOutcome(outcome: string, colour: Colour): string {
  if (outcome === 'applied') return colour.paint('ok', outcome);
  if (outcome === 'failed' || outcome === 'denied') return colour.paint('error', outcome);
  return colour.paint('warning', outcome);
}

/** `acrossSessions`: the query read every session (--all-sessions, or --dispatch without --session). */
export function renderRuns(result: RunsResult, colour: Colour, opts: { acrossSessions?: boolean } = {}): string {
  if (result.session === undefined && !opts.acrossSessions) return 'No sessions recorded yet.';
  const head = result.session === undefined ? '' : `${colour.paint('dim', `session ${result.session}`)}\n`;
  if (result.records.length === 0) return `${head}No runs match.`;
  // A dialect whose decisions are the point of its records (claude) gets a Decision column.
  const ownColumn = (r: (typeof result.records)[number]) => dialectNamed(r.dialect)?.decisionColumn === true;
  const decisions = result.records.some(ownColumn);
  const table = renderTable(
    ['Hook', 'Event', 'Outcome', ...(decisions ? ['Decision'] : []), 'Duration', 'Error', 'Recorded'],
    result.records.map((r) => [
      r.hook_name,
      r.event,
      paintOutcome(r.outcome, colour),
      ...(decisions ? [ownColumn(r) ? (r.decision ?? '') : ''] : []),
      `${r.duration_ms} ms`,
      r.error ?? (r.decision && !ownColumn(r) ? `decision: ${r.decision}` : ''),
      r.recorded_at,
    ]),
    colour,
  );
  return `${head}${table}`;
}

/** The stderr note about lines that are not JSON; undefined when there are none. */
export function skippedLinesWarning(skipped: number): string | undefined {
  if (skipped === 0) return undefined;
  return `skipped ${skipped} line${skipped === 1 ? '' : 's'} that are not valid JSON (torn write?)`;
}
