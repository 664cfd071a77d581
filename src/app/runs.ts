// `hooks runs`, `hooks sessions` and `info NAME`'s runs, bound to a user's locations: each
// dialect's sessions folder comes from the registry (Dialect.sessionsDir), so a new dialect's
// sessions are listed, read, counted, followed and exported with no change here. The queries
// themselves are ./run-history.ts; reads only, the writer is never imported here.
import { dialects } from '../dialects/registry.js';
import type { RunRecord } from '../ledger/record.js';
import type { SessionsFolder } from '../ledger/sessions.js';
import type { WorkspaceScope } from '../ledger/workspace-scope.js';
import type { Locations } from '../paths.js';
import { lastRuns, newestRuns, selectSessions, sessionsToRead } from './run-history.js';

export type { RunsResult, RunsSelection } from './run-history.js';

/** Each dialect's folder of sessions, in registry order. */
export function sessionsFolders(loc: Locations): SessionsFolder[] {
  return dialects().map((d) => ({ dialect: d.name, dir: d.sessionsDir(loc) }));
}

/**
 * `info NAME`'s last `n` runs, newest first: from every session of the hook's dialects (or only
 * `--session`), since the hook may have run in any of them; only the workspace's runs when a
 * scope is given (SPEC §9), and how many the scope left out for having no workspace.
 */
export function lastRunsOfHook(
  loc: Locations,
  name: string,
  n: number,
  opts: { dialects: readonly string[]; session?: string; workspace?: WorkspaceScope },
): { runs: RunRecord[]; withoutWorkspace: number } {
  const all = sessionsFolders(loc);
  const folders = all.filter((f) => opts.dialects.includes(f.dialect));
  const filter = { hook: name, workspace: opts.workspace };
  const counted = (runs: RunRecord[]) => ({ runs, withoutWorkspace: opts.workspace?.withoutWorkspace ?? 0 });
  if (opts.session === undefined) return counted(newestRuns(folders, filter, n));
  sessionsToRead(all, { session: opts.session }); // a session no dialect has is an error (SPEC §7.1)
  const files = selectSessions(folders, { session: opts.session })[0]?.files ?? [];
  return counted(lastRuns([{ session_id: opts.session, files }], filter, n).records.reverse());
}
