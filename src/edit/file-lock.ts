// An exclusive lock for changing one file. Writers of the same file take turns instead of losing
// each other's change; each re-reads the file once it holds the lock.
//
// The lock is the folder `<file>.lock` holding one file, `owner.<nonce>`, with the holder's
// {pid, host, nonce, created}. It is taken by making a complete folder under a private name and
// renaming it to `<file>.lock`: a rename onto a folder that is not empty fails, so of any number
// of takers exactly one succeeds, and the lock never exists without its owner. It is let go, or
// broken, by removing one named owner file and then the folder if it is empty. Removing a file
// by its name removes that holder's lock and no other, so a breaker that judged an old holder
// stale can never take away a lock someone else has taken since; the folder left empty is
// either removed or replaced by the next taker's rename (a rename onto an empty folder
// succeeds). (Until issue 18 the lock was a file that a breaker renamed aside and put back when
// it had moved a fresh one: between the two, a third process could take the lock.)
//
// A lock is stale when its holder is gone (same host, pid no longer running: a writer killed
// mid-way) or when it is older than `staleMs`. A lock left as a plain file by an older hookctl
// is honoured the same way.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ExitCode, HookctlError } from '../errors.js';

export interface LockOptions {
  /** How long to wait for a live holder before giving up (default 10 s). */
  timeoutMs?: number;
  /** A lock older than this is stale whoever holds it (default 30 s; an edit takes milliseconds). */
  staleMs?: number;
  /** Pause between attempts (default 15 ms, with jitter). */
  retryMs?: number;
}

interface LockInfo {
  pid: number;
  host: string;
  nonce: string;
  created: number;
}

export const lockPathOf = (file: string): string => `${file}.lock`;

const OWNER = 'owner.';

/** Runs `fn` while holding the lock of `file`. The folder of `file` must exist. */
export async function withFileLock<T>(file: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const release = await acquireFileLock(file, opts);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** Takes the lock of `file`; resolves to the function that releases it. */
export async function acquireFileLock(file: string, opts: LockOptions = {}): Promise<() => Promise<void>> {
  const lockPath = lockPathOf(file);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const staleMs = opts.staleMs ?? 30_000;
  const retryMs = opts.retryMs ?? 15;
  const me: LockInfo = {
    pid: process.pid,
    host: hostname(),
    nonce: randomBytes(8).toString('hex'),
    created: Date.now(),
  };
  await removeStrayLockFolders(lockPath);
  const started = Date.now();
  for (;;) {
    if (await tryTake(lockPath, me)) return () => removeOwner(lockPath, me.nonce);
    const held = await readLock(lockPath);
    if (held === undefined) continue; // let go in between: try again at once
    if (isStale(held, staleMs)) {
      await breakLock(lockPath, held);
      continue;
    }
    if (Date.now() - started > timeoutMs) {
      const by = held.info
        ? ` by pid ${held.info.pid}${held.info.host === me.host ? '' : ` on ${held.info.host}`}`
        : '';
      throw new HookctlError(
        'hook_config_locked',
        `${file} is being changed by another process (lock ${lockPath} held${by}); try again, or remove the lock if no hookctl is running`,
        ExitCode.no,
      );
    }
    await sleep(retryMs + Math.floor(Math.random() * retryMs));
  }
}

/** `<lock>.<pid>.<nonce>.tmp`: a taker's folder before its rename. */
const takingFolder = (lockPath: string, me: LockInfo) => `${lockPath}.${me.pid}.${me.nonce}.tmp`;

async function tryTake(lockPath: string, me: LockInfo): Promise<boolean> {
  const folder = takingFolder(lockPath, me);
  await mkdir(folder, { mode: 0o755 });
  try {
    await writeFile(join(folder, OWNER + me.nonce), JSON.stringify(me) + '\n', { flag: 'wx', mode: 0o644 });
    await rename(folder, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Held: a folder with its owner (ENOTEMPTY, or EEXIST on some systems), or an older
    // hookctl's lock file (ENOTDIR).
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') return false;
    throw err;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

interface HeldLock {
  /** undefined when the owner file cannot be read as a lock (garbage). */
  info?: LockInfo;
  /** The owner file's name inside the lock folder; undefined for an older hookctl's lock file. */
  owner?: string;
  ageMs: number;
}

/** The lock as it is now, or undefined when there is none (or it is being let go). */
async function readLock(lockPath: string): Promise<HeldLock | undefined> {
  try {
    const st = await stat(lockPath);
    if (!st.isDirectory()) {
      return { info: parseInfo(await readFile(lockPath, 'utf8')), ageMs: Date.now() - st.mtimeMs };
    }
    const owner = (await readdir(lockPath)).find((n) => n.startsWith(OWNER));
    if (owner === undefined) return undefined; // emptied by its holder or a breaker
    const path = join(lockPath, owner);
    const [text, ownerStat] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    return { info: parseInfo(text), owner, ageMs: Date.now() - ownerStat.mtimeMs };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

function parseInfo(text: string): LockInfo | undefined {
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.nonce === 'string') return v as LockInfo;
  } catch {
    // a partly written lock of an older hookctl, or garbage
  }
  return undefined;
}

function isStale(held: HeldLock, staleMs: number): boolean {
  if (held.ageMs > staleMs) return true;
  return held.info !== undefined && held.info.host === hostname() && !pidAlive(held.info.pid);
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Breaks the lock judged stale: its owner file by name, so no later holder's lock is touched. */
async function breakLock(lockPath: string, judged: HeldLock): Promise<void> {
  if (judged.owner !== undefined) {
    await removeOwnerFile(lockPath, judged.owner);
    return;
  }
  // An older hookctl's lock file: it had no owner by name; removed as it would have removed it.
  // (A folder in its place is a new lock: unlink refuses it, EISDIR or EPERM.)
  await unlink(lockPath).catch(ignore('ENOENT', 'EISDIR', 'EPERM'));
}

/** Lets go of the lock of `nonce` (a no-op when it is not held, or no longer: a holder only ever
 * removes its own lock). */
async function removeOwner(lockPath: string, nonce: string): Promise<void> {
  await removeOwnerFile(lockPath, OWNER + nonce);
}

async function removeOwnerFile(lockPath: string, owner: string): Promise<void> {
  let removed = true;
  await unlink(join(lockPath, owner)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') throw err;
    removed = false;
  });
  // Empty now, unless the next holder's rename has already replaced it (then ENOTEMPTY).
  if (removed) await rmdir(lockPath).catch(ignore('ENOENT', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR'));
}

/** Removes taking folders (`<lock>.<pid>.<nonce>.tmp`) of processes that died before their rename. */
async function removeStrayLockFolders(lockPath: string): Promise<void> {
  await removeDeadWritersTemps(dirname(lockPath), `${basename(lockPath)}.`, true);
}

/**
 * Removes the entries `<prefix><pid>.<...>.tmp` of `dir` whose process is gone (it died before its
 * rename), folders too when `recursive`; returns their paths. A folder that cannot be read has none.
 */
export async function removeDeadWritersTemps(dir: string, prefix: string, recursive: boolean): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || pidAlive(pid)) continue;
    await rm(join(dir, name), { recursive, force: true });
    removed.push(join(dir, name));
  }
  return removed;
}

function ignore(...codes: string[]) {
  return (err: NodeJS.ErrnoException): void => {
    if (!codes.includes(err.code ?? '')) throw err;
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
