// Human rendering of `hooks runs`: the session, then one row per recorded run.
import type { Colour } from '../cli/colour.js';
import { displayWidth, identifier, renderTable, terminalWidth, type Heading } from '../cli/table.js';
import type { RunsResult } from '../app/runs.js';
import type { RunRecord } from '../ledger/record.js';

/** An outcome, coloured the same in `runs` and `fire`. */
export function paintOutcome(outcome: string, colour: Colour): string {
  if (outcome === 'applied') return colour.paint('ok', outcome);
  if (outcome === 'failed' || outcome === 'denied') return colour.paint('error', outcome);
  return colour.paint('warning', outcome);
}

/** The Decision column: a hook's own decision (cosh), else nothing. */
export const decisionCell = (r: RunRecord): string => r.decision ?? '';

/**
 * The Error column: what went wrong, else why the hook denied or blocked (its reason), else why
 * it was skipped when its dialect records one (`why`: an untrusted hook, a handler that runs only
 * inside its agent), so that a skipped run is never a blank row.
 */
export const errorCell = (r: RunRecord): string => {
  if (r.error != null) return r.error;
  if (r.outcome === 'denied' && r.reason) return `reason: ${r.reason}`;
  const why = (r as unknown as Record<string, unknown>).why;
  return r.outcome === 'skipped' && typeof why === 'string' ? why : '';
};

/** Whether any record has a decision, so that tables without one keep their columns. */
export const anyDecision = (records: readonly RunRecord[]): boolean => records.some((r) => r.decision != null);

/**
 * The columns of a table of runs (`runs`, and `runs --follow` line by line): names whole, the
 * Recorded time shortened and Error cut before anything else, and when even that is too wide
 * Duration, then Error, then Recorded left out.
 */
export function runColumns(decisions: boolean): Heading[] {
  return [
    identifier('Hook'),
    identifier('Event'),
    'Outcome',
    ...(decisions ? ['Decision'] : []),
    { head: 'Duration', dropOrder: 1 },
    { head: 'Error', cutFirst: true, dropOrder: 2 },
    { head: 'Recorded', timestamp: true, dropOrder: 3 },
  ];
}

/** `acrossSessions`: the query read every session (--all-sessions, or --dispatch without --session). */
export function renderRuns(result: RunsResult, colour: Colour, opts: { acrossSessions?: boolean } = {}): string {
  if (result.session === undefined && !opts.acrossSessions) return 'No sessions recorded yet.';
  const title = result.session === undefined ? '' : `${colour.paint('dim', `session ${result.session}`)}\n`;
  if (result.records.length === 0) return `${title}No runs match.`;
  const decisions = anyDecision(result.records);
  const table = renderTable(
    runColumns(decisions),
    result.records.map((r) => [
      r.hook_name,
      r.event,
      paintOutcome(r.outcome, colour),
      ...(decisions ? [decisionCell(r)] : []),
      `${r.duration_ms} ms`,
      errorCell(r),
      r.recorded_at,
    ]),
    colour,
  );
  return `${title}${table}`;
}

/** The stderr note about lines that are not JSON; undefined when there are none. */
export function skippedLinesWarning(skipped: number): string | undefined {
  if (skipped === 0) return undefined;
  return `skipped ${skipped} ${skipped === 1 ? 'line that is' : 'lines that are'} not valid JSON (torn write?)`;
}

/** Which workspaces a read of the history covers (SPEC §9), and what it left out. */
export interface WorkspaceScopeView {
  /** The workspace read; null: every workspace (--all-workspaces). */
  workspace: string | null;
  /** Records without a workspace (written before records carried one) that were not shown. */
  withoutWorkspace: number;
}

/** The line that says whose runs these are. */
export function workspaceLine(workspace: string | null, colour: Colour, width = terminalWidth()): string {
  if (workspace === null) return colour.paint('dim', 'all workspaces');
  // It fits the terminal as the tables do (SPEC §7.4): the hint goes first, then the path is
  // cut at its start, where a long path says least.
  const full = `workspace ${workspace} (--all-workspaces for every workspace)`;
  const short = `workspace ${workspace}`;
  let text = full;
  if (width !== undefined && displayWidth(full) > width) {
    const room = width - 'workspace …'.length;
    text = displayWidth(short) <= width ? short : `workspace …${room > 0 ? [...workspace].slice(-room).join('') : ''}`;
  }
  return colour.paint('dim', text);
}

/** The note about records without a workspace; undefined when there are none. */
export function withoutWorkspaceNote(count: number): string | undefined {
  if (count === 0) return undefined;
  return `${count} older ${count === 1 ? 'record' : 'records'} without a workspace ${count === 1 ? 'is' : 'are'} not shown; --all-workspaces shows them`;
}

/**
 * A human rendering of the history, then the line that says whose runs it holds and the note
 * about older records (below the table, as its caption: the table's head stays its first line).
 */
export function withWorkspace(body: string, scope: WorkspaceScopeView, colour: Colour): string {
  const note = withoutWorkspaceNote(scope.withoutWorkspace);
  return [body, workspaceLine(scope.workspace, colour), ...(note ? [colour.paint('dim', note)] : [])].join('\n');
}
