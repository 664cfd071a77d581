// `hooks runs --follow` (SPEC §9): the selected records already in the logs, then each record other
// processes append, until the signal aborts.
//
// It polls (a stat per log every `pollMs`) rather than trusting fs.watch: watch events are lost or
// merged on some file systems and never fire for a file replaced under a watched name. Per log:
// - bytes after the last newline are a record still being written, or a line torn by a writer that
//   died: they are kept and waited for, never parsed alone. The next writer ends a torn line with
//   a newline (ledger/writer.ts), and the line is then skipped and counted as every reader does;
// - a log whose size drops below what was read was truncated: it is read again from its start;
// - a log whose name now points at another file (rotated, or replaced by rename) is drained to its
//   end through the old descriptor, then the new file is read from its start; the old file is
//   still read until it has been idle for IDLE_CLOSE_MS, since a writer that opened it before the
//   switch may append to it after (a removed log too);
// - a log that appears later (a session's first record, another dialect's log) is read from its start.
import { closeSync, fstatSync, statSync } from 'node:fs';
import type { RunRecord } from './record.js';
import {
  compileFilter,
  lastLineEnd,
  mergeByTime,
  openIfExists,
  scanDescriptor,
  tailDescriptor,
  type RecordFilter,
} from './reader.js';

export interface FollowOptions {
  /** The logs to follow, asked again at every poll (a new session's log shows up this way). */
  files: () => readonly string[];
  filter?: RecordFilter;
  /** Print only the last N existing matching records first (default: all of them). */
  last?: number;
  onRecord: (record: RunRecord) => void;
  /** Once the records already in the logs have been given to onRecord. */
  onCaughtUp?: () => void;
  /** Lines that were not a JSON object, as they are found. */
  onSkipped?: (count: number) => void;
  signal: AbortSignal;
  /** Between two looks at the logs; default 100 ms (1 s over MANY_LOGS logs). */
  pollMs?: number;
  /** After how long without news a log's descriptor is closed; default IDLE_CLOSE_MS. */
  idleCloseMs?: number;
}

interface FollowedLog {
  /** Open while the log is active; closed after IDLE_CLOSE_MS without news (see below). */
  fd: number | undefined;
  /** When the log last grew (ms), to close the descriptors of idle logs. */
  lastChange: number;
  dev: number;
  ino: number;
  /** Where the whole lines read so far end: bytes after it are a line still being written. */
  position: number;
  /** The log's size at the last read, to tell a truncation and an idle log. */
  size: number;
  /** Bytes from `position` on are a line already past the line bound: dropped up to its newline. */
  inLongLine?: boolean;
}

/**
 * A log that has not grown for this long gives its descriptor back (and is reopened when its
 * size or identity changes): `--follow --all-sessions` over thousands of sessions must not hold a
 * descriptor per session. A log replaced while closed is read from its start, like any new one.
 */
const IDLE_CLOSE_MS = 5000;
/** Over this many logs the default poll slows to once a second (a stat per log per look). */
const MANY_LOGS = 200;
/**
 * At most this much of one log is read at a time; between two reads the event loop runs, so a
 * SIGINT is answered however much a writer appends (a 400 MB line had kept it busy for minutes).
 */
export const FOLLOW_READ_BYTES = 32 * 1024 * 1024;

export async function followLogs(opts: FollowOptions): Promise<void> {
  const matches = compileFilter(opts.filter ?? {});
  const logs = new Map<string, FollowedLog>();
  const countSkipped = (n: number) => {
    if (n > 0) opts.onSkipped?.(n);
  };

  // The records already there: whole lines only; a line being written is waited for below.
  const existing: RunRecord[][] = [];
  for (const file of opts.files()) {
    const fd = openIfExists(file);
    if (fd === undefined) continue;
    const st = fstatSync(fd);
    const end = lastLineEnd(fd, st.size);
    const part: RunRecord[] = [];
    if (opts.last !== undefined) {
      const r = tailDescriptor(fd, end, opts.last, matches);
      part.push(...r.records);
      countSkipped(r.skipped);
    } else {
      countSkipped(scanDescriptor(fd, 0, end, matches, (r) => void part.push(r), true).skipped);
    }
    existing.push(part);
    logs.set(file, { fd, lastChange: Date.now(), dev: st.dev, ino: st.ino, position: end, size: end });
  }
  let first = mergeByTime(...existing);
  if (opts.last !== undefined && first.length > opts.last) first = first.slice(first.length - opts.last);
  for (const r of first) opts.onRecord(r);
  opts.onCaughtUp?.();

  /** Logs replaced or removed under their name, still read until idle (see the replacement below). */
  const retired: FollowedLog[] = [];
  const close = (log: FollowedLog) => {
    if (log.fd !== undefined) closeSync(log.fd);
    log.fd = undefined;
  };
  try {
    while (!opts.signal.aborted) {
      const wanted = new Set(opts.files());
      await sleep(opts.pollMs ?? (wanted.size > MANY_LOGS ? 1000 : 100), opts.signal);
      if (opts.signal.aborted) break;
      const now = Date.now();
      const fresh: RunRecord[][] = [];
      const take = async (log: FollowedLog) => {
        const records: RunRecord[] = [];
        for (;;) {
          const read = readNewLines(log, matches, records);
          countSkipped(read.skipped);
          if (!read.more || opts.signal.aborted) break;
          await new Promise((resolve) => setImmediate(resolve)); // let a signal in
        }
        if (records.length > 0) {
          fresh.push(records);
          log.lastChange = now;
        }
      };
      for (const file of wanted) {
        const log = logs.get(file);
        let st;
        try {
          st = statSync(file);
        } catch {
          if (log !== undefined) {
            // Removed: what was written before is still news, and a writer holding it open may add more.
            if (log.fd !== undefined) {
              await take(log);
              log.lastChange = now;
              retired.push(log);
            }
            logs.delete(file);
          }
          continue;
        }
        if (log !== undefined && (st.ino !== log.ino || st.dev !== log.dev)) {
          // Replaced (rotated): the new file is read from its start, and the old one stays followed
          // until it has been idle for a while, since a writer that opened it before the switch
          // may still append to it.
          if (log.fd !== undefined) {
            await take(log);
            log.lastChange = now;
            retired.push(log);
          }
          logs.delete(file);
        }
        let current = logs.get(file);
        if (current !== undefined && current.fd === undefined) {
          if (st.size === current.size) continue; // idle and unchanged
          current.fd = openIfExists(file);
          if (current.fd === undefined) continue;
        }
        if (current === undefined) {
          const fd = openIfExists(file);
          if (fd === undefined) continue;
          const fst = fstatSync(fd);
          current = { fd, lastChange: now, dev: fst.dev, ino: fst.ino, position: 0, size: 0 };
          logs.set(file, current);
        }
        await take(current);
        if (now - current.lastChange > (opts.idleCloseMs ?? IDLE_CLOSE_MS)) close(current);
      }
      for (const log of [...retired]) {
        await take(log);
        if (now - log.lastChange > (opts.idleCloseMs ?? IDLE_CLOSE_MS)) {
          close(log);
          retired.splice(retired.indexOf(log), 1);
        }
      }
      for (const [file, log] of logs) {
        if (!wanted.has(file)) {
          close(log);
          logs.delete(file);
        }
      }
      for (const r of mergeByTime(...fresh)) opts.onRecord(r);
    }
  } finally {
    for (const log of logs.values()) close(log);
    for (const log of retired) close(log);
  }
}

/**
 * Reads up to FOLLOW_READ_BYTES of what was appended since the last look; whole lines become
 * records, the rest waits. `more`: there is more to read now.
 */
function readNewLines(
  log: FollowedLog,
  matches: (r: RunRecord) => boolean,
  out: RunRecord[],
): { skipped: number; more: boolean } {
  const fd = log.fd!;
  const size = fstatSync(fd).size;
  if (size < log.size) {
    log.position = 0; // truncated: start again from the beginning
    log.inLongLine = false;
  }
  log.size = size;
  const end = Math.min(size, log.position + FOLLOW_READ_BYTES);
  const { skipped, bytes, inLongLine } = scanDescriptor(fd, log.position, end, matches, (r) => void out.push(r), true, {
    inLongLine: log.inLongLine === true,
  });
  log.position = bytes;
  log.inLongLine = inLongLine === true;
  return { skipped, more: end < size };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
