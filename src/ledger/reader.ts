// Reading run records (SPEC §5, §6 `hooks runs`). Lines that are not a JSON object (a torn last
// line after a crash) are skipped and counted. `tailRecords` reads from the end of the file, so
// `runs --last N` costs the same whatever the size of the log.
//
// The file system calls are synchronous: `runs` and `info` do nothing else while they read, and
// each promise call is a thread-pool round trip that shows as idle start-up time
// (docs/PERFORMANCE.md). Reads stay chunked, so memory does not grow with the log.
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { usageError } from '../errors.js';
import { hasWildcard, isValidPattern, pathMatch } from '../matching/pathmatch.js';
import type { RunRecord } from './record.js';
import type { WorkspaceScope } from './workspace-scope.js';

export interface RecordFilter {
  /** Go path.Match pattern (exact when it has no wildcard). */
  event?: string;
  outcome?: string;
  hook?: string;
  /** Records at or after this instant. */
  since?: Date;
  dialect?: string;
  /** One dispatch: its `dispatch_id`. */
  dispatch?: string;
  /**
   * Only the records of this workspace (SPEC §9); absent: every workspace (`--all-workspaces`).
   * Tested last, so that it counts only the records every other filter kept.
   */
  workspace?: WorkspaceScope;
}

export interface ReadResult {
  /** Oldest first (file order). */
  records: RunRecord[];
  /** Lines that were not a JSON object. */
  skipped: number;
}

export const TAIL_CHUNK_BYTES = 64 * 1024;
/**
 * Whole-log scans (stats, sessions, export) read 64 KiB too: measured over 1,000,000 records,
 * 1 MiB chunks were slower (1.3 s against 0.9 s) and doubled the peak memory, since every line
 * sliced from a chunk's text keeps that text alive until the collector runs.
 */
export const SCAN_CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/** The filter as a predicate. An invalid event pattern is a usage error (exit 2). */
export function compileFilter(filter: RecordFilter): (record: RunRecord) => boolean {
  const { event, outcome, hook, since, dialect, dispatch, workspace } = filter;
  if (event !== undefined && !isValidPattern(event)) {
    throw usageError(`invalid --event pattern "${event}": syntax error in pattern`);
  }
  const eventMatches =
    event === undefined
      ? () => true
      : hasWildcard(event)
        ? (e: unknown) => typeof e === 'string' && pathMatch(event, e)
        : (e: unknown) => e === event;
  const sinceMs = since?.getTime();
  return (r) =>
    eventMatches(r.event) &&
    (outcome === undefined || r.outcome === outcome) &&
    (hook === undefined || r.hook_name === hook) &&
    (dialect === undefined || r.dialect === dialect) &&
    (dispatch === undefined || r.dispatch_id === dispatch) &&
    (sinceMs === undefined || recordTime(r) >= sinceMs) &&
    (workspace === undefined || workspace.keeps(r));
}

/** Milliseconds of `recorded_at`; a record without a readable time sorts first. */
export function recordTime(record: RunRecord): number {
  const ms = typeof record.recorded_at === 'string' ? Date.parse(record.recorded_at) : NaN;
  return Number.isNaN(ms) ? -Infinity : ms;
}

/** One line as a record, or undefined when it is not a JSON object. */
export function parseRecordLine(line: string): RunRecord | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as RunRecord) : undefined;
  } catch {
    return undefined;
  }
}

/** A read descriptor of `file`, or undefined when it does not exist; other failures throw. */
export function openIfExists(file: string): number | undefined {
  try {
    return openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Every matching record of the file, streaming. A missing file has none. */
export async function readAllRecords(file: string, filter: RecordFilter = {}): Promise<ReadResult> {
  const records: RunRecord[] = [];
  const { skipped } = scanRecords(file, (r) => void records.push(r), filter);
  return { records, skipped };
}

export interface ScanResult {
  /** Lines that were not a JSON object, or longer than the line bound. */
  skipped: number;
  /** Bytes read: the size of the log when the scan ran. */
  bytes: number;
  /** With `keepTail`: the bytes after the last newline are a line already past the bound (read, dropped). */
  inLongLine?: boolean;
}

/**
 * No line longer than this is parsed: it is skipped and counted like a torn line. hookctl's own
 * records stay far below it (a claude answer is cut at 1 MiB); a longer line can only be damage
 * or a hostile writer, and would otherwise be held whole in memory and parsed.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Calls `visit` with every matching record of the file, in file order, holding one chunk and one
 * line at a time: memory stays bounded whatever the size of the log. A missing file has none.
 */
export function scanRecords(
  file: string,
  visit: (record: RunRecord) => void,
  filter: RecordFilter = {},
  from = 0,
): ScanResult {
  const fd = openIfExists(file);
  if (fd === undefined) return { skipped: 0, bytes: 0 }; // a missing log has no records
  try {
    return scanDescriptor(fd, from, fstatSync(fd).size, compileFilter(filter), visit);
  } finally {
    closeSync(fd);
  }
}

export interface ScanOptions {
  /** The scan starts inside a line already past the bound (`inLongLine` of the last scan). */
  inLongLine?: boolean;
  /** The line bound; default MAX_LINE_BYTES. */
  maxLineBytes?: number;
}

/**
 * Reads `fd` from `start` up to `end` (or its end of file) and visits each matching record.
 * With `keepTail`, bytes after the last newline are not a line yet (a record being written):
 * they are left unread and `bytes` stops before them — unless they are already longer than the
 * line bound: then they are consumed, `inLongLine` says so, and the next scan passes it on.
 * Linear in the bytes read: the parts of a line that spans chunks are joined once, at its end.
 */
export function scanDescriptor(
  fd: number,
  start: number,
  end: number,
  matches: (record: RunRecord) => boolean,
  visit: (record: RunRecord) => void,
  keepTail = false,
  options: ScanOptions = {},
): ScanResult {
  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  let skipped = 0;
  const take = (bytes: Buffer, from: number, to: number) => {
    if (to === from) return; // e.g. the newline a writer adds after a torn line
    const line = bytes.toString('utf8', from, to); // lines split at 0x0a never cut a UTF-8 character
    const record = parseRecordLine(line);
    if (record !== undefined) {
      if (matches(record)) visit(record);
    } else if (line.trim() !== '') skipped++; // white space alone is no line (and rare: trim only here)
  };
  // Sized to what is there: a sessions listing scans thousands of small logs.
  const chunk = Buffer.allocUnsafe(Math.min(SCAN_CHUNK_BYTES, Math.max(1, end - start)));
  // The start of a line that continues in the next chunk, in pieces (copies: `chunk` is read into again).
  let pieces: Buffer[] = [];
  let pieceBytes = 0;
  let long = options.inLongLine === true; // inside a line past the bound: dropped up to its newline
  let position = start;
  while (position < end) {
    const bytesRead = readSync(fd, chunk, 0, Math.min(chunk.length, end - position), position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const bytes = chunk.subarray(0, bytesRead);
    let from = 0;
    for (let nl = bytes.indexOf(NEWLINE); nl !== -1; nl = bytes.indexOf(NEWLINE, from)) {
      if (long || pieceBytes + (nl - from) > maxLine) {
        skipped++;
        long = false;
      } else if (pieceBytes > 0) {
        pieces.push(bytes.subarray(from, nl));
        const line = Buffer.concat(pieces);
        take(line, 0, line.length);
      } else take(bytes, from, nl);
      pieces = [];
      pieceBytes = 0;
      from = nl + 1;
    }
    if (long || from === bytesRead) continue;
    if (pieceBytes + (bytesRead - from) > maxLine) {
      long = true;
      pieces = [];
      pieceBytes = 0;
    } else {
      pieces.push(Buffer.from(bytes.subarray(from)));
      pieceBytes += bytesRead - from;
    }
  }
  if (keepTail)
    return long ? { skipped, bytes: position, inLongLine: true } : { skipped, bytes: position - pieceBytes };
  if (long) skipped++;
  else if (pieceBytes > 0) {
    const line = Buffer.concat(pieces);
    take(line, 0, line.length);
  }
  return { skipped, bytes: position };
}

/** The first slice `recordSlices` reads; a line longer than a slice doubles it for that read. */
export const SLICE_BYTES = 1024 * 1024;

/**
 * The matching records of the file in file order, a slice of about `sliceBytes` of log at a time:
 * a caller that hands each slice on before asking for the next (an export) holds one slice, not
 * the log. A missing file has none.
 */
export function* recordSlices(
  file: string,
  filter: RecordFilter = {},
  sliceBytes = SLICE_BYTES,
): Generator<ReadResult> {
  const fd = openIfExists(file);
  if (fd === undefined) return; // a missing log has no records
  try {
    const size = fstatSync(fd).size;
    const matches = compileFilter(filter);
    let position = 0;
    let inLongLine = false;
    let slice = sliceBytes;
    while (position < size) {
      const end = Math.min(size, position + slice);
      const last = end === size;
      const records: RunRecord[] = [];
      const r = scanDescriptor(fd, position, end, matches, (rec) => void records.push(rec), !last, { inLongLine });
      if (!last && r.bytes === position && r.inLongLine !== true) {
        slice *= 2; // no whole line in the slice yet: a line longer than it (at most MAX_LINE_BYTES)
        continue;
      }
      position = last ? end : r.bytes;
      inLongLine = r.inLongLine === true;
      slice = sliceBytes;
      yield { records, skipped: r.skipped };
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The last `n` matching records, oldest first: reads 64 KiB chunks backwards from the end of the
 * file until it has n, so the cost depends on n (and how rare matches are), not on the log size.
 * `skipped` counts the non-JSON lines among those read.
 */
export async function tailRecords(file: string, n: number, filter: RecordFilter = {}): Promise<ReadResult> {
  return tailRecordsSync(file, n, filter);
}

/** `tailRecords` for synchronous callers (the sessions listing reads thousands of logs). */
export function tailRecordsSync(file: string, n: number, filter: RecordFilter = {}): ReadResult {
  const matches = compileFilter(filter);
  if (n <= 0) return { records: [], skipped: 0 };
  const fd = openIfExists(file);
  if (fd === undefined) return { records: [], skipped: 0 }; // a missing log has no records
  try {
    return tailDescriptor(fd, fstatSync(fd).size, n, matches);
  } finally {
    closeSync(fd);
  }
}

/** The last `n` matching records of `fd` before byte `end`, oldest first (see tailRecords). */
export function tailDescriptor(
  fd: number,
  end: number,
  n: number,
  matches: (record: RunRecord) => boolean,
  maxLineBytes = MAX_LINE_BYTES,
): ReadResult {
  const newestFirst: RunRecord[] = [];
  let skipped = 0;
  const take = (bytes: Buffer) => {
    const line = bytes.toString('utf8'); // lines split at 0x0a never cut a UTF-8 character
    if (line.trim() === '') return;
    const record = parseRecordLine(line);
    if (record === undefined) skipped++;
    else if (matches(record)) newestFirst.push(record);
  };
  let position = end;
  // Bytes before the first newline seen so far: the end of a line whose start is further back,
  // in pieces, newest first (joined once, when the line's start is found: linear).
  let pieces: Buffer[] = [];
  let pieceBytes = 0;
  let long = false; // that line is past the bound: dropped, counted once its start is found
  const finish = (head: Buffer) => {
    if (long || pieceBytes + head.length > maxLineBytes) skipped++;
    else take(pieceBytes === 0 ? head : Buffer.concat([head, ...pieces.reverse()]));
    pieces = [];
    pieceBytes = 0;
    long = false;
  };
  while (position > 0 && newestFirst.length < n) {
    const size = Math.min(TAIL_CHUNK_BYTES, position);
    position -= size;
    const chunk = Buffer.alloc(size);
    const bytesRead = readSync(fd, chunk, 0, size, position);
    const bytes = chunk.subarray(0, bytesRead);
    let stop = bytes.length;
    // lastIndexOf (memrchr) rather than a loop over the bytes: such a loop gets compiled by
    // TurboFan on the other core, and Node waits for that compile before it exits (~3 ms).
    for (let i = bytes.lastIndexOf(NEWLINE, stop - 1); i !== -1 && newestFirst.length < n;) {
      finish(bytes.subarray(i + 1, stop));
      stop = i;
      i = i === 0 ? -1 : bytes.lastIndexOf(NEWLINE, i - 1);
    }
    if (long || stop === 0) continue;
    if (pieceBytes + stop > maxLineBytes) {
      long = true;
      pieces = [];
      pieceBytes = 0;
    } else {
      pieces.push(bytes.subarray(0, stop));
      pieceBytes += stop;
    }
  }
  if (position === 0 && newestFirst.length < n && (long || pieceBytes > 0)) finish(Buffer.alloc(0));
  return { records: newestFirst.reverse(), skipped };
}

/** The offset just after the last newline before `end` (0 when there is none): where whole lines stop. */
export function lastLineEnd(fd: number, end: number): number {
  const chunk = Buffer.alloc(Math.min(TAIL_CHUNK_BYTES, Math.max(1, end)));
  for (let position = end; position > 0;) {
    const size = Math.min(chunk.length, position);
    position -= size;
    const bytesRead = readSync(fd, chunk, 0, size, position);
    const nl = chunk.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (nl !== -1) return position + nl + 1;
  }
  return 0;
}

/**
 * Merge lists that are each in time order (two dialects' logs of one session) into one, by
 * `recorded_at`; ties keep list order. Linear in the total length.
 */
export function mergeByTime(...lists: RunRecord[][]): RunRecord[] {
  const heads = lists.map(() => 0);
  const times = lists.map((list) => list.map(recordTime));
  const total = lists.reduce((sum, list) => sum + list.length, 0);
  const merged: RunRecord[] = [];
  while (merged.length < total) {
    let best = -1;
    for (let l = 0; l < lists.length; l++) {
      if (heads[l]! >= lists[l]!.length) continue;
      if (best === -1 || times[l]![heads[l]!]! < times[best]![heads[best]!]!) best = l;
    }
    merged.push(lists[best]![heads[best]!]!);
    heads[best]!++;
  }
  return merged;
}

/**
 * The session whose hook-runs.jsonl was modified last, across the given sessions folders
 * (`$COMPOZY_HOME/sessions`, `$COSH_HOME/sessions`); ties go to the greater id (ids sort by time).
 */
export async function latestSession(sessionDirs: string[]): Promise<string | undefined> {
  let latest: { id: string; mtimeNs: bigint } | undefined;
  for (const dir of sessionDirs) {
    let names: string[];
    try {
      names = readdirSync(dir); // a stray file or a symlinked session: the stat below decides
    } catch {
      continue; // a missing sessions folder has no sessions
    }
    for (const id of names) {
      let st;
      try {
        st = statSync(join(dir, id, 'hook-runs.jsonl'), { bigint: true });
      } catch {
        continue; // no log there (or not a folder at all): not a session
      }
      if (latest === undefined || st.mtimeNs > latest.mtimeNs || (st.mtimeNs === latest.mtimeNs && id > latest.id)) {
        latest = { id, mtimeNs: st.mtimeNs };
      }
    }
  }
  return latest?.id;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DURATION_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h|d)/y;
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3, // U+00B5 micro sign
  μs: 1e-3, // U+03BC Greek mu
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * `--since`: an RFC 3339 time, or a duration ago in Go's syntax (`90s`, `15m`, `2h`, `1h30m`,
 * units ns us ms s m h) plus `d` for days (24 h) as our extension. No sign: "ago" is implied.
 * Anything else is a usage error (exit 2).
 */
export function parseSince(value: string, now: Date): Date {
  const time = parseRfc3339(value);
  if (time !== undefined) return time;
  const ago = parseDurationMs(value);
  if (ago !== undefined) return new Date(now.getTime() - ago);
  throw usageError(
    `invalid --since "${value}": want an RFC 3339 time (2026-11-29T21:00:00Z) or a duration such as 90s, 15m, 2h, 1h30m, 7d`,
  );
}

function parseRfc3339(value: string): Date | undefined {
  const m = RFC3339.exec(value);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // Date.parse rolls 31 Feb over to March; RFC 3339 (and Go) refuse it.
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59)
    return undefined;
  const ms = Date.parse(value.toUpperCase());
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/** Go's time.ParseDuration grammar without a sign, plus `d`. "0" alone is zero, as in Go. */
export function parseDurationMs(value: string): number | undefined {
  if (value === '0') return 0;
  if (value === '') return undefined;
  let total = 0;
  DURATION_PART.lastIndex = 0;
  while (DURATION_PART.lastIndex < value.length) {
    const m = DURATION_PART.exec(value);
    if (m === null) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return total;
}
