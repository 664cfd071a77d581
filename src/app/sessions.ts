// The `hooks sessions` use case (SPEC §9): every session with a ledger, of every dialect.
import { listSessions, type SessionsQuery, type SessionsResult } from '../ledger/sessions.js';
import { workspaceScope } from '../ledger/workspace-scope.js';
import type { Locations } from '../paths.js';
import { sessionsFolders } from './runs.js';

/**
 * The sessions of the workspace `loc` names (SPEC §9), or of every workspace with `allWorkspaces`;
 * `workspace` in the result is the one read, null for every workspace.
 */
export function sessions(
  loc: Locations,
  q: Omit<SessionsQuery, 'workspace'> & { allWorkspaces?: boolean },
): SessionsResult & { workspace: string | null } {
  const { allWorkspaces, ...query } = q;
  const workspace = allWorkspaces ? undefined : workspaceScope(loc.workspace);
  return { ...listSessions(sessionsFolders(loc), { ...query, workspace }), workspace: workspace?.workspace ?? null };
}
