// The selection `hooks runs` (and `sessions`) make of their flags (SPEC §6, §9), free of oclif:
// the fast path of the read commands runs it too (src/cli/fast.ts).
import type { RunsSelection } from '../app/run-history.js';
import { parseSince } from '../ledger/reader.js';
import { workspaceScope } from '../ledger/workspace-scope.js';

type SelectionFlags = {
  session?: string;
  'all-sessions'?: boolean;
  dispatch?: string;
  event?: string;
  outcome?: string;
  hook?: string;
  dialect?: string;
  since?: string;
  last?: number;
  'all-workspaces'?: boolean;
};

/**
 * `workspace`: the resolved --workspace, whose runs alone are read unless --all-workspaces. The
 * clock is read only for --since: a query without it depends on the logs alone (the answer cache).
 */
export function selectionOf(flags: SelectionFlags, workspace: string, now?: Date): RunsSelection {
  return {
    workspace: flags['all-workspaces'] ? undefined : workspaceScope(workspace),
    session: flags.session,
    allSessions: flags['all-sessions'],
    dispatch: flags.dispatch,
    event: flags.event,
    outcome: flags.outcome,
    hook: flags.hook,
    dialect: flags.dialect,
    since: flags.since === undefined ? undefined : parseSince(flags.since, now ?? new Date()),
    last: flags.last,
  };
}

/** Aborts on Ctrl-C, SIGTERM, or a closed stdout pipe (`| head`): a follow then ends with exit 0. */
export function stopSignal(): AbortSignal {
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
  process.stdout.on('error', () => stop.abort());
  return stop.signal;
}
