// Where the codex dialect reads and writes (codex.md §1). Light: a path or two, no reads.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Locations } from '../../paths.js';
import { payloadSessionId } from '../session-id.js';

export interface CodexLocations {
  /** `$CODEX_HOME`, else `~/.codex`. */
  codexHome: string;
  /** `HOOKCTL_CODEX_SYSTEM_DIR`, else `/etc/codex`. */
  systemDir: string;
  workspace: string;
  pluginDirs: string[];
  stateDir: string;
}

export function codexLocations(
  loc: Pick<Locations, 'workspace' | 'stateDir'> & Partial<Pick<Locations, 'pluginDirs'>>,
  env: NodeJS.ProcessEnv,
): CodexLocations {
  const home = nonEmpty(env.HOME) ?? homedir();
  return {
    codexHome: resolve(loc.workspace, nonEmpty(env.CODEX_HOME) ?? join(home, '.codex')),
    systemDir: resolve(loc.workspace, nonEmpty(env.HOOKCTL_CODEX_SYSTEM_DIR) ?? '/etc/codex'),
    workspace: loc.workspace,
    pluginDirs: loc.pluginDirs ?? [],
    stateDir: loc.stateDir,
  };
}

/** The user config.toml: trust and enable/disable state live here (codex.md §2.6, §7). */
export const codexUserConfig = (l: Pick<CodexLocations, 'codexHome'>) => join(l.codexHome, 'config.toml');

/** Run records: `<stateDir>/codex/sessions/<session_id>/hook-runs.jsonl`, never inside $CODEX_HOME. */
export const codexSessionsDir = (stateDir: string) => join(stateDir, 'codex', 'sessions');

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

/**
 * The session a codex fire records under: the payload's session_id, else a new UUID v4 (codex.md
 * §5.1; `--session` wins over both: the use case asks this only without it). Here, not in
 * dispatch/: the dialect object answers it (Dialect.sessionIdFor).
 */
export function codexSessionIdFor(payload: Record<string, unknown>): string {
  return payloadSessionId(payload) ?? globalThis.crypto.randomUUID(); // Web Crypto: node:crypto would load on every start
}
