// Whether a session's ledger can be written, asked before a dispatch runs any hook (issue 28):
// a verdict must never be lost to a ledger that fails after the hooks ran. Kept out of
// writer.ts, which its tests' child processes load as plain JavaScript with no imports of ours.
import { accessSync, constants, statfsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ExitCode, HookctlError } from '../errors.js';
import { errnoText } from '../exec/lookpath.js';

/** statfs(2) magic numbers of file systems that hold no files of ours: /proc and /sys. */
const PSEUDO_FILE_SYSTEMS = new Map([
  [0x9fa0, '/proc'],
  [0x62656572, '/sys'],
]);

/**
 * Refuses, before any hook runs, a ledger that could not be written (issue 28): a folder on the
 * way that is a file, one that is not writable, one on /proc or /sys (where creating folders
 * fails and Node's recursive mkdir spins), or a log that is not a writable file. Without this
 * the hooks ran and the verdict was lost to `internal error: ENOTDIR`. Creates nothing: a
 * dispatch that records nothing still leaves no folder.
 */
export function assertLedgerWritable(file: string): void {
  const problem = ledgerProblem(resolve(file));
  if (problem === undefined) return;
  throw new HookctlError(
    'ledger_unwritable',
    `cannot record runs in "${dirname(resolve(file))}": ${problem} (choose another folder, or pass --no-record)`,
    ExitCode.usage,
  );
}

function ledgerProblem(file: string): string | undefined {
  const dir = dirname(file);
  // The nearest folder on the way that exists: the rest is created at the first record.
  let existing = dir;
  let st;
  for (;;) {
    try {
      st = statSync(existing);
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return `"${existing}": ${errnoText(code)}`;
      const parent = dirname(existing);
      if (parent === existing) return `"${existing}": ${errnoText(code)}`;
      existing = parent;
    }
  }
  if (!st.isDirectory()) return `"${existing}" is a file, not a folder`;
  const pseudo = PSEUDO_FILE_SYSTEMS.get(statfsSync(existing).type);
  if (pseudo !== undefined) return `"${existing}" is on ${pseudo}, which holds no files`;
  if (!accessible(existing, constants.W_OK | constants.X_OK)) return `"${existing}" is not writable`;
  if (existing !== dir) return undefined;
  let log;
  try {
    log = statSync(file);
  } catch {
    return undefined; // created at the first record
  }
  if (!log.isFile()) return `"${file}" is not a file`;
  if (!accessible(file, constants.W_OK | constants.R_OK)) return `"${file}" is not writable`;
  return undefined;
}

function accessible(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}
