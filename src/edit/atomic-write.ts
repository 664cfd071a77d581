// Replacing a file atomically (SPEC §6.1): the new content goes to a temporary file in the same
// folder, is flushed to disk, and is renamed over the target, so a crash leaves the old file or
// the new one, never half of each. The target's permission bits are kept. A symbolic link is
// written through, never replaced: the rename goes over the file at the end of the link (dotfile
// managers link config and state files into place, and the link must stay theirs). Temporary files are
// named `.<name>.<pid>.<random>.tmp`: no loader ever reads them as config, and a later writer
// removes the ones whose process is gone.
import { createHash, randomBytes } from 'node:crypto';
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
    if (opts.expectedHash !== undefined && (await fileHash(file)) !== opts.expectedHash) {
      throw new HookctlError(
        'hook_config_changed',
        `${file} changed while this change was being prepared; nothing was written, run the command again`,
        ExitCode.no,
      );
    }
    await rename(temp, file);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw err;
  }
  await syncFolder(dir);
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
