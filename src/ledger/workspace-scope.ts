// Runs belong to a project (SPEC §9): the read commands keep the records whose `workspace` is the
// current workspace. Two paths name the same workspace when they are equal, or when their real
// paths are (a symlinked checkout, macOS's /tmp and /private/tmp); a path that no longer exists
// is compared as written. Records written before `workspace` existed have none: a scope keeps
// none of them and counts them, so the commands can say how many they did not show.
//
// Cheap per record: one string comparison for the usual record of the current workspace, and one
// realpath per distinct other workspace string (cached), never one per record.
import { realpathSync } from 'node:fs';
import type { RunRecord } from './record.js';

export interface WorkspaceScope {
  /** The current workspace, as resolved by `--workspace` (default: the working directory). */
  readonly workspace: string;
  /** Whether the record belongs to the workspace; counts the records without one. */
  keeps(record: RunRecord): boolean;
  /** Records without a workspace that `keeps` turned away. */
  readonly withoutWorkspace: number;
  /** The same test with a counter of its own: for reads that only choose what to read. */
  quiet(): WorkspaceScope;
  /**
   * Logs read to their start and found to hold no record of the workspace, with their size then:
   * `runs --follow` waiting for the workspace's first session reads each one again only once it
   * has grown. Shared by a scope and its quiet copies.
   */
  readonly logsWithout: Map<string, number>;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // gone (or unreadable): compared as written
  }
}

export function workspaceScope(workspace: string): WorkspaceScope {
  return makeScope(workspace, realOrSelf(workspace), new Map([[workspace, true]]), new Map());
}

function makeScope(
  workspace: string,
  real: string,
  same: Map<string, boolean>,
  logsWithout: Map<string, number>,
): WorkspaceScope {
  let without = 0;
  return {
    workspace,
    keeps(record) {
      const ws = record.workspace;
      if (typeof ws !== 'string') {
        without++;
        return false;
      }
      if (ws === workspace) return true; // the usual case: no hashing of the string
      let kept = same.get(ws);
      if (kept === undefined) same.set(ws, (kept = realOrSelf(ws) === real));
      return kept;
    },
    get withoutWorkspace() {
      return without;
    },
    quiet: () => makeScope(workspace, real, same, logsWithout),
    logsWithout,
  };
}
