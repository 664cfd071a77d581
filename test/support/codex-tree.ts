// A temporary Codex setup for tests: a home with $CODEX_HOME, a system dir, and a workspace
// inside a git project (`proj/.git`, workspace `proj/ws`). Nothing of the machine's leaks in.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from './temp.js';

export interface CodexTree {
  base: string;
  codexHome: string;
  systemDir: string;
  projectRoot: string;
  workspace: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  /** Writes a file relative to `base`, making its folders. Returns the absolute path. */
  write(rel: string, text: string): string;
  loc(pluginDirs?: string[]): { workspace: string; stateDir: string; pluginDirs: string[] };
}

export function makeCodexTree(opts: { git?: boolean } = {}): CodexTree {
  const base = tempDir('hookctl-codex-');
  const projectRoot = join(base, 'proj');
  const workspace = join(projectRoot, 'ws');
  mkdirSync(workspace, { recursive: true });
  if (opts.git !== false) mkdirSync(join(projectRoot, '.git'));
  const t: CodexTree = {
    base,
    codexHome: join(base, 'home', '.codex'),
    systemDir: join(base, 'etc-codex'),
    projectRoot,
    workspace,
    stateDir: join(base, 'state'),
    env: {
      HOME: join(base, 'home'),
      CODEX_HOME: join(base, 'home', '.codex'),
      HOOKCTL_CODEX_SYSTEM_DIR: join(base, 'etc-codex'),
    },
    write(rel, text) {
      const file = join(base, rel);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
    loc: (pluginDirs = []) => ({ workspace, stateDir: join(base, 'state'), pluginDirs }),
  };
  return t;
}

/** A hooks.json with one handler of one event. */
export function codexHooksJson(event: string, handler: Record<string, unknown>, matcher?: string): string {
  const group: Record<string, unknown> = { hooks: [handler] };
  if (matcher !== undefined) group.matcher = matcher;
  return JSON.stringify({ hooks: { [event]: [group] } }, null, 2) + '\n';
}

/** The user config.toml line that trusts the project root. */
export function trustProject(path: string): string {
  return `[projects.${JSON.stringify(path)}]\ntrust_level = "trusted"\n`;
}
