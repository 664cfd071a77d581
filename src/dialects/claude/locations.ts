// Where the claude dialect's files are (claude.md §1), and its overrides: CLAUDE_CONFIG_DIR
// (Claude's own), HOOKCTL_CLAUDE_MANAGED_DIR and HOOKCTL_STATE_DIR (ours), --plugin-dir.
// Nothing else in the dialect reads the environment for paths.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Locations } from '../../paths.js';
import { payloadSessionId } from '../session-id.js';

export interface ClaudeLocations {
  /** The launch folder, absolute. */
  workspace: string;
  home: string;
  /** $CLAUDE_CONFIG_DIR, else ~/.claude. */
  configDir: string;
  /** HOOKCTL_CLAUDE_MANAGED_DIR, else /etc/claude-code (macOS: /Library/Application Support/ClaudeCode). */
  managedDir: string;
  /** HOOKCTL_STATE_DIR, else ${XDG_STATE_HOME:-~/.local/state}/hookctl. */
  stateDir: string;
  /** The git root whose settings.local.json is read (§1), or null. */
  gitRoot: string | null;
  /** --plugin-dir folders, absolute, in flag order. */
  pluginDirs: string[];
  /**
   * The project folders whose skills, commands and agents load (claude.md §1): the workspace, each
   * folder above it up to the git root, nearest first, then each --additional-dir in flag order.
   */
  projectFolders: string[];
}

/** `loc` is the shared Locations (its pluginDirs and stateDir win), or just a workspace (tests). */
export function claudeLocations(
  loc: Pick<Locations, 'workspace'> & Partial<Pick<Locations, 'pluginDirs' | 'stateDir' | 'additionalDirs'>>,
  env: NodeJS.ProcessEnv,
  pluginDirs: readonly string[] = loc.pluginDirs ?? [],
  cwd = process.cwd(),
): ClaudeLocations {
  const home = nonEmpty(env.HOME) ?? homedir();
  const xdgState = nonEmpty(env.XDG_STATE_HOME) ?? join(home, '.local', 'state');
  const defaultManaged = process.platform === 'darwin' ? '/Library/Application Support/ClaudeCode' : '/etc/claude-code';
  const workspace = resolve(cwd, loc.workspace);
  const gitRoot = gitRootOf(workspace, resolve(cwd, home));
  return {
    workspace,
    home: resolve(cwd, home),
    configDir: resolve(cwd, nonEmpty(env.CLAUDE_CONFIG_DIR) ?? join(home, '.claude')),
    managedDir: resolve(cwd, nonEmpty(env.HOOKCTL_CLAUDE_MANAGED_DIR) ?? defaultManaged),
    stateDir: loc.stateDir ?? resolve(cwd, nonEmpty(env.HOOKCTL_STATE_DIR) ?? join(xdgState, 'hookctl')),
    gitRoot,
    pluginDirs: pluginDirs.map((d) => resolve(cwd, d)),
    projectFolders: projectFoldersOf(
      workspace,
      gitRoot,
      (loc.additionalDirs ?? []).map((d) => resolve(cwd, d)),
    ),
  };
}

/** The workspace and its parents up to the git root (none without one), then the additional dirs. */
function projectFoldersOf(workspace: string, gitRoot: string | null, additional: string[]): string[] {
  const folders = [workspace];
  if (gitRoot !== null) {
    for (let dir = workspace; dir !== gitRoot && dirname(dir) !== dir;) {
      dir = dirname(dir);
      folders.push(dir);
    }
  }
  for (const d of additional) if (!folders.includes(d)) folders.push(d);
  return folders;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

/**
 * The nearest folder at or above the workspace holding `.git` (a file or a folder), unless it is
 * $HOME or belongs to another user: then null, and only the workspace copy of
 * settings.local.json is read (claude.md §1).
 */
export function gitRootOf(workspace: string, home: string): string | null {
  for (let dir = workspace; ; dir = dirname(dir)) {
    if (exists(join(dir, '.git'))) {
      if (dir === home) return null;
      const uid = process.getuid?.();
      if (uid !== undefined) {
        try {
          if (statSync(dir).uid !== uid) return null;
        } catch {
          return null;
        }
      }
      return dir;
    }
    if (dirname(dir) === dir) return null;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

// ---- files ----

export const managedSettingsFile = (c: ClaudeLocations) => join(c.managedDir, 'managed-settings.json');
export const managedDropInDir = (c: ClaudeLocations) => join(c.managedDir, 'managed-settings.d');
export const userSettingsFile = (c: ClaudeLocations) => join(c.configDir, 'settings.json');
export const projectSettingsFile = (c: ClaudeLocations) => join(c.workspace, '.claude', 'settings.json');

/**
 * The git root's `.claude/settings.json` when the workspace is a folder below that root with no
 * project settings of its own: Claude Code launched here reads neither (claude.md §1), which a
 * user who ran `cd sub/dir` may not expect.
 */
export function rootProjectSettingsUnread(c: ClaudeLocations): { root: string; file: string } | undefined {
  if (c.gitRoot === null || c.gitRoot === c.workspace) return undefined;
  const file = join(c.gitRoot, '.claude', 'settings.json');
  if (!exists(file) || exists(projectSettingsFile(c))) return undefined;
  return { root: c.gitRoot, file };
}

export interface LocalSettingsFile {
  file: string;
  /** `local` (the git root's copy, or the only one), `local.workspace` (the workspace copy beside it). */
  origin: 'local' | 'local.workspace';
}

/** The root copy first (it wins per key), then the workspace copy when that differs. */
export function localSettingsFiles(c: ClaudeLocations): LocalSettingsFile[] {
  const workspaceCopy = join(c.workspace, '.claude', 'settings.local.json');
  if (c.gitRoot === null || c.gitRoot === c.workspace) return [{ file: workspaceCopy, origin: 'local' }];
  return [
    { file: join(c.gitRoot, '.claude', 'settings.local.json'), origin: 'local' },
    { file: workspaceCopy, origin: 'local.workspace' },
  ];
}

export const pluginCacheDir = (c: ClaudeLocations) => join(c.configDir, 'plugins', 'cache');
/** `$CLAUDE_CONFIG_DIR/plugins/data/<id>`, every character outside [A-Za-z0-9_-] replaced by `-`. */
export const pluginDataDir = (c: ClaudeLocations, id: string) =>
  join(c.configDir, 'plugins', 'data', id.replace(/[^A-Za-z0-9_-]/g, '-'));
/** `<folder>/.claude/skills` of every project folder, nearest first. */
export const projectSkillsDirs = (c: ClaudeLocations) => c.projectFolders.map((f) => join(f, '.claude', 'skills'));
export const userSkillsDir = (c: ClaudeLocations) => join(c.configDir, 'skills');
/** `<folder>/.claude/commands` of every project folder, nearest first. */
export const projectCommandsDirs = (c: ClaudeLocations) => c.projectFolders.map((f) => join(f, '.claude', 'commands'));
export const userCommandsDir = (c: ClaudeLocations) => join(c.configDir, 'commands');
/** `<folder>/.claude/agents` of every project folder, nearest first. */
export const projectAgentsDirs = (c: ClaudeLocations) => c.projectFolders.map((f) => join(f, '.claude', 'agents'));
export const userAgentsDir = (c: ClaudeLocations) => join(c.configDir, 'agents');

/** Run records: `<stateDir>/claude/sessions/<session_id>/hook-runs.jsonl`, never inside ~/.claude. */
export const sessionsDirOf = (stateDir: string) => join(stateDir, 'claude', 'sessions');

/**
 * The session a fire records under: the payload's `session_id`, else a new UUID v4, as Claude
 * Code's session ids are (claude.md §5.1). `--session` wins over both: the fire use case asks this
 * only without it. Here, not in dispatch/: the dialect object answers it (Dialect.sessionIdFor).
 */
export function claudeSessionIdFor(payload: Record<string, unknown>): string {
  return payloadSessionId(payload) ?? globalThis.crypto.randomUUID(); // Web Crypto: node:crypto would load on every start
}

/**
 * True when no folder the loader reads exists (claude.md §1: managed dir, config dir, the
 * `.claude` of every project folder, the git root's) and no `--plugin-dir` is given: the catalog is then
 * empty, and a command need not load the loader and its parsers to learn it.
 */
export function nothingToRead(c: ClaudeLocations): boolean {
  if (c.pluginDirs.length > 0) return false;
  const roots = [c.managedDir, c.configDir, ...c.projectFolders.map((f) => join(f, '.claude'))];
  if (c.gitRoot !== null) roots.push(join(c.gitRoot, '.claude'));
  return !roots.some(exists);
}
