// Where the codex layers are (codex.md §1), found with a few stats and no reads: the index module
// asks `nothingToRead` before importing any parser, so `hooks list` without Codex costs nothing.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { CodexLocations } from '../locations.js';

/**
 * The project root (the nearest folder at or above the workspace holding `.git`, a file or a
 * folder; the workspace when none) and the folders from it down to the workspace.
 */
export function projectFolders(workspace: string): { root: string; dirs: string[] } {
  const chain: string[] = [];
  let dir = resolve(workspace);
  for (;;) {
    chain.push(dir);
    if (existsSync(join(dir, '.git'))) return { root: dir, dirs: chain.reverse() };
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  const ws = resolve(workspace);
  return { root: ws, dirs: [ws] };
}

/** The `<dir>/.codex` folders that are project layers: every one that exists and is not $CODEX_HOME. */
export function projectLayerDirs(cl: CodexLocations, dirs: readonly string[]): string[] {
  // Codex canonicalizes CODEX_HOME: a project `.codex` reached through a link to it (or that it
  // links to) is $CODEX_HOME too.
  const home = new Set([resolve(cl.codexHome), real(cl.codexHome)]);
  return dirs.filter((d) => {
    const codex = join(d, '.codex');
    return existsSync(codex) && !home.has(resolve(codex)) && !home.has(real(codex));
  });
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** No Codex home, no system dir, no project `.codex/`, no --plugin-dir: the empty catalog. */
export function nothingToRead(cl: CodexLocations): boolean {
  if (cl.pluginDirs.length > 0) return false;
  if (existsSync(cl.codexHome) || existsSync(cl.systemDir)) return false;
  return projectLayerDirs(cl, projectFolders(cl.workspace).dirs).length === 0;
}
