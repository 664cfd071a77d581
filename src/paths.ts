// Every location of SPEC §1 and its override. Nothing else reads the environment for paths,
// except Node's own NODE_COMPILE_CACHE, which src/cli/compile-cache.ts reads before any of this
// loads.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface Locations {
  compozyHome: string;
  coshHome: string;
  /** Prefix under which cosh system paths are read ("/" by default). */
  coshSystemRoot: string;
  workspace: string;
  additionalDirs: string[];
  /** `skills/` inside the installed hookctl package. */
  bundledSkillsDir: string;
  /** `--plugin-dir` (Claude Code's own flag, claude.md §1): extra plugin roots, in flag order. */
  pluginDirs: string[];
  /** hookctl's own state: `HOOKCTL_STATE_DIR`, else `${XDG_STATE_HOME:-~/.local/state}/hookctl`. */
  stateDir: string;
}

export interface LocationOptions {
  workspace?: string;
  additionalDirs?: string[];
  pluginDirs?: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The installed hookctl package: oclif's config root (its `skills/` is the bundled location). */
  packageRoot: string;
}

export function resolveLocations(opts: LocationOptions): Locations {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const home = env.HOME && env.HOME !== '' ? env.HOME : homedir();
  return {
    compozyHome: resolve(cwd, nonEmpty(env.COMPOZY_HOME) ?? join(home, '.compozy')),
    coshHome: resolve(cwd, nonEmpty(env.COSH_HOME) ?? join(home, '.copilot-shell')),
    coshSystemRoot: resolve(cwd, nonEmpty(env.COSH_SYSTEM_ROOT) ?? '/'),
    workspace: resolve(cwd, opts.workspace ?? '.'),
    additionalDirs: (opts.additionalDirs ?? []).map((d) => resolve(cwd, d)),
    bundledSkillsDir: join(opts.packageRoot, 'skills'),
    pluginDirs: (opts.pluginDirs ?? []).map((d) => resolve(cwd, d)),
    stateDir: resolve(
      cwd,
      nonEmpty(env.HOOKCTL_STATE_DIR) ?? join(nonEmpty(env.XDG_STATE_HOME) ?? join(home, '.local', 'state'), 'hookctl'),
    ),
  };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

// ---- compozy files ----
export const compozyGlobalConfig = (l: Locations) => join(l.compozyHome, 'config.toml');
export const compozyWorkspaceConfig = (l: Locations) => join(l.workspace, '.compozy', 'config.toml');
export const compozyExtensionsDir = (l: Locations) => join(l.compozyHome, 'extensions');
/** Agent dirs in lookup order: first hit per agent name wins. */
export const compozyAgentDirs = (l: Locations) => [
  join(l.workspace, '.compozy', 'agents'),
  ...l.additionalDirs.map((d) => join(d, '.compozy', 'agents')),
  join(l.compozyHome, 'agents'),
];
export const compozyUserSkillsDir = (l: Locations) => join(l.compozyHome, 'skills');
export const compozyWorkspaceSkillsDir = (l: Locations) => join(l.workspace, '.compozy', 'skills');
export const compozyAdditionalSkillsDirs = (l: Locations) => l.additionalDirs.map((d) => join(d, '.compozy', 'skills'));
export const compozySessionsDir = (l: Locations) => join(l.compozyHome, 'sessions');

// ---- cosh files ----
/** Config layers, lowest first. */
export const coshConfigLayers = (l: Locations) => [
  join(l.coshSystemRoot, 'etc', 'copilot-shell', 'config.toml'),
  join(l.coshHome, 'config.toml'),
  join(l.workspace, '.copilot-shell', 'config.toml'),
];
/** Extension dirs in precedence order: user, /usr/local/share, /usr/share. */
export const coshExtensionDirs = (l: Locations) => [
  join(l.coshHome, 'extensions'),
  join(l.coshSystemRoot, 'usr', 'local', 'share', 'anolisa', 'extensions'),
  join(l.coshSystemRoot, 'usr', 'share', 'anolisa', 'extensions'),
];
export const coshSessionsDir = (l: Locations) => join(l.coshHome, 'sessions');
export const coshStatesFile = (l: Locations) => join(l.coshHome, 'states', 'hooks.json');

/** A session's run log inside a dialect's sessions folder (Dialect.sessionsDir). */
export const hookRunsFile = (sessionsDir: string, sessionId: string) => join(sessionsDir, sessionId, 'hook-runs.jsonl');
