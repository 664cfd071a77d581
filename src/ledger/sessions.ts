// Sessions with a ledger (SPEC §9 `hooks sessions`): every `<sessions dir>/<id>/hook-runs.jsonl` of
// every dialect, one row per (session, dialect), newest first. Dialect-agnostic: the caller names
// the folders (each dialect's `sessionsDir`), this module only reads them.
//
// Cost: the counts need every line of a log, so a row costs a scan of its log (no index: see
// docs/DESIGN.md, "Sessions"). What can be decided without that scan is: a session's last record
// comes from reading its log backwards (one small read), so `--since` and `--last N` choose their
// sessions first and scan only those.
import { readdirSync, statSync } from 'node:fs';
import { hookRunsFile } from '../paths.js';
import { recordTime, scanRecords, tailRecordsSync } from './reader.js';
import { outcomeCounts } from './stats.js';
import type { WorkspaceScope } from './workspace-scope.js';

/** One dialect's folder of sessions. */
export interface SessionsFolder {
  dialect: string;
  dir: string;
}

/** A session log found on disk, before it is read. */
export interface SessionLog {
  session_id: string;
  dialect: string;
  file: string;
  size: number;
  mtimeMs: number;
}

/** One row of `hooks sessions` (its JSON shape, SPEC §9). */
export interface SessionSummary {
  session_id: string;
  dialect: string;
  runs: number;
  outcomes: Record<string, number>;
  first_recorded_at: string | null;
  last_recorded_at: string | null;
  file: string;
}

export interface SessionsQuery {
  dialect?: string;
  /** Sessions with a run recorded at or after this instant. */
  since?: Date;
  /** Only the N newest sessions. */
  last?: number;
  /**
   * Only the records of this workspace (SPEC §9): a session counts only those, and a session
   * with none is not listed. Absent: every workspace.
   */
  workspace?: WorkspaceScope;
}

export interface SessionsResult {
  /** Newest first. */
  sessions: SessionSummary[];
  /** Lines that were not a JSON object, over every log read. */
  skipped: number;
  /**
   * Records left out for having no workspace: over the logs summarised, or, when no session of
   * the workspace was found, over every record looked at.
   */
  withoutWorkspace: number;
}

/** Every session log in the folders (a folder that does not exist has none). */
export function findSessionLogs(folders: readonly SessionsFolder[]): SessionLog[] {
  const logs: SessionLog[] = [];
  for (const { dialect, dir } of folders) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue; // a missing sessions folder has no sessions
    }
    for (const id of names) {
      const file = hookRunsFile(dir, id);
      try {
        const st = statSync(file);
        if (st.isFile()) logs.push({ session_id: id, dialect, file, size: st.size, mtimeMs: st.mtimeMs });
      } catch {
        // no log there (or not a folder at all): not a session
      }
    }
  }
  return logs;
}

/** The counts and times of one log: a scan of every line, one record in memory at a time. */
export function summariseLog(
  log: SessionLog,
  workspace?: WorkspaceScope,
): { summary: SessionSummary; skipped: number } {
  const outcomes = outcomeCounts();
  let runs = 0;
  // Earliest and latest by recorded_at, not by line: concurrent writers stamp a record, then
  // append it, so lines a few milliseconds apart can land out of order.
  let first: { ms: number; text: string } | undefined;
  let last: { ms: number; text: string } | undefined;
  const { skipped } = scanRecords(
    log.file,
    (r) => {
      runs++;
      const outcome = typeof r.outcome === 'string' ? r.outcome : 'unknown';
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      const ms = recordTime(r);
      if (!Number.isFinite(ms)) return;
      if (first === undefined || ms < first.ms) first = { ms, text: r.recorded_at };
      if (last === undefined || ms > last.ms) last = { ms, text: r.recorded_at };
    },
    workspace === undefined ? {} : { workspace },
  );
  return {
    summary: {
      session_id: log.session_id,
      dialect: log.dialect,
      runs,
      outcomes,
      first_recorded_at: first?.text ?? null,
      last_recorded_at: last?.text ?? null,
      file: log.file,
    },
    skipped,
  };
}

/**
 * The time of a log's latest record, from the end of the log only (one small read): the last
 * lines, since concurrent writers may append a record a few milliseconds older after a newer one.
 * A log without a readable time: its mtime.
 */
function lastActivityMs(log: SessionLog, workspace: WorkspaceScope | undefined): number | undefined {
  const { records } = tailRecordsSync(log.file, TAIL_RECORDS, workspace === undefined ? {} : { workspace });
  if (workspace !== undefined && records.length === 0) return undefined; // no record of the workspace
  const ms = Math.max(...records.map(recordTime));
  return Number.isFinite(ms) ? ms : log.mtimeMs;
}

/** How many of the last records `--since`/`--last` look at to find a log's latest one. */
const TAIL_RECORDS = 32;

/** Newest first: by last record, then by file time, then by greater session id (ids sort by time). */
function newestFirst(a: { ms: number; log: SessionLog }, b: { ms: number; log: SessionLog }): number {
  return (
    b.ms - a.ms ||
    b.log.mtimeMs - a.log.mtimeMs ||
    (a.log.session_id < b.log.session_id ? 1 : a.log.session_id > b.log.session_id ? -1 : 0) ||
    (a.log.dialect < b.log.dialect ? -1 : a.log.dialect > b.log.dialect ? 1 : 0)
  );
}

/** SPEC §9 `hooks sessions`. */
export function listSessions(folders: readonly SessionsFolder[], q: SessionsQuery = {}): SessionsResult {
  let logs = findSessionLogs(folders.filter((f) => q.dialect === undefined || f.dialect === q.dialect));
  let skipped = 0;
  const sinceMs = q.since?.getTime();
  // A log is written after each of its records is stamped: one not modified since `since` has no
  // record since then, and needs no read at all.
  if (sinceMs !== undefined) logs = logs.filter((log) => log.mtimeMs >= sinceMs);
  const chooser = q.workspace?.quiet();
  if (sinceMs !== undefined || q.last !== undefined) {
    // Choose by the last record (one backwards read each), then scan only the chosen logs.
    let chosen = logs.flatMap((log) => {
      const ms = lastActivityMs(log, chooser);
      return ms === undefined ? [] : [{ log, ms }];
    });
    if (sinceMs !== undefined) chosen = chosen.filter((c) => c.ms >= sinceMs);
    chosen.sort(newestFirst);
    if (q.last !== undefined) chosen = chosen.slice(0, q.last);
    logs = chosen.map((c) => c.log);
  }
  const rows = logs.flatMap((log) => {
    const { summary, skipped: s } = summariseLog(log, q.workspace);
    skipped += s;
    if (q.workspace !== undefined && summary.runs === 0) return []; // no record of the workspace
    const ms = summary.last_recorded_at === null ? NaN : Date.parse(summary.last_recorded_at);
    return [{ log, summary, ms: Number.isNaN(ms) ? log.mtimeMs : ms }];
  });
  rows.sort(newestFirst);
  const hidden = (q.workspace?.withoutWorkspace ?? 0) + (rows.length === 0 ? (chooser?.withoutWorkspace ?? 0) : 0);
  return { sessions: rows.map((r) => r.summary), skipped, withoutWorkspace: hidden };
}
