// Issue 24: a line of a run log longer than MAX_LINE_BYTES is skipped and counted like a torn
// line, by the whole-log scan, the tail read and the follow reader's scans; every read is linear
// in the bytes (a line spanning chunks is joined once, at its end).
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_LINE_BYTES,
  readAllRecords,
  scanDescriptor,
  SCAN_CHUNK_BYTES,
  tailRecords,
} from '../../src/ledger/reader.js';
import type { RunRecord } from '../../src/ledger/record.js';
import { tempDir } from '../support/temp.js';

const line = (id: string, pad = 0) =>
  JSON.stringify({ run_id: id, hook_name: 'h', event: 'e', outcome: 'applied', note: 'x'.repeat(pad) });

function log(lines: string[], tail = ''): string {
  const file = join(tempDir('hookctl-long-lines-'), 'hook-runs.jsonl');
  writeFileSync(file, lines.map((l) => `${l}\n`).join('') + tail);
  return file;
}

const ids = (records: RunRecord[]) => records.map((r) => r.run_id);

describe('a run log line past the line bound', () => {
  it('a valid 20 MiB record line is skipped and counted by readAllRecords and tailRecords', async () => {
    const big = line('big', MAX_LINE_BYTES + 4 * 1024 * 1024);
    const file = log([line('a'), big, line('b')]);
    const all = await readAllRecords(file);
    expect(ids(all.records)).toEqual(['a', 'b']);
    expect(all.skipped).toBe(1);
    const tail = await tailRecords(file, 5);
    expect(ids(tail.records)).toEqual(['a', 'b']);
    expect(tail.skipped).toBe(1);
    const last = await tailRecords(file, 1);
    expect(ids(last.records)).toEqual(['b']);
  });

  it('a long last line without a newline is skipped and counted too; a line just within the bound is kept', async () => {
    const within = line('within', 3 * SCAN_CHUNK_BYTES);
    const file = log([within, line('a')], 'y'.repeat(MAX_LINE_BYTES + 10));
    const all = await readAllRecords(file);
    expect(ids(all.records)).toEqual(['within', 'a']);
    expect(all.skipped).toBe(1);
    const tail = await tailRecords(file, 5);
    expect(ids(tail.records)).toEqual(['within', 'a']);
    expect(tail.skipped).toBe(1);
  });

  it('keepTail: a partial line past the bound is consumed and carried over as inLongLine, then counted at its newline', () => {
    const bound = 4 * SCAN_CHUNK_BYTES;
    const file = log([line('a')], 'z'.repeat(bound + SCAN_CHUNK_BYTES + 7));
    const fd = openSync(file, 'r');
    try {
      const seen: RunRecord[] = [];
      const first = scanDescriptor(
        fd,
        0,
        Number.MAX_SAFE_INTEGER,
        () => true,
        (r) => void seen.push(r),
        true,
        {
          maxLineBytes: bound,
        },
      );
      expect(ids(seen)).toEqual(['a']);
      expect(first).toEqual({
        skipped: 0,
        bytes: line('a').length + 1 + bound + SCAN_CHUNK_BYTES + 7,
        inLongLine: true,
      });
      // The writer ends the line and appends a record.
      writeFileSync(file, `zz\n${line('b')}\n`, { flag: 'a' });
      const second = scanDescriptor(
        fd,
        first.bytes,
        Number.MAX_SAFE_INTEGER,
        () => true,
        (r) => void seen.push(r),
        true,
        {
          maxLineBytes: bound,
          inLongLine: true,
        },
      );
      expect(ids(seen)).toEqual(['a', 'b']);
      expect(second.skipped).toBe(1);
      expect(second.inLongLine).toBeUndefined();
    } finally {
      closeSync(fd);
    }
  });

  it('a partial line within the bound spanning chunks is left unread with keepTail, and read whole once ended', () => {
    const rec = line('spans', 3 * SCAN_CHUNK_BYTES);
    const file = log([line('a')], rec.slice(0, 2 * SCAN_CHUNK_BYTES + 5));
    const fd = openSync(file, 'r');
    try {
      const seen: RunRecord[] = [];
      const first = scanDescriptor(
        fd,
        0,
        Number.MAX_SAFE_INTEGER,
        () => true,
        (r) => void seen.push(r),
        true,
      );
      expect(first).toEqual({ skipped: 0, bytes: line('a').length + 1 });
      writeFileSync(file, `${rec.slice(2 * SCAN_CHUNK_BYTES + 5)}\n`, { flag: 'a' });
      const second = scanDescriptor(
        fd,
        first.bytes,
        Number.MAX_SAFE_INTEGER,
        () => true,
        (r) => void seen.push(r),
        true,
      );
      expect(ids(seen)).toEqual(['a', 'spans']);
      expect(second.skipped).toBe(0);
    } finally {
      closeSync(fd);
    }
  });
});
