// The subprocess executor of SPEC §3.4, used by both dialects: resolve like Go's exec.LookPath,
// run without a shell in its own process group, feed stdin, capture 8 KiB of each output, enforce
// the timeout on the whole group, and never wait on a grandchild that keeps a pipe open.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { monotonicMs } from './clock.js';
import { releaseGroup, startSupervisor, superviseGroup } from './supervisor.js';
import { errnoText, lookPath } from './lookpath.js';
import { CAPTURE_LIMIT_BYTES, TRUNCATION_MARK, type ExecRequest, type ExecResult, type Executor } from './types.js';

/** Between SIGTERM and SIGKILL to the group on timeout (SPEC §3.4). */
export const KILL_GRACE_MS = 250;
/** How long the pipes may stay open once the hook itself has exited (a grandchild holds them). */
export const PIPE_GRACE_MS = 100;
/** Last resort after SIGKILL: a process that still has not exited is given up on. */
const EXIT_WAIT_AFTER_KILL_MS = 500;
/** setTimeout's own ceiling (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const runSubprocess: Executor = async (req) => {
  const started = monotonicMs();
  const resolved = lookPath(req.command, req.env.PATH, req.cwd);
  if ('error' in resolved) return startFailure('resolve', resolved.error, started);
  if (!hasExecutableFormat(resolve(req.cwd, resolved.path))) {
    return startFailure('spawn', `fork/exec ${resolved.path}: ${errnoText('ENOEXEC')}`, started);
  }
  const stdin = payloadDescriptor(req.stdin);
  try {
    return await runResolved(resolved.path, req, started, stdin);
  } finally {
    if (stdin !== undefined) closeQuietly(stdin);
  }
};

// The payload reaches stdin as a file the hook reads to its end, or, when none can be made,
// through a pipe of Node's own. Why not that pipe always: Node's stdio pipes are socketpairs, and
// bash run with `-c` takes a socket on stdin for a remote shell daemon and sources ~/.bashrc first
// (bash's `isnetconn` check), whose output would land in the patch. The Go runtime hands a real
// pipe, which bash ignores; a regular file behaves the same way. The file is created 0600 and
// unlinked before any hook starts: only open descriptors remain.
//
// Every hook needs its own descriptor (its own read offset). On Linux a new one is opened through
// /proc/self/fd from the descriptor that wrote the file, so a dispatch whose hooks see the same
// payload text (every hook that leaves it unpatched, every async copy) writes it once. The file
// system calls are synchronous: a few microseconds each, where the promise API costs a thread-pool
// round trip per call on every hook (docs/PERFORMANCE.md).
let written: { text: string; fd: number } | undefined;
let reopenWorks = process.platform === 'linux';

/** A read-only descriptor at offset 0 of a file holding `payload`; undefined = use a pipe. */
function payloadDescriptor(payload: string): number | undefined {
  if (written !== undefined && written.text === payload && reopenWorks) {
    try {
      return openSync(`/proc/self/fd/${written.fd}`, 'r');
    } catch {
      reopenWorks = false; // no /proc here: one file per hook from now on
    }
  }
  const path = join(tmpdir(), `hookctl-payload-${process.pid}-${randomBytes(8).toString('hex')}`);
  let writer: number;
  try {
    writer = openSync(path, 'wx', 0o600);
  } catch {
    return undefined;
  }
  let keepWriter = false;
  try {
    writeFileSync(writer, payload); // writes it all, looping over short writes
    const reader = openSync(path, 'r');
    if (reopenWorks) {
      if (written !== undefined) closeQuietly(written.fd);
      written = { text: payload, fd: writer };
      keepWriter = true; // the source of later descriptors for the same text
    }
    return reader;
  } catch {
    return undefined;
  } finally {
    if (!keepWriter) closeQuietly(writer);
    rmQuietly(path);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

function rmQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // never created, or already gone
  }
}

function startFailure(kind: 'resolve' | 'spawn', message: string, started: number): ExecResult {
  return {
    startError: { kind, message },
    exitCode: null,
    signal: null,
    timedOut: false,
    stdout: '',
    stdoutBytes: 0,
    stderrBytes: 0,
    truncated: false,
    durationMs: monotonicMs() - started,
  };
}

function runResolved(
  file: string,
  req: ExecRequest,
  started: number,
  stdinFd: number | undefined,
): Promise<ExecResult> {
  return new Promise((settle) => {
    let child: ChildProcess & {
      stdout: NonNullable<ChildProcess['stdout']>;
      stderr: NonNullable<ChildProcess['stderr']>;
    };
    prepareToTrack();
    try {
      child = spawn(file, req.args, {
        cwd: req.cwd,
        env: req.env,
        detached: true,
        stdio: [stdinFd ?? 'pipe', 'pipe', 'pipe'],
      }) as typeof child;
    } catch (err) {
      // Invalid input (e.g. a NUL byte in an argument) or an errno libuv reports synchronously.
      settle(startFailure('spawn', `fork/exec ${file}: ${spawnErrorText(err)}`, started));
      return;
    }

    const stdout = new Capture(req.stdoutLimitBytes ?? CAPTURE_LIMIT_BYTES);
    const stderrLimit = req.stderrLimitBytes ?? CAPTURE_LIMIT_BYTES;
    // Stderr content never leaves the executor, only its size, unless the caller asks (claude).
    const stderr = req.captureStderr ? new Capture(stderrLimit) : undefined;
    let stderrBytes = 0;
    let exitCode: number | null = null;
    let signal: string | null = null;
    let exited = false;
    let timedOut = false;
    let finished = false;
    const timers: NodeJS.Timeout[] = [];
    const after = (ms: number, fn: () => void) => timers.push(setTimeout(fn, Math.min(ms, MAX_TIMER_MS)));

    const pid = child.pid;

    const finish = (failure?: string) => {
      if (finished) return;
      finished = true;
      for (const t of timers) clearTimeout(t);
      // Whatever of the group is left (a grandchild, a detached helper) ends with the run.
      if (pid !== undefined) {
        signalGroup(pid, 'SIGKILL');
        liveGroups.delete(pid);
        releaseGroup(pid);
      }
      child.stdin?.destroy();
      child.stdout.destroy();
      child.stderr.destroy();
      if (failure !== undefined) {
        settle(startFailure('spawn', failure, started));
        return;
      }
      settle({
        exitCode,
        signal,
        timedOut,
        stdout: stdout.text(),
        ...(stderr ? { stderr: stderr.text(false) } : {}),
        stdoutBytes: stdout.total,
        stderrBytes,
        truncated: stdout.truncated || stderrBytes > stderrLimit,
        durationMs: monotonicMs() - started,
      });
    };

    child.on('error', (err) => {
      // Only spawn failures reach here (we signal with process.kill, not child.kill).
      if (pid !== undefined) return;
      void spawnFailureText(err, file, req.cwd).then((text) => finish(text));
    });
    if (pid === undefined) return; // the 'error' event follows

    trackGroup(pid);
    req.onSpawn?.(pid);

    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.add(chunk) < chunk.length) noteDiscarded(chunk.length);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderrBytes += chunk.length;
      if ((stderr?.add(chunk) ?? 0) < chunk.length) noteDiscarded(chunk.length);
    });
    if (child.stdin) {
      // A hook may exit or close stdin without reading it: EPIPE is not the hook's failure.
      child.stdin.on('error', () => {});
      child.stdin.end(req.stdin);
    }

    child.on('exit', (code, sig) => {
      exited = true;
      exitCode = code;
      signal = sig;
      // The pipes normally close together with the process; if a grandchild still holds them,
      // give the last bytes a moment, then end the group instead of waiting on it. The grace
      // ends in the check phase (setImmediate), after one more poll: a hookctl starved of CPU
      // past the grace (a loaded machine, `replay --jobs 4`) runs the overdue timer before the
      // poll that reads what the hook wrote before it exited, and its answer (a deny) was lost.
      after(PIPE_GRACE_MS, () => {
        setImmediate(() => finish());
      });
    });
    child.on('close', () => finish());

    // SIGTERM to the group, a grace period, then SIGKILL: for a timeout and for a cancel.
    const terminate = () => {
      signalGroup(pid, 'SIGTERM');
      after(KILL_GRACE_MS, () => {
        signalGroup(pid, 'SIGKILL');
        after(EXIT_WAIT_AFTER_KILL_MS, () => finish());
      });
    };
    after(req.timeoutMs, () => {
      if (exited) return; // the hook finished in time; only its pipes are pending
      timedOut = true;
      terminate();
    });
    if (req.signal) {
      const onAbort = () => {
        if (!exited && !finished) terminate();
      };
      if (req.signal.aborted) onAbort();
      else req.signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}

// Hook process groups still running. Each is detached (its own group, so a timeout can end all of
// it), which also keeps a terminal's Ctrl-C from reaching it: if hookctl itself is stopped by a
// signal, or exits with a run still going, it ends those groups first so none outlives it.
const liveGroups = new Set<number>();
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let stopHandlersInstalled = false;

function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  superviseGroup(pgid);
}

/**
 * Called before each spawn, not after: a hook can start, read a payload file and act before
 * spawn() returns to hookctl, and a signal that arrived in that window found no handler and
 * ended hookctl by default, leaving the hook running. Installed first, the handler runs on the
 * event loop, after the synchronous spawn and trackGroup: it always sees the new group. The
 * supervisor starts here too, so a SIGKILL after the spawn finds it listening.
 */
function prepareToTrack(): void {
  startSupervisor();
  if (stopHandlersInstalled) return;
  stopHandlersInstalled = true;
  const endAll = () => {
    for (const group of liveGroups) signalGroup(group, 'SIGKILL');
    liveGroups.clear();
  };
  process.on('exit', endAll);
  const handlers = new Map<NodeJS.Signals, () => void>();
  for (const sig of STOP_SIGNALS) {
    handlers.set(sig, () => {
      endAll();
      for (const [s, handler] of handlers) process.removeListener(s, handler);
      // With our listeners gone the default action is back: die by the same signal.
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    });
    process.on(sig, handlers.get(sig)!);
  }
}

function signalGroup(pid: number, sig: NodeJS.Signals): void {
  // Every run ends by signalling a group that is usually gone already: the ESRCH error is
  // expected, so it is built without a stack trace (half the cost of the call).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    process.kill(-pid, sig);
  } catch {
    // ESRCH: the whole group is already gone.
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Keeps the first `limit` bytes, counts all of them; memory stays bounded whatever is written. */
class Capture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;

  constructor(private readonly limit: number) {}

  /** Returns how many bytes of the chunk were kept. */
  add(chunk: Buffer): number {
    this.total += chunk.length;
    const room = this.limit - this.kept;
    if (room <= 0) return 0;
    const piece = chunk.length <= room ? chunk : Buffer.from(chunk.subarray(0, room));
    this.chunks.push(piece);
    this.kept += piece.length;
    return piece.length;
  }

  get truncated(): boolean {
    return this.total > this.limit;
  }

  text(mark = true): string {
    const bytes = Buffer.concat(this.chunks, this.kept);
    if (!this.truncated) return bytes.toString('utf8');
    return bytes.subarray(0, completeUtf8Length(bytes)).toString('utf8') + (mark ? TRUNCATION_MARK : '');
  }
}

/** Length of `bytes` without a multi-byte UTF-8 character cut off at its end. */
export function completeUtf8Length(bytes: Buffer): number {
  const end = bytes.length;
  // Walk back over at most 3 continuation bytes to the lead byte of the last character.
  let i = end - 1;
  while (i >= 0 && i >= end - 4 && (bytes[i]! & 0xc0) === 0x80) i--;
  if (i < 0) return end;
  const lead = bytes[i]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return end - i < need ? i : end;
}

// Output read and thrown away still holds memory until V8 collects its read buffers (one per
// 64 KiB read), and V8 lets some 64 MB of such external memory pile up before it does. A hook
// writing gigabytes would keep hookctl near its 100 MB bound (SPEC §7), so every 16 MiB thrown
// away asks for a collection (measured: peak RSS from about 100-125 MB down to under 90 MB).
const COLLECT_EVERY_BYTES = 16 * 1024 * 1024;
let discardedSinceCollect = 0;
let collectGarbage: ((options: { type: 'minor' }) => void) | null | undefined;

function noteDiscarded(bytes: number): void {
  discardedSinceCollect += bytes;
  if (discardedSinceCollect < COLLECT_EVERY_BYTES) return;
  discardedSinceCollect = 0;
  if (collectGarbage === undefined) {
    try {
      // Reaches V8's gc() without the --expose-gc command-line flag (a new context sees it).
      // Required here, not imported: only a flooding hook ever gets this far.
      const require = createRequire(import.meta.url);
      (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--expose-gc');
      const gc: unknown = (require('node:vm') as typeof import('node:vm')).runInNewContext('gc');
      collectGarbage = typeof gc === 'function' ? (gc as (options: { type: 'minor' }) => void) : null;
    } catch {
      collectGarbage = null;
    }
  }
  // A young-generation collection frees the short-lived read buffers without the cost of a full one.
  collectGarbage?.({ type: 'minor' });
}

// Go's exec refuses a file that is neither a script (#!) nor a binary with ENOEXEC; libuv instead
// falls back to running it with /bin/sh (execvp behaviour). Checked once per file per process.
const formatCache = new Map<string, boolean>();

function hasExecutableFormat(file: string): boolean {
  let verdict = formatCache.get(file);
  if (verdict === undefined) {
    verdict = readExecutableFormat(file);
    formatCache.set(file, verdict);
  }
  return verdict;
}

const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);

function readExecutableFormat(file: string): boolean {
  const header = Buffer.alloc(4);
  let bytesRead: number;
  try {
    const fd = openSync(file, 'r');
    try {
      bytesRead = readSync(fd, header, 0, 4, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return true; // unreadable (e.g. an execute-only binary): let exec decide
  }
  const isScript = bytesRead >= 2 && header[0] === 0x23 && header[1] === 0x21; // "#!"
  const isElf = bytesRead === 4 && header.equals(ELF_MAGIC);
  return isScript || isElf;
}

function spawnErrorText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ERR_INVALID_ARG_VALUE' || code === 'ERR_INVALID_ARG_TYPE') return 'invalid argument';
  return errnoText(code);
}

/** Go's wording: `chdir <dir>: …` when the working directory is the problem, else `fork/exec`. */
async function spawnFailureText(err: unknown, file: string, cwd: string): Promise<string> {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') {
    const cwdProblem = await stat(cwd).then(
      (st) => (st.isDirectory() ? undefined : 'ENOTDIR'),
      (e: NodeJS.ErrnoException) => e.code,
    );
    if (cwdProblem !== undefined) return `chdir ${cwd}: ${errnoText(cwdProblem)}`;
  }
  return `fork/exec ${file}: ${spawnErrorText(err)}`;
}
