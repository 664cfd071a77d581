// Replacing a file atomically (SPEC §6.1): the new content goes to a temporary file in the same
// folder, is flushed to disk, and is renamed over the target, so a crash leaves the old file or
// the new one, never half of each. The target's permission bits are kept. A symbolic link is
// written through, never replaced: the rename goes over the file at the end of the link (dotfile
// managers link config and state files into place, and the link must stay theirs). Temporary files are
// named `.<name>.<pid>.<random>.tmp`: no loader ever reads them as config, and a later writer
// removes the ones whose process is gone.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { lstat, open, readFile, readlink, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ExitCode, HookctlError } from '../errors.js';
import { removeDeadWritersTemps } from './file-lock.js';
import { displayPath } from '../display-path.js';

export interface AtomicWriteOptions {
  /**
   * The sha256 of the bytes the change was computed from (null: the file did not exist). When the
   * file no longer matches just before the rename, nothing is written: `hook_config_changed`.
   */
  expectedHash?: string | null;
  /** Permission bits of a file that does not exist yet (default 0o644). */
  newFileMode?: number;
  /** Called after the temporary file is complete, before the rename (tests inject faults here). */
  beforeRename?: () => void | Promise<void>;
  /** Called synchronously between the last check and the rename (tests write in the gap here). */
  inGap?: () => void;
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The hash of a file's bytes, or null when it does not exist. */
export async function fileHash(file: string): Promise<string | null> {
  try {
    return sha256(await readFile(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The most links followed before giving up, as the kernel's ELOOP limit. */
const MAX_LINKS = 40;

/**
 * The file a write to `file` replaces: `file` itself, or the end of its chain of symbolic links,
 * which need not exist yet (a dangling link gets its target created). Links in the folders above
 * need no following: a rename through them lands in the real folder.
 */
export async function writeTarget(file: string): Promise<string> {
  let current = file;
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    let st;
    try {
      st = await lstat(current);
    } catch (err) {
      // Missing, or a folder on the way is a file: the write itself reports it.
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return current;
      throw err;
    }
    if (!st.isSymbolicLink()) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  throw Object.assign(new Error(`too many symbolic links: ${file}`), { code: 'ELOOP', path: file });
}

/** Replaces `file` (through its symbolic links) with `content`, atomically. */
export async function writeFileAtomic(
  linkOrFile: string,
  content: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  const file = await writeTarget(linkOrFile);
  const dir = dirname(file);
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const mode = await existingMode(file);
  let handle;
  try {
    handle = await open(temp, 'wx', 0o600);
    await handle.writeFile(content);
    await handle.chmod(mode ?? opts.newFileMode ?? 0o644);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await opts.beforeRename?.();
    if (opts.expectedHash === undefined) await rename(temp, file);
    else replaceIfUnchanged(file, temp, opts.expectedHash, sha256(content), opts.inGap);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw err;
  }
  await syncFolder(dir);
}

function changedError(file: string, detail: string): HookctlError {
  return new HookctlError(
    'hook_config_changed',
    `${file} changed while this change was being ${detail}; run the command again`,
    ExitCode.no,
  );
}

/** Errors that say the file system has no hard links (then the plain check is all there is). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

/**
 * Renames `temp` over `file` only if `file` still holds the bytes hashed `expected` (null: it does
 * not exist). Synchronous from the last check to the rename, so nothing else of this process runs
 * in between (issue 24). The replaced file is kept by a hard link across the rename: a writer that
 * changed it in place in the gap (an editor saving, `echo >`) left its bytes there, so they are
 * compared after the rename too, and when they differ they are put back (unless the file was
 * written again since) and the change is refused. A file that did not exist is created by a link,
 * which fails if the file appeared meanwhile: a true compare-and-swap. A writer that replaces the
 * file by its own rename between the last check and ours is not caught: POSIX has no
 * compare-and-swap rename (docs/RELIABILITY.md "Not covered").
 */
function replaceIfUnchanged(
  file: string,
  temp: string,
  expected: string | null,
  written: string,
  inGap?: () => void,
): void {
  if (expected === null) {
    try {
      linkSync(temp, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') throw changedError(file, 'prepared: it now exists; nothing was written');
      if (!NO_LINKS.has(code)) throw err;
      if (existsSync(file)) throw changedError(file, 'prepared: it now exists; nothing was written');
      renameSync(temp, file);
      return;
    }
    unlinkSync(temp);
    return;
  }
  const keep = temp.replace(/\.tmp$/, '.old.tmp');
  try {
    linkSync(file, keep);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOENT') throw changedError(file, 'prepared: it was removed; nothing was written');
    if (!NO_LINKS.has(code)) throw err;
    if (hashOf(file) !== expected) throw changedError(file, 'prepared; nothing was written');
    renameSync(temp, file);
    return;
  }
  try {
    if (hashOf(keep) !== expected) throw changedError(file, 'prepared; nothing was written');
    inGap?.();
    renameSync(temp, file);
    if (hashOf(keep) !== expected) {
      // Written in place between the check and the rename: that write is newer than this change.
      if (hashOf(file) === written) renameSync(keep, file);
      throw changedError(file, 'written; the other write was kept and this change was not made');
    }
  } finally {
    rmSync(keep, { force: true });
  }
}

function hashOf(file: string): string | null {
  try {
    return sha256(readFileSync(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function existingMode(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mode & 0o7777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Makes the rename itself durable; not every platform lets a folder be fsynced. */
async function syncFolder(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // best effort
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Removes temporary files of `file` left by writers that died before their rename. */
export async function removeStrayTempFiles(file: string): Promise<string[]> {
  return removeDeadWritersTemps(dirname(file), `.${basename(file)}.`, false);
}

/** File system errors while locking or writing become one clear line (`hook_write_failed`). */
export async function writeFailures<T>(file: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (err instanceof HookctlError || typeof code !== 'string') throw err;
    const where = (err as NodeJS.ErrnoException).path ?? file;
    throw new HookctlError(
      'hook_write_failed',
      `cannot write ${displayPath(file)}: ${code} (${displayPath(where)}); nothing was changed`,
      ExitCode.no,
    );
  }
}

/** Test hook: `HOOKCTL_TEST_FAULT=kill-before-rename` dies by SIGKILL with the new file written but not renamed. */
export function faultInjection(env: NodeJS.ProcessEnv): (() => void) | undefined {
  if (env.HOOKCTL_TEST_FAULT !== 'kill-before-rename') return undefined;
  return () => {
    process.kill(process.pid, 'SIGKILL');
  };
}
