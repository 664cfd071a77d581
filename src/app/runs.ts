// Queries over the run ledger for `hooks runs` and `hooks info`: every dialect's log of one
// session, merged oldest first. Reads only; the writer is never imported here.
import { dialects } from '../dialects/registry.js';
import { hookRunsFile, type Locations } from '../paths.js';
import { assertSessionId } from '../ledger/ids.js';
import type { RunRecord } from '../ledger/record.js';
import { latestSession, mergeByTime, readAllRecords, tailRecords, type RecordFilter } from '../ledger/reader.js';

export interface RunsQuery extends RecordFilter {
  session?: string;
  /** Only the last N matching records (read backwards from the end of each log). */
  last?: number;
}

export interface RunsResult {
  session: string | undefined;
  records: RunRecord[];
  /** Lines that were not valid JSON (a torn line after a crash). */
  skipped: number;
}

export async function resolveSession(loc: Locations, session?: string): Promise<string | undefined> {
  if (session !== undefined) return assertSessionId(session);
  return latestSession(dialects().map((d) => d.sessionsDir(loc)));
}

export async function queryRuns(loc: Locations, q: RunsQuery): Promise<RunsResult> {
  const session = await resolveSession(loc, q.session);
  if (session === undefined) return { session, records: [], skipped: 0 };
  const files = dialects().map((d) => hookRunsFile(d.sessionsDir(loc), session));
  const parts = await Promise.all(
    files.map((f) => (q.last !== undefined ? tailRecords(f, q.last, q) : readAllRecords(f, q))),
  );
  let records = mergeByTime(...parts.map((p) => p.records));
  if (q.last !== undefined && records.length > q.last) records = records.slice(records.length - q.last);
  return { session, records, skipped: parts.reduce((n, p) => n + p.skipped, 0) };
}

export async function lastRunsOfHook(loc: Locations, name: string, n: number, session?: string): Promise<RunRecord[]> {
  return (await queryRuns(loc, { session, hook: name, last: n })).records;
}
