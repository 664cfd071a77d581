// An exclusive lock for changing one file: `<file>.lock`, created with O_EXCL. Writers of the
// same file take turns instead of losing each other's change; each re-reads the file once it
// holds the lock. A lock whose holder died (same host, pid gone) or that is older than
// `staleMs` is broken; breaking goes through an atomic rename so two waiters never both break
// and both take it. A holder only ever removes its own lock (checked by nonce).
import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
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
  const started = Date.now();
  for (;;) {
    if (await tryCreate(lockPath, me)) return () => releaseLock(lockPath, me.nonce);
    const held = await readLock(lockPath);
    if (held === undefined) continue; // released in between: try again at once
    if (isStale(held, staleMs)) {
      await breakStaleLock(lockPath, held);
      continue;
    }
    if (Date.now() - started > timeoutMs) {
      const by = held.info
        ? ` by pid ${held.info.pid}${held.info.host === me.host ? '' : ` on ${held.info.host}`}`
        : '';
      throw new HookctlError(
        'hook_config_locked',
        `${file} is being changed by another process (lock ${lockPath} held${by}); try again, or remove the lock file if no hookctl is running`,
        ExitCode.no,
      );
    }
    await sleep(retryMs + Math.floor(Math.random() * retryMs));
  }
}

async function tryCreate(lockPath: string, me: LockInfo): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockPath, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(JSON.stringify(me) + '\n');
  } finally {
    await handle.close();
  }
  return true;
}

interface HeldLock {
  /** undefined while its holder has created it but not yet written it, or when it is garbage. */
  info?: LockInfo;
  text: string;
  ino: number;
  ageMs: number;
}

async function readLock(lockPath: string): Promise<HeldLock | undefined> {
  try {
    const [text, st] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    return { info: parseInfo(text), text, ino: st.ino, ageMs: Date.now() - st.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function parseInfo(text: string): LockInfo | undefined {
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.nonce === 'string') return v as LockInfo;
  } catch {
    // an empty or partly written lock
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

/**
 * Moves the stale lock aside (atomic: of several breakers only one gets it), then checks that
 * what it moved is the lock it judged stale; a fresh lock taken in between is put back.
 */
async function breakStaleLock(lockPath: string, judged: HeldLock): Promise<void> {
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await rename(lockPath, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    const moved = await readLock(aside);
    if (moved && (moved.ino !== judged.ino || moved.text !== judged.text)) {
      // Not the one we judged: give it back unless someone has locked since (then theirs stands).
      await link(aside, lockPath).catch(() => undefined);
    }
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

async function releaseLock(lockPath: string, nonce: string): Promise<void> {
  const held = await readLock(lockPath);
  if (held?.info?.nonce === nonce) await unlink(lockPath).catch(() => undefined);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
