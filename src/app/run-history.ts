// Runs over time (SPEC §9): which logs a `runs` query reads, and the queries over them — records,
// statistics, follow, export — for every dialect. Dialect-agnostic: the caller names each
// dialect's sessions folder (the registry's `sessionsDir`), this module only reads the logs.
import { statSync } from 'node:fs';
import { HookctlError, ExitCode } from '../errors.js';
import { assertSessionId } from '../ledger/ids.js';
import type { RunRecord } from '../ledger/record.js';
import {
  mergeByTime,
  recordSlices,
  recordTime,
  scanRecords,
  tailRecordsSync,
  type RecordFilter,
} from '../ledger/reader.js';
import { hookRunsFile } from '../paths.js';
import { findSessionLogs, type SessionLog, type SessionsFolder } from '../ledger/sessions.js';
import { RunStats, type RunStatsRow } from '../ledger/stats.js';
import type { WorkspaceScope } from '../ledger/workspace-scope.js';
import { otlpExportConfig } from '../telemetry/config.js';

export interface RunsSelection extends RecordFilter {
  /** One session (default: the most recently written one). */
  session?: string;
  /** Every session, newest session last. */
  allSessions?: boolean;
  /** Only the last N matching records. */
  last?: number;
}

/** One session's logs (one per dialect that has one), in the order they are read. */
export interface SessionLogs {
  session_id: string;
  files: string[];
}

export interface RunsResult {
  /** The session read, when one session was (undefined with --all-sessions or when there is none). */
  session: string | undefined;
  records: RunRecord[];
  /** Lines that were not valid JSON (a torn line after a crash). */
  skipped: number;
  /** Records left out for having no workspace (written before it existed): see withoutWorkspace. */
  withoutWorkspace: number;
}

/**
 * How many records a query left out for having no workspace: those its scope turned away, or,
 * when it found no session of the workspace at all, those the search for one passed over (so a
 * history written before `workspace` existed is never silently empty).
 */
function withoutWorkspace(sel: RunsSelection, chooser: WorkspaceScope | undefined, found: boolean): number {
  if (sel.workspace === undefined) return 0;
  return sel.workspace.withoutWorkspace + (found ? 0 : (chooser?.withoutWorkspace ?? 0));
}

/**
 * The sessions a selection reads, oldest first. A session's logs are grouped by id across
 * dialects. "Newest" is by modification time: a log is written after each of its records is
 * stamped, so its mtime bounds every record in it (the stopping rule of `lastRuns` relies on it).
 * With a workspace scope, the default session is the newest one holding a record of that
 * workspace (claude.md §7 `hooks runs`); `chooser` counts what that search passed over.
 */
export function selectSessions(
  folders: readonly SessionsFolder[],
  sel: RunsSelection,
  chooser: WorkspaceScope | undefined = sel.workspace?.quiet(),
): SessionLogs[] {
  const scoped = folders.filter((f) => sel.dialect === undefined || f.dialect === sel.dialect);
  if (sel.session !== undefined && !sel.allSessions) {
    const id = assertSessionId(sel.session);
    return [{ session_id: id, files: scoped.map((f) => hookRunsFile(f.dir, id)) }];
  }
  const sessions = groupBySession(findSessionLogs(scoped)).sort((a, b) => a.mtimeMs - b.mtimeMs || cmp(a.id, b.id));
  if (sel.allSessions) return sessions.map((s) => ({ session_id: s.id, files: s.logs.map((l) => l.file) }));
  const latest = chooser === undefined ? sessions.at(-1) : newestOfWorkspace(sessions, chooser);
  return latest === undefined ? [] : [{ session_id: latest.id, files: latest.logs.map((l) => l.file) }];
}

interface GroupedSession {
  id: string;
  logs: SessionLog[];
  mtimeMs: number;
}

/**
 * The newest session with a record of the scope's workspace: each log read backwards to its last
 * one. A log already read whole without one is not read again until it grows.
 */
function newestOfWorkspace(sessions: readonly GroupedSession[], scope: WorkspaceScope): GroupedSession | undefined {
  const holds = (log: SessionLog) => {
    if (scope.logsWithout.get(log.file) === log.size) return false;
    if (tailRecordsSync(log.file, 1, { workspace: scope }).records.length > 0) return true;
    scope.logsWithout.set(log.file, log.size);
    return false;
  };
  for (let i = sessions.length - 1; i >= 0; i--) if (sessions[i]!.logs.some(holds)) return sessions[i];
  return undefined;
}

function groupBySession(logs: SessionLog[]): GroupedSession[] {
  const byId = new Map<string, GroupedSession>();
  for (const log of logs) {
    const g = byId.get(log.session_id);
    if (g === undefined) byId.set(log.session_id, { id: log.session_id, logs: [log], mtimeMs: log.mtimeMs });
    else {
      g.logs.push(log);
      g.mtimeMs = Math.max(g.mtimeMs, log.mtimeMs);
    }
  }
  return [...byId.values()];
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `--session ID` that names no log at all: SPEC §7.1 (a typo is not "no runs"). */
export function unknownSessionError(session: string): HookctlError {
  return new HookctlError(
    'session_not_found',
    `no runs recorded for session "${session}" (see: hookctl hooks sessions)`,
    ExitCode.no,
  );
}

/**
 * The sessions a selection reads, oldest first. With `--dispatch` and no `--session`, every
 * session is searched, newest first, and the first one holding that dispatch is the one read (a
 * dispatch writes to one session's log).
 */
export function sessionsToRead(
  folders: readonly SessionsFolder[],
  sel: RunsSelection,
  chooser: WorkspaceScope | undefined = sel.workspace?.quiet(),
): SessionLogs[] {
  if (sel.session !== undefined && !sel.allSessions) {
    // Unknown to every dialect, whatever --dialect keeps: the id is a typo, not "no runs".
    const anywhere = selectSessions(folders, { session: sel.session })[0]!;
    if (!anywhere.files.some(isFile)) throw unknownSessionError(anywhere.session_id);
    return selectSessions(folders, sel);
  }
  if (sel.dispatch === undefined || sel.allSessions) return selectSessions(folders, sel, chooser);
  const newestFirst = selectSessions(folders, { ...sel, allSessions: true }).reverse();
  const search = { ...sel, workspace: chooser };
  const holder = newestFirst.find((s) => s.files.some((f) => tailRecordsSync(f, 1, search).records.length > 0));
  return holder === undefined ? [] : [holder];
}

/** `hooks runs` records: oldest first within a session, sessions oldest first. */
export function queryRuns(folders: readonly SessionsFolder[], sel: RunsSelection): RunsResult {
  const chooser = sel.workspace?.quiet();
  const sessions = sessionsToRead(folders, sel, chooser);
  const session = sel.allSessions ? undefined : sessions[0]?.session_id;
  const found = sessions.length > 0;
  if (sel.last !== undefined) {
    const last = lastRuns(sessions, sel, sel.last);
    return { session, ...last, withoutWorkspace: withoutWorkspace(sel, chooser, found) };
  }
  const records: RunRecord[] = [];
  let skipped = 0;
  for (const s of sessions) {
    const parts = s.files.map((f) => {
      const list: RunRecord[] = [];
      skipped += scanRecords(f, (r) => void list.push(r), sel).skipped;
      return list;
    });
    for (const r of mergeByTime(...parts)) records.push(r);
  }
  return { session, records, skipped, withoutWorkspace: withoutWorkspace(sel, chooser, found) };
}

/**
 * The last `n` matching records over the sessions (given oldest first), oldest first. Reads each
 * session backwards, newest session first, and stops once it has n records newer than anything
 * an older session can hold: the cost depends on n, not on the size or number of the logs.
 */
export function lastRuns(
  sessions: readonly SessionLogs[],
  filter: RecordFilter,
  n: number,
): { records: RunRecord[]; skipped: number } {
  let found: RunRecord[] = [];
  let skipped = 0;
  for (let i = sessions.length - 1; i >= 0; i--) {
    const s = sessions[i]!;
    if (found.length >= n && Math.max(...s.files.map(mtimeMs)) < oldestTime(found)) break;
    const parts = s.files.map((f) => tailRecordsSync(f, n, filter));
    skipped += parts.reduce((k, p) => k + p.skipped, 0);
    found = mergeByTime(mergeByTime(...parts.map((p) => p.records)), found);
    if (found.length > n) found = found.slice(found.length - n);
  }
  return { records: found, skipped };
}

/** The oldest time among records (lines of a log are nearly, not strictly, in time order). */
function oldestTime(records: readonly RunRecord[]): number {
  let min = Infinity;
  for (const r of records) min = Math.min(min, recordTime(r));
  return min;
}

function isFile(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isFile() === true;
}

function mtimeMs(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -Infinity;
  }
}

/** `hooks runs --stats`: every filter of `runs` applies; whole logs are streamed, never held. */
export function runStats(
  folders: readonly SessionsFolder[],
  sel: RunsSelection,
): { rows: RunStatsRow[]; skipped: number; withoutWorkspace: number } {
  const stats = new RunStats();
  const chooser = sel.workspace?.quiet();
  const sessions = sessionsToRead(folders, sel, chooser);
  const hidden = () => withoutWorkspace(sel, chooser, sessions.length > 0);
  if (sel.last !== undefined) {
    const { records, skipped } = lastRuns(sessions, sel, sel.last);
    for (const r of records) stats.add(r);
    return { rows: stats.rows(), skipped, withoutWorkspace: hidden() };
  }
  let skipped = 0;
  for (const s of sessions) for (const f of s.files) skipped += scanRecords(f, (r) => stats.add(r), sel).skipped;
  return { rows: stats.rows(), skipped, withoutWorkspace: hidden() };
}

/**
 * The newest `n` matching records across every session, newest first (`info NAME`'s last runs).
 * The filter's workspace scope counts what it left out among the records read.
 */
export function newestRuns(folders: readonly SessionsFolder[], filter: RecordFilter, n: number): RunRecord[] {
  const { records } = lastRuns(selectSessions(folders, { ...filter, allSessions: true }), filter, n);
  // By time, not by line: concurrent writers can append a record a moment older after a newer one.
  return records.reverse().sort((a, b) => recordTime(b) - recordTime(a));
}

export interface FollowRequest {
  onRecord: (record: RunRecord) => void;
  /**
   * Once the records already there are printed: how many of them were left out for having no
   * workspace (see withoutWorkspace).
   */
  onCaughtUp?: (withoutWorkspace: number) => void;
  onSkipped?: (count: number) => void;
  signal: AbortSignal;
  pollMs?: number;
}

/** How often `--follow --all-sessions` looks for new sessions (listing every folder costs more than a stat). */
const RESCAN_SESSIONS_MS = 1000;

/**
 * `hooks runs --follow`: the selection's records, then new ones as they are appended, until the
 * signal aborts. `--session ID` follows that session's logs of every dialect, waiting for them to
 * appear; without it, the most recently written session at the start (or the first one to appear);
 * `--all-sessions` follows every session, new ones included.
 */
export async function followRuns(
  folders: readonly SessionsFolder[],
  sel: RunsSelection,
  req: FollowRequest,
): Promise<void> {
  const { followLogs } = await import('../ledger/follow.js');
  let files: () => readonly string[];
  let chooser: WorkspaceScope | undefined;
  let found = true;
  if (sel.allSessions) {
    let listed: string[] = [];
    let listedAt = -Infinity;
    files = () => {
      if (Date.now() - listedAt >= RESCAN_SESSIONS_MS) {
        listed = selectSessions(folders, sel).flatMap((s) => s.files);
        listedAt = Date.now();
      }
      return listed;
    };
  } else {
    // Every dialect's log of the chosen session, also those not written yet.
    const logsOf = (id: string | undefined) =>
      id === undefined ? undefined : selectSessions(folders, { ...sel, session: id })[0]!.files;
    // A named session is followed even before its first record (no unknown-session error here).
    const first = (scope = sel.workspace?.quiet()) =>
      sel.session !== undefined ? sel.session : sessionsToRead(folders, sel, scope)[0]?.session_id;
    chooser = sel.workspace?.quiet();
    let chosen = logsOf(first(chooser));
    found = chosen !== undefined;
    files = () => (chosen ??= logsOf(first())) ?? [];
  }
  const { onCaughtUp, ...rest } = req;
  await followLogs({
    files,
    filter: sel,
    last: sel.last,
    ...rest,
    ...(onCaughtUp ? { onCaughtUp: () => onCaughtUp(withoutWorkspace(sel, chooser, found)) } : {}),
  });
}

export interface RunsExport {
  runs: number;
  dispatches: number;
  spans: number;
  logs: number;
  skipped: number;
  warnings: string[];
  /** What could not be sent: `runs --export` then exits 1. */
  failures: string[];
  /** The workspace whose runs were sent; null with --all-workspaces (SPEC §9). */
  workspace: string | null;
  /** Records left out for having no workspace (see RunsResult.withoutWorkspace). */
  without_workspace: number;
}

/**
 * `hooks runs --export otlp`: the selected records to an OTLP/HTTP endpoint (`--endpoint`, else
 * the OTEL_EXPORTER_OTLP_* variables). The OpenTelemetry packages load only here.
 */
export async function exportRuns(
  folders: readonly SessionsFolder[],
  sel: RunsSelection,
  opts: { env: NodeJS.ProcessEnv; endpoint?: string; version: string },
): Promise<RunsExport> {
  const config = otlpExportConfig(opts.env, opts.endpoint !== undefined ? { endpoint: opts.endpoint } : {});
  if (config === undefined) {
    throw new HookctlError(
      'no_export_endpoint',
      'no OpenTelemetry endpoint: pass --endpoint URL or set OTEL_EXPORTER_OTLP_ENDPOINT',
      ExitCode.usage,
    );
  }
  const { exportRecordStream } = await import('../telemetry/records-export.js');
  const chooser = sel.workspace?.quiet();
  const found = sessionsToRead(folders, sel, chooser).length > 0;
  let skipped = 0;
  // Read twice (the dispatches' times, then the spans), counting skipped lines and records
  // without a workspace on the second read only: the first reads through a scope of its own.
  let pass = 0;
  const source = () => {
    const counting = ++pass === 2;
    const passSel = counting ? sel : { ...sel, ...(sel.workspace ? { workspace: sel.workspace.quiet() } : {}) };
    return selectedSlices(folders, passSel, chooser, (n) => {
      if (counting) skipped += n;
    });
  };
  const sent = await exportRecordStream(config, source, opts.version);
  return {
    ...sent,
    skipped,
    workspace: sel.workspace?.workspace ?? null,
    without_workspace: withoutWorkspace(sel, chooser, found),
  };
}

/**
 * The selected records in file order, a slice at a time (see recordSlices), so an export holds
 * one slice rather than every record. A session with logs of two dialects is merged whole.
 */
function* selectedSlices(
  folders: readonly SessionsFolder[],
  sel: RunsSelection,
  chooser: WorkspaceScope | undefined,
  onSkipped: (n: number) => void,
): Generator<RunRecord[]> {
  if (sel.last !== undefined) {
    const { records, skipped } = queryRuns(folders, sel);
    onSkipped(skipped);
    yield records;
    return;
  }
  for (const s of sessionsToRead(folders, sel, chooser)) {
    const files = s.files.filter(isFile);
    if (files.length === 1) {
      for (const part of recordSlices(files[0]!, sel)) {
        onSkipped(part.skipped);
        yield part.records;
      }
      continue;
    }
    const parts = files.map((f) => {
      const list: RunRecord[] = [];
      onSkipped(scanRecords(f, (r) => void list.push(r), sel).skipped);
      return list;
    });
    yield mergeByTime(...parts);
  }
}
