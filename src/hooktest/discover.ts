// Which test files `hooks test [PATH...]` runs (SPEC §8): each PATH is a test file, or a folder
// searched for `*.hooktest.{yaml,yml,json}` outside `node_modules` and `.git`; no PATH = the
// workspace. A PATH that does not exist is a usage error (exit 2), as for `validate FILE`.
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { usageError } from '../errors.js';

const TEST_FILE = /\.hooktest\.(ya?ml|json)$/;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

export function isTestFileName(name: string): boolean {
  return TEST_FILE.test(name);
}

/**
 * The test files under `paths` (absolute, each once): files named on the command line as given,
 * in that order; each folder's files sorted by path, so a run's order never depends on the disk.
 */
export async function findTestFiles(
  paths: readonly string[],
  workspace: string,
  cwd = process.cwd(),
): Promise<string[]> {
  const roots = paths.length === 0 ? [workspace] : paths.map((p) => resolve(cwd, p));
  const found: string[] = [];
  for (const root of roots) {
    let info;
    try {
      info = await stat(root);
    } catch {
      throw usageError(`test path "${root}" does not exist`, 'test_path_not_found');
    }
    if (info.isDirectory()) found.push(...(await walk(root)).sort());
    else found.push(root);
  }
  return [...new Set(found)];
}

/** Symbolic links to folders are not followed (a link to `..` would loop); links to files are. */
async function walk(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return []; // an unreadable folder below the root holds no tests we can run
  }
  const out: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) out.push(...(await walk(path)));
    } else if ((entry.isFile() || entry.isSymbolicLink()) && isTestFileName(entry.name)) {
      if (entry.isSymbolicLink() && !(await isFile(path))) continue;
      out.push(path);
    }
  }
  return out;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
