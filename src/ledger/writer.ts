// Appending run records (SPEC §5). Each record is one line written with ONE write(2) on a file
// opened with O_APPEND: the kernel then places every record whole at the end of the file, so
// concurrent `hooks fire` processes never interleave or tear each other's lines.
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { RunRecord } from './record.js';

const NEWLINE = 0x0a;
/** Run records may carry payload fragments: readable by the user only. */
const FILE_MODE = 0o600;

// Files this process has already appended a whole line to. The file then ends in a newline
// (every writer writes whole lines), so the torn-line check is needed once per file per process.
// Bounded, oldest first out: `hooks test` writes each case to a session of its own, and 10,000
// cases kept 10,000 paths here (issue 24). A file dropped from it is only checked again.
const knownToEndInNewline = new Set<string>();
export const KNOWN_FILES_LIMIT = 64;

/** How many files the torn-line check currently skips (tests hold it bounded). */
export function knownFileCount(): number {
  return knownToEndInNewline.size;
}

function rememberEndsInNewline(key: string): void {
  if (knownToEndInNewline.has(key)) return;
  knownToEndInNewline.add(key);
  if (knownToEndInNewline.size > KNOWN_FILES_LIMIT)
    knownToEndInNewline.delete(knownToEndInNewline.values().next().value!);
}

/** One record as one line, newline included. JSON.stringify escapes every newline in values. */
export function serializeRecord(record: RunRecord): string {
  return JSON.stringify(record) + '\n';
}

export async function appendRecord(file: string, record: RunRecord): Promise<void> {
  await appendRecords(file, [record]);
}

/** Append records in order, one write per record; creates the session folder when needed. */
export async function appendRecords(file: string, records: RunRecord[]): Promise<void> {
  if (records.length === 0) return;
  const ledger = openLedger(file);
  try {
    for (const record of records) ledger.write(record);
  } finally {
    ledger.close();
  }
}

/**
 * Keeps one session's ledger open for a whole dispatch. `append` may be called without awaiting
 * (fire records each run as it ends): records are written in call order, each at once; `close`
 * rethrows the first failure. The file is opened on the first append, so a dispatch that records
 * nothing creates nothing.
 */
export class LedgerWriter {
  private ledger: OpenLedger | undefined;
  private firstError: unknown;
  private closed = false;

  constructor(readonly file: string) {}

  append(record: RunRecord): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`ledger ${this.file} is closed`));
    try {
      this.ledger ??= openLedger(this.file);
      this.ledger.write(record);
      return Promise.resolve();
    } catch (err) {
      this.firstError ??= err;
      const failed = Promise.reject(err);
      failed.catch(() => {}); // a caller that does not await must not cause an unhandled rejection
      return failed;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.ledger?.close();
    this.ledger = undefined;
    if (this.firstError !== undefined) throw this.firstError;
  }
}

interface OpenLedger {
  write(record: RunRecord): void;
  close(): void;
}

// The file system calls are synchronous: each is a few microseconds, where the promise API pays a
// thread-pool round trip per call, six of them per record of a dispatch (docs/PERFORMANCE.md).
// A failed call throws before anything is written, so a failure never leaves half a line.
function openLedger(file: string): OpenLedger {
  const key = resolve(file);
  mkdirSync(dirname(key), { recursive: true });
  // 'a+' = O_RDWR | O_APPEND | O_CREAT: every write goes to the end; reading checks the last byte.
  const fd = openSync(key, 'a+', FILE_MODE);
  let startOnNewLine: boolean;
  try {
    startOnNewLine = !knownToEndInNewline.has(key) && !endsInNewline(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return {
    write(record) {
      // A torn last line (a crash mid-write) is ended first, in the same write as the record.
      const line = (startOnNewLine ? '\n' : '') + serializeRecord(record);
      startOnNewLine = false;
      writeOnce(fd, Buffer.from(line, 'utf8'));
      rememberEndsInNewline(key);
    },
    close: () => closeSync(fd),
  };
}

/**
 * How long a last byte that is not a newline is watched before the line counts as torn. Such a
 * byte is either a torn line (a writer died mid-record) or a record another process is writing
 * at this moment: the kernel copies a write page by page and grows the file's size after each
 * page, so a record longer than a page can be seen half written. That one ends within moments;
 * a torn line never does.
 */
const IN_FLIGHT_WAIT_MS = 250;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** An empty file counts as ending cleanly. Positional reads: the 'a' descriptor's offset is unused. */
function endsInNewline(fd: number): boolean {
  const last = Buffer.alloc(1);
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  for (;;) {
    const { size } = fstatSync(fd);
    if (size === 0) return true;
    if (readSync(fd, last, 0, 1, size - 1) === 0 || last[0] === NEWLINE) return true;
    if (Date.now() >= deadline) return false;
    Atomics.wait(pause, 0, 0, 1); // 1 ms; only ever when the file does not end in a newline
  }
}

/**
 * One write(2) for the whole buffer, whatever its size (writeSync with a buffer does not split,
 * unlike writeFile/appendFile). A regular file only takes less on disk-full or a signal; the
 * remainder is then written rather than lost, though that record is no longer atomic. When the
 * rest cannot be written (the disk is full), the part that was is taken back off the end of the
 * file: no half line is ever left.
 */
function writeOnce(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) {
    let bytesWritten: number;
    try {
      bytesWritten = writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (err) {
      if (offset > 0) removeTail(fd, offset);
      throw err;
    }
    if (bytesWritten === 0) {
      if (offset > 0) removeTail(fd, offset);
      throw Object.assign(new Error('ledger write made no progress'), { code: 'ENOSPC' });
    }
    offset += bytesWritten;
  }
}

/**
 * Truncates the `written` bytes this process just appended. They are the file's last bytes: the
 * write that followed them failed for want of space, and so does any other writer's append to
 * the same full file system. (A truncate needs no space.)
 */
function removeTail(fd: number, written: number): void {
  try {
    const { size } = fstatSync(fd);
    ftruncateSync(fd, Math.max(0, size - written));
  } catch {
    // Nothing more can be done; the reader skips a torn line and says so.
  }
}
