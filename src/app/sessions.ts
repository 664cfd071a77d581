// The use cases of runs over time (SPEC §9) bound to a user's locations: every dialect's sessions
// folder comes from the dialect registry, so a new dialect's sessions are listed, read, counted,
// followed and exported with no change here.
import { compozySessionsDir, coshSessionsDir, type Locations } from '../paths.js';
import type { RunRecord } from '../ledger/record.js';
import { listSessions, type SessionsFolder, type SessionsQuery, type SessionsResult } from '../ledger/sessions.js';
import { newestRuns, queryRuns } from './run-history.js';

/** Each dialect's folder of sessions. */
export function sessionsFolders(loc: Locations): SessionsFolder[] {
  return [
    { dialect: 'compozy', dir: compozySessionsDir(loc) },
    { dialect: 'cosh', dir: coshSessionsDir(loc) },
  ];
}

/** `hooks sessions`. */
export function sessions(loc: Locations, q: SessionsQuery): SessionsResult {
  return listSessions(sessionsFolders(loc), q);
}

/** How many runs `info NAME` shows. */
export const INFO_RUNS = 10;

/**
 * `info NAME`'s last runs, newest first: from every session of the hook's dialects (or only
 * `--session`), since the hook may have run anywhere.
 */
export function lastRunsOfHook(
  loc: Locations,
  name: string,
  dialects: readonly string[],
  session?: string,
): RunRecord[] {
  const folders = sessionsFolders(loc).filter((f) => dialects.includes(f.dialect));
  if (session !== undefined) return queryRuns(folders, { session, hook: name, last: INFO_RUNS }).records.reverse();
  return newestRuns(folders, { hook: name }, INFO_RUNS);
}
