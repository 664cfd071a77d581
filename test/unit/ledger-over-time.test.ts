// Sessions, stats and follow over real files (SPEC §9).
import { appendFileSync, mkdirSync, readdirSync, renameSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { followLogs } from '../../src/ledger/follow.js';
import { scanRecords } from '../../src/ledger/reader.js';
import type { RunRecord } from '../../src/ledger/record.js';
import { listSessions } from '../../src/ledger/sessions.js';
import { nearestRank, nearestRanks, RunStats } from '../../src/ledger/stats.js';
import { serializeRecord } from '../../src/ledger/writer.js';
import { tempDir } from '../support/temp.js';
import { until } from '../support/until.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('hookctl-over-time-');
});

const BASE_MS = Date.parse('2026-11-29T21:00:00.000Z');

function record(i: number, over: Partial<RunRecord> = {}): RunRecord {
  return {
    run_id: `run-${i}`,
    dispatch_id: `d-${Math.floor(i / 3)}`,
    session_id: 'sess',
    dialect: 'compozy',
    event: 'tool.pre_call',
    hook_name: `hook-${i % 2}`,
    source: 'config',
    mode: 'sync',
    priority: 500,
    required: false,
    outcome: 'applied',
    duration_ms: i,
    dispatch_depth: 1,
    recorded_at: new Date(BASE_MS + i * 1000).toISOString(),
    ...over,
  };
}

function writeLog(file: string, records: RunRecord[], extra = ''): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, records.map(serializeRecord).join('') + extra);
}

describe('nearest-rank percentiles', () => {
  it('picks the smallest value whose rank reaches ceil(p·n/100)', () => {
    const values = [15, 20, 35, 40, 50];
    expect(nearestRank(values, 5)).toBe(15);
    expect(nearestRank(values, 30)).toBe(20);
    expect(nearestRank(values, 40)).toBe(20);
    expect(nearestRank(values, 50)).toBe(35);
    expect(nearestRank(values, 100)).toBe(50);
    // 95 · 60 / 100 = 57 exactly; (95/100) · 60 in floating point is 57.000000000000007
    const sixty = Array.from({ length: 60 }, (_, i) => i + 1);
    expect(nearestRank(sixty, 95)).toBe(57);
    expect(nearestRank([7], 99)).toBe(7);
  });

  it('agrees with sorting the whole list, on random inputs with repeats', () => {
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let t = 0; t < 200; t++) {
      const values = Array.from({ length: 1 + Math.floor(rand() * 300) }, () => Math.floor(rand() * 50));
      const sorted = [...values].sort((a, b) => a - b);
      const counts = new Map<number, number>();
      for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
      const got = nearestRanks(counts, values.length, [50, 95, 99]);
      const want = [50, 95, 99].map((p) => sorted[Math.ceil((p * values.length) / 100) - 1]);
      expect(got).toEqual(want);
    }
  });
});

describe('RunStats', () => {
  it('groups by (hook, event, dialect) with outcomes, timeouts and percentiles', () => {
    const stats = new RunStats();
    for (let i = 1; i <= 100; i++) stats.add(record(i, { hook_name: 'slow', duration_ms: i }));
    stats.add(
      record(0, {
        hook_name: 'slow',
        dialect: 'cosh',
        event: 'PreToolUse',
        outcome: 'failed',
        timed_out: true,
        duration_ms: 5000,
      }),
    );
    stats.add(record(0, { hook_name: 'a', outcome: 'denied', duration_ms: 3 }));
    const rows = stats.rows();
    expect(rows.map((r) => [r.hook_name, r.event, r.dialect])).toEqual([
      ['a', 'tool.pre_call', 'compozy'],
      ['slow', 'PreToolUse', 'cosh'],
      ['slow', 'tool.pre_call', 'compozy'],
    ]);
    expect(rows[2]).toEqual({
      hook_name: 'slow',
      event: 'tool.pre_call',
      dialect: 'compozy',
      runs: 100,
      outcomes: { applied: 100 },
      timed_out: 0,
      p50_ms: 50,
      p95_ms: 95,
      p99_ms: 99,
      max_ms: 100,
    });
    expect(rows[1]).toMatchObject({ runs: 1, outcomes: { failed: 1 }, timed_out: 1, p50_ms: 5000, max_ms: 5000 });
    expect(rows[0]).toMatchObject({ outcomes: { denied: 1 } });
  });
});

describe('outcomes named like Object members', () => {
  // A log is read as it is: an outcome is whatever string a line holds.
  const odd = ['__proto__', 'hasOwnProperty', 'constructor', 'toString'] as unknown as RunRecord['outcome'][];

  it('--stats counts them as any other outcome', () => {
    const stats = new RunStats();
    for (const outcome of odd) for (let i = 0; i < 2; i++) stats.add(record(i, { hook_name: 'h', outcome }));
    const [row] = stats.rows();
    expect(row!.runs).toBe(8);
    expect(Object.entries(row!.outcomes)).toEqual(odd.map((o) => [o, 2]));
    expect(JSON.parse(JSON.stringify(row!.outcomes))).toEqual(Object.fromEntries(odd.map((o) => [o, 2])));
  });

  it('sessions counts them as any other outcome', () => {
    const file = join(dir, 'compozy', 's1', 'hook-runs.jsonl');
    writeLog(
      file,
      odd.flatMap((outcome) => [record(1, { outcome }), record(2, { outcome })]),
    );
    const { sessions } = listSessions([{ dialect: 'compozy', dir: join(dir, 'compozy') }]);
    expect(Object.entries(sessions[0]!.outcomes)).toEqual(odd.map((o) => [o, 2]));
  });
});

describe('scanRecords', () => {
  it('visits every matching record in file order, skipping and counting torn lines, across chunk borders', () => {
    const file = join(dir, 's', 'hook-runs.jsonl');
    // Records of ~1.1 KiB with multi-byte characters, enough to cross the 1 MiB chunk several times.
    const records = Array.from({ length: 3000 }, (_, i) => record(i, { error: `é☺ ${'x'.repeat(1000)} ${i}` }));
    writeLog(file, records, '{"torn":');
    const seen: number[] = [];
    const { skipped } = scanRecords(file, (r) => seen.push(r.duration_ms), { hook: 'hook-1' });
    expect(seen).toEqual(records.filter((r) => r.hook_name === 'hook-1').map((r) => r.duration_ms));
    expect(skipped).toBe(1);
  });

  it('keeps one dispatch with the dispatch filter', () => {
    const file = join(dir, 's', 'hook-runs.jsonl');
    writeLog(
      file,
      Array.from({ length: 10 }, (_, i) => record(i)),
    );
    const ids: string[] = [];
    scanRecords(file, (r) => ids.push(r.run_id), { dispatch: 'd-1' });
    expect(ids).toEqual(['run-3', 'run-4', 'run-5']);
  });
});

describe('listSessions', () => {
  function session(dialectDir: string, id: string, records: RunRecord[], extra = ''): string {
    const file = join(dir, dialectDir, id, 'hook-runs.jsonl');
    writeLog(file, records, extra);
    return file;
  }
  const folders = () => [
    { dialect: 'compozy', dir: join(dir, 'compozy') },
    { dialect: 'cosh', dir: join(dir, 'cosh') },
    { dialect: 'claude', dir: join(dir, 'missing') },
  ];

  it('lists every session of every dialect newest first, with counts and first/last times', () => {
    const old = session('compozy', 'old', [record(1), record(2, { outcome: 'failed' })]);
    session('cosh', 'mid', [record(10, { dialect: 'cosh', outcome: 'denied' })], 'torn');
    session('compozy', 'new', [record(20), record(21, { outcome: 'denied' }), record(22, { outcome: 'denied' })]);
    mkdirSync(join(dir, 'compozy', 'no-log'), { recursive: true }); // a folder without a log is no session
    writeFileSync(join(dir, 'compozy', 'stray-file'), 'x');
    const { sessions, skipped } = listSessions(folders());
    expect(sessions.map((s) => [s.session_id, s.dialect])).toEqual([
      ['new', 'compozy'],
      ['mid', 'cosh'],
      ['old', 'compozy'],
    ]);
    expect(sessions[2]).toEqual({
      session_id: 'old',
      dialect: 'compozy',
      runs: 2,
      outcomes: { applied: 1, failed: 1 },
      first_recorded_at: record(1).recorded_at,
      last_recorded_at: record(2).recorded_at,
      file: old,
    });
    expect(sessions[0]!.outcomes).toEqual({ applied: 1, denied: 2 });
    expect(skipped).toBe(1);
  });

  it('takes first and last by recorded_at: concurrent writers can append a record out of order', () => {
    session('compozy', 'racy', [record(5), record(3), record(9), record(8)]);
    expect(listSessions(folders()).sessions[0]).toMatchObject({
      first_recorded_at: record(3).recorded_at,
      last_recorded_at: record(9).recorded_at,
    });
    session('cosh', 'later', [record(7, { dialect: 'cosh' })]);
    // --last 1 looks past the last line: "racy"'s latest record (9) is newer than "later"'s (7)
    expect(listSessions(folders(), { last: 1 }).sessions.map((s) => s.session_id)).toEqual(['racy']);
  });

  it('filters by dialect, --since (last activity) and --last N', () => {
    session('compozy', 'a', [record(1)]);
    session('cosh', 'b', [record(5, { dialect: 'cosh' })]);
    session('compozy', 'c', [record(9)]);
    expect(listSessions(folders(), { dialect: 'cosh' }).sessions.map((s) => s.session_id)).toEqual(['b']);
    expect(listSessions(folders(), { last: 2 }).sessions.map((s) => s.session_id)).toEqual(['c', 'b']);
    const since = new Date(BASE_MS + 5000);
    expect(listSessions(folders(), { since }).sessions.map((s) => s.session_id)).toEqual(['c', 'b']);
    expect(listSessions(folders(), { since, last: 1 }).sessions.map((s) => s.session_id)).toEqual(['c']);
  });

  it('orders a log without a readable record by its modification time', () => {
    session('compozy', 'empty', [], 'not json\n');
    session('compozy', 'dated', [record(1)]);
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'compozy', 'empty', 'hook-runs.jsonl'), future, future);
    const { sessions } = listSessions(folders());
    expect(sessions.map((s) => [s.session_id, s.runs, s.last_recorded_at])).toEqual([
      ['empty', 0, null],
      ['dated', 1, record(1).recorded_at],
    ]);
  });
});

describe('followLogs', () => {
  it('prints what is there, then appends; waits for a torn line; reopens a truncated or replaced log; stops on abort', async () => {
    const file = join(dir, 'compozy', 's', 'hook-runs.jsonl');
    const other = join(dir, 'cosh', 's', 'hook-runs.jsonl'); // appears later
    const inFlight = serializeRecord(record(5)); // being written when follow starts
    writeLog(file, [record(1), record(2), record(3, { hook_name: 'x' })], inFlight.slice(0, 30));
    const seen: string[] = [];
    let skipped = 0;
    let looks = 0; // followLogs asks for its files once per look at the logs
    const ac = new AbortController();
    const done = followLogs({
      files: () => (looks++, [file, other]),
      filter: { hook: 'hook-1' },
      onRecord: (r) => seen.push(r.run_id),
      onSkipped: (n) => (skipped += n),
      signal: ac.signal,
      pollMs: 10,
    });
    /**
     * Until followLogs has looked at the logs at least once after this call: the look begun by
     * the next files() call reads the logs as they are now, and the one after it starts only
     * when that look is done. Counting looks instead of sleeping a while holds on a loaded machine.
     */
    const lookedAgain = async () => {
      const target = looks + 2;
      await until('looks >= target', () => looks >= target);
    };
    await until('seen.length === 1', () => seen.length === 1);
    expect(seen).toEqual(['run-1']);

    // The line being written is waited for, then read whole: one record, not a skipped line.
    await lookedAgain();
    expect(seen).toEqual(['run-1']);
    appendFileSync(file, inFlight.slice(30));
    await until('seen.length === 2', () => seen.length === 2);
    expect(seen[1]).toBe('run-5');
    expect(skipped).toBe(0);

    // A writer that splits one record over two writes.
    const line = serializeRecord(record(7));
    appendFileSync(file, line.slice(0, 40));
    await lookedAgain();
    expect(seen).toHaveLength(2);
    appendFileSync(file, line.slice(40));
    await until('seen.length === 3', () => seen.length === 3);
    expect(seen[2]).toBe('run-7');

    // Another dialect's log of the session appears: read from its start.
    writeLog(other, [record(9, { dialect: 'cosh' }), record(10)]);
    await until('seen.length === 4', () => seen.length === 4);
    expect(seen[3]).toBe('run-9');

    // Truncated, then written again.
    truncateSync(file, 0);
    await lookedAgain(); // the empty log is seen before it is written again
    appendFileSync(file, serializeRecord(record(11)));
    await until('seen.length === 5', () => seen.length === 5);
    expect(seen[4]).toBe('run-11');

    // Replaced by rename: the new file from its start.
    const replacement = join(dir, 'replacement.jsonl');
    writeFileSync(replacement, serializeRecord(record(13)) + serializeRecord(record(15)));
    renameSync(replacement, file);
    await until('seen.length === 7', () => seen.length === 7);
    expect(seen.slice(5)).toEqual(['run-13', 'run-15']);

    // A torn line that its writer never finishes: the next writer ends it; it is skipped then.
    appendFileSync(file, '{"torn');
    appendFileSync(file, '\n' + serializeRecord(record(17)));
    await until('seen.length === 8', () => seen.length === 8);
    expect(skipped).toBe(1);

    ac.abort();
    await done;
  });

  it('starts from the last N existing records', async () => {
    const file = join(dir, 'compozy', 's', 'hook-runs.jsonl');
    writeLog(
      file,
      Array.from({ length: 50 }, (_, i) => record(i)),
    );
    const seen: string[] = [];
    const ac = new AbortController();
    const done = followLogs({
      files: () => [file],
      last: 3,
      onRecord: (r) => seen.push(r.run_id),
      signal: ac.signal,
      pollMs: 10,
    });
    await until('seen.length === 3', () => seen.length === 3);
    appendFileSync(file, serializeRecord(record(60)));
    await until('seen.length === 4', () => seen.length === 4);
    expect(seen).toEqual(['run-47', 'run-48', 'run-49', 'run-60']);
    ac.abort();
    await done;
  });
});

describe('followLogs with many idle logs', () => {
  it('gives back the descriptors of idle logs and reopens them when they change', async () => {
    const files = Array.from({ length: 20 }, (_, i) => join(dir, 'compozy', `s${i}`, 'hook-runs.jsonl'));
    for (const f of files) writeLog(f, [record(1)]);
    const openFds = () => readdirSync('/proc/self/fd').length;
    const before = openFds();
    const seen: string[] = [];
    const ac = new AbortController();
    const done = followLogs({
      files: () => files,
      last: 0,
      onRecord: (r) => seen.push(r.run_id),
      signal: ac.signal,
      pollMs: 10,
      idleCloseMs: 30,
    });
    // The logs there at the start are opened before followLogs first awaits: counted at once,
    // not after a sleep that a loaded machine can stretch past the idle delay.
    expect(openFds()).toBeGreaterThanOrEqual(before + 20);
    await until('openFds() < before + 5', () => openFds() < before + 5); // idle: closed
    appendFileSync(files[3]!, serializeRecord(record(2)));
    const replacement = join(dir, 'new.jsonl');
    writeFileSync(replacement, serializeRecord(record(3)));
    renameSync(replacement, files[7]!); // replaced while closed: read from its start
    await until('seen.length >= 2', () => seen.length >= 2);
    expect(seen.sort()).toEqual(['run-2', 'run-3']);
    ac.abort();
    await done;
    expect(openFds()).toBeLessThanOrEqual(before);
  });
});
