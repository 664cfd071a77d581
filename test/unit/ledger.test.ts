import { spawn } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookctlError } from '../../src/errors.js';
import { newId, nowRfc3339Millis } from '../../src/ledger/ids.js';
import {
  latestSession,
  mergeByTime,
  parseSince,
  readAllRecords,
  tailRecords,
  TAIL_CHUNK_BYTES,
  type RecordFilter,
} from '../../src/ledger/reader.js';
import type { RunRecord } from '../../src/ledger/record.js';
import { assertLedgerWritable } from '../../src/ledger/folder-check.js';
import {
  appendRecord,
  appendRecords,
  KNOWN_FILES_LIMIT,
  knownFileCount,
  LedgerWriter,
  serializeRecord,
} from '../../src/ledger/writer.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookctl-ledger-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let fileCounter = 0;
const freshFile = () => join(dir, `s${++fileCounter}`, 'hook-runs.jsonl');

const BASE_MS = Date.parse('2026-11-29T21:00:00.000Z');
const EVENTS = ['tool.pre_call', 'tool.post_call', 'prompt.post_assemble', 'PreToolUse'];
const OUTCOMES = ['applied', 'denied', 'failed', 'skipped'] as const;

function record(i: number, over: Partial<RunRecord> = {}): RunRecord {
  return {
    run_id: `run-${i}`,
    dispatch_id: `d-${Math.floor(i / 5)}`,
    session_id: 'sess',
    dialect: i % 4 === 3 ? 'cosh' : 'compozy',
    event: EVENTS[i % 4]!,
    hook_name: `hook-${i % 7}`,
    source: 'config',
    mode: 'sync',
    priority: 500,
    required: false,
    outcome: OUTCOMES[i % OUTCOMES.length]!,
    duration_ms: i % 100,
    dispatch_depth: 0,
    recorded_at: new Date(BASE_MS + i * 1000).toISOString(),
    ...over,
  };
}

/** Writes records straight to a file (fast fixture generation for big logs). */
async function writeLog(file: string, records: Iterable<RunRecord>): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  let text = '';
  for (const r of records) text += serializeRecord(r);
  await writeFile(file, text);
}

describe('ids', () => {
  it('makes unique, prefixed, time-ordered ids', async () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId()));
    expect(ids.size).toBe(10_000);
    expect(newId('run')).toMatch(/^run_[0-9a-z]{9}[0-9a-f]{16}$/);
    const first = newId();
    // Ids of one millisecond order at random: wait for the clock to move on, not a fixed time.
    const at = Date.now();
    while (Date.now() <= at) await new Promise((r) => setTimeout(r, 1));
    expect(newId() > first).toBe(true);
  });

  it('writes RFC 3339 UTC with milliseconds', () => {
    expect(nowRfc3339Millis(new Date(Date.UTC(2026, 10, 29, 21, 0, 0, 123)))).toBe('2026-11-29T21:00:00.123Z');
    expect(nowRfc3339Millis()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});

describe('assertLedgerWritable (issue 28: refused before any hook runs)', () => {
  it('passes a log whose folders do not exist yet, and creates nothing', async () => {
    const file = join(dir, 'not-yet', 'deeper', 'hook-runs.jsonl');
    expect(() => assertLedgerWritable(file)).not.toThrow();
    await expect(readFile(join(dir, 'not-yet'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a file on the way, a log that is a folder, and /proc, with exit 2', async () => {
    await writeFile(join(dir, 'a-file'), '');
    await mkdir(join(dir, 'log-is-dir', 'hook-runs.jsonl'), { recursive: true });
    const cases: [string, RegExp][] = [
      [join(dir, 'a-file', 'sessions', 's', 'hook-runs.jsonl'), /a-file" is a file, not a folder/],
      [join(dir, 'log-is-dir', 'hook-runs.jsonl'), /hook-runs\.jsonl" is not a file/],
      ['/proc/hookctl/sessions/s/hook-runs.jsonl', /"\/proc" is on \/proc/],
    ];
    for (const [file, message] of cases) {
      let error: unknown;
      try {
        assertLedgerWritable(file);
      } catch (e) {
        error = e;
      }
      expect(error, file).toBeInstanceOf(HookctlError);
      expect(error).toMatchObject({ code: 'ledger_unwritable', exit: 2 });
      expect((error as Error).message).toMatch(message);
    }
  });
});

describe('writer and reader round trip', () => {
  it('appends one line per record, creating the session folder, and reads them back', async () => {
    const file = freshFile();
    const records = [record(1), record(2, { error: 'line one\nline two', patch_applied: { a: [1, 'é'] } })];
    await appendRecords(file, records);
    await appendRecord(file, record(3));
    const raw = await readFile(file, 'utf8');
    expect(raw.split('\n')).toHaveLength(4); // three lines and the final newline
    expect(raw.endsWith('\n')).toBe(true);
    expect(await readAllRecords(file)).toEqual({ records: [...records, record(3)], skipped: 0 });
  });

  it('reads a missing file as empty', async () => {
    expect(await readAllRecords(join(dir, 'none.jsonl'))).toEqual({ records: [], skipped: 0 });
    expect(await tailRecords(join(dir, 'none.jsonl'), 5)).toEqual({ records: [], skipped: 0 });
  });

  it('skips and counts a torn last line, and the next append starts on a new line', async () => {
    const file = freshFile();
    await writeLog(file, [record(1), record(2)]);
    await appendFile(file, '{"run_id":"torn","outco');
    expect(await readAllRecords(file)).toEqual({ records: [record(1), record(2)], skipped: 1 });
    expect(await tailRecords(file, 10)).toEqual({ records: [record(1), record(2)], skipped: 1 });

    await appendRecord(file, record(3));
    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines[2]).toBe('{"run_id":"torn","outco');
    expect(JSON.parse(lines[3]!)).toEqual(record(3));
    expect(await readAllRecords(file)).toEqual({ records: [record(1), record(2), record(3)], skipped: 1 });
  });

  it('counts lines that are JSON but not an object, ignores blank lines', async () => {
    const file = freshFile();
    await writeLog(file, [record(1)]);
    await appendFile(file, '[1,2]\n\n"text"\nnot json\n' + serializeRecord(record(2)));
    expect(await readAllRecords(file)).toEqual({ records: [record(1), record(2)], skipped: 3 });
    expect(await tailRecords(file, 1)).toEqual({ records: [record(2)], skipped: 0 });
    expect(await tailRecords(file, 2)).toEqual({ records: [record(1), record(2)], skipped: 3 });
  });
});

describe('the files known to end in a newline (issue 24)', () => {
  it('stay bounded over one session per case, and a forgotten file is checked again', async () => {
    // hooks test writes each case to a session of its own: 10,000 cases kept 10,000 paths.
    const first = freshFile();
    await appendRecord(first, record(1));
    for (let i = 0; i < 4 * KNOWN_FILES_LIMIT; i++) {
      const writer = new LedgerWriter(freshFile());
      await writer.append(record(i));
      await writer.close();
    }
    expect(knownFileCount()).toBeLessThanOrEqual(KNOWN_FILES_LIMIT);
    // Long forgotten: a torn line another process left there is ended before the next record.
    await appendFile(first, '{"run_id":"torn"');
    await appendRecord(first, record(2));
    const lines = (await readFile(first, 'utf8')).split('\n');
    expect(lines[1]).toBe('{"run_id":"torn"');
    expect(JSON.parse(lines[2]!)).toEqual(record(2));
  });
});

describe('LedgerWriter', () => {
  it('writes appends in call order without awaiting each, and opens nothing when unused', async () => {
    const file = freshFile();
    const writer = new LedgerWriter(file);
    for (let i = 0; i < 50; i++) void writer.append(record(i));
    await writer.close();
    const { records } = await readAllRecords(file);
    expect(records.map((r) => r.run_id)).toEqual(Array.from({ length: 50 }, (_, i) => `run-${i}`));

    const unused = freshFile();
    await new LedgerWriter(unused).close();
    await expect(readFile(unused)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('ends a torn line before its first record', async () => {
    const file = freshFile();
    await writeLog(file, [record(1)]);
    await appendFile(file, '{"torn');
    const writer = new LedgerWriter(file);
    await writer.append(record(2));
    await writer.append(record(3));
    await writer.close();
    expect(await readAllRecords(file)).toEqual({ records: [record(1), record(2), record(3)], skipped: 1 });
  });

  it('reports a write failure from close, and an un-awaited failing append is not an unhandled rejection', async () => {
    const blocker = join(dir, 'blocker');
    await writeFile(blocker, 'a file where a folder should be');
    const writer = new LedgerWriter(join(blocker, 'sess', 'hook-runs.jsonl'));
    void writer.append(record(1));
    await expect(writer.close()).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('writes a 1 MiB record as one whole line', async () => {
    const file = freshFile();
    const big = record(1, { patch_applied: { blob: 'z'.repeat(1 << 20) } });
    await appendRecords(file, [record(0), big, record(2)]);
    expect(await readAllRecords(file)).toEqual({ records: [record(0), big, record(2)], skipped: 0 });
  });
});

/**
 * The real writer code for child processes: src/ledger/writer.ts transpiled (it has only type
 * imports besides node: modules), since plain node cannot load TypeScript. Returns its path.
 */
async function writerModuleForChildren(name: string): Promise<string> {
  const ts = (await import('typescript')).default;
  const source = await readFile(fileURLToPath(new URL('../../src/ledger/writer.ts', import.meta.url)), 'utf8');
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  expect(js).toContain("openSync(key, 'a+'");
  const path = join(dir, name);
  await writeFile(path, js);
  return path;
}

describe('concurrent writers', () => {
  it('8 processes appending 200 records each (half per record, half through one open LedgerWriter) leave exactly 1600 whole lines', async () => {
    const writerModule = await writerModuleForChildren('writer.mjs');

    const file = freshFile();
    const script = fileURLToPath(new URL('../fixtures/hooks/ledger-append.mjs', import.meta.url));
    const exits = await Promise.all(
      Array.from(
        { length: 8 },
        (_, w) =>
          new Promise<number | null>((resolve, reject) => {
            const how = w % 2 === 0 ? 'each' : 'held';
            const child = spawn(
              process.execPath,
              [script, pathToFileURL(writerModule).href, file, '200', String(w), how],
              {
                stdio: ['ignore', 'ignore', 'inherit'],
              },
            );
            child.on('error', reject);
            child.on('exit', (code) => resolve(code));
          }),
      ),
    );
    expect(exits).toEqual(Array(8).fill(0));

    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(1600);
    const perWriter = new Map<string, number[]>();
    for (const line of lines) {
      const r = JSON.parse(line) as RunRecord; // throws on a torn or interleaved line
      const seq = perWriter.get(r.hook_name) ?? [];
      seq.push(r.duration_ms);
      perWriter.set(r.hook_name, seq);
    }
    expect(perWriter.size).toBe(8);
    for (const seq of perWriter.values()) expect(seq).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });
});

describe('a writer that starts while another is mid-record', () => {
  it('does not take a half-copied record for a torn line: 24 late writers beside a 1 MiB-record flood add no blank line', async () => {
    // The kernel copies a write page by page and grows the size after each page, so a process that
    // opens the log then may see a last byte that is not a newline. Ending that "torn" line would
    // leave an empty line once the record completes (seen as 161 lines for 160 records in CI).
    const writerModule = pathToFileURL(await writerModuleForChildren('writer-race.mjs')).href;
    const file = freshFile();
    const script = fileURLToPath(new URL('../fixtures/hooks/ledger-append.mjs', import.meta.url));
    const run = (args: string[]) =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, [script, writerModule, file, ...args], {
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        child.on('error', reject);
        child.on('exit', (code) => resolve(code));
      });
    const flood = run(['400', 'flood', 'held', String(1 << 20)]);
    const late: Promise<number | null>[] = [];
    for (let i = 0; i < 24; i++) {
      late.push(run(['1', `late${i}`, 'each']));
      await new Promise((r) => setTimeout(r, 15));
    }
    expect(await Promise.all([flood, ...late])).toEqual(Array(25).fill(0));
    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.filter((l) => l === '')).toHaveLength(0);
    expect(lines).toHaveLength(424);
    for (const line of lines) JSON.parse(line); // throws on a torn or interleaved line
  }, 60_000);
});

describe('tailRecords', () => {
  let file: string;
  let all: RunRecord[];

  beforeAll(async () => {
    // Lines of very different lengths, some longer than a whole chunk, and garbage lines, so line
    // ends fall everywhere relative to the 64 KiB chunk boundaries.
    all = Array.from({ length: 3000 }, (_, i) =>
      record(i, {
        error: 'e'.repeat((i * 37) % 500),
        ...(i % 401 === 0 ? { patch_applied: { big: 'p'.repeat(TAIL_CHUNK_BYTES * 2 + i) } } : {}),
      }),
    );
    file = freshFile();
    await mkdir(join(file, '..'), { recursive: true });
    let text = '';
    all.forEach((r, i) => {
      text += serializeRecord(r);
      if (i % 997 === 0) text += 'garbage line\n';
    });
    await writeFile(file, text);
  });

  const filters: RecordFilter[] = [
    {},
    { event: 'tool.pre_call' },
    { event: 'tool.*' },
    { event: '*' },
    { event: 'tool.pre_call', outcome: 'applied' },
    { hook: 'hook-3' },
    { dialect: 'cosh' },
    { since: new Date(BASE_MS + 2500 * 1000) },
    { event: 'prompt.*', hook: 'hook-5', outcome: 'failed' },
    { event: 'no.such' },
  ];

  it.each(filters.map((f) => [JSON.stringify(f), f] as const))(
    'equals the last n of readAllRecords for %s',
    async (_, filter) => {
      const { records: everything, skipped } = await readAllRecords(file, filter);
      expect(skipped).toBe(4);
      for (const n of [1, 2, 3, 20, 199, 1000, 5000]) {
        const tail = await tailRecords(file, n, filter);
        expect(tail.records).toEqual(everything.slice(-n));
      }
      expect((await tailRecords(file, 0, filter)).records).toEqual([]);
    },
  );

  it('filters by event exactly when the pattern has no wildcard, and rejects a bad pattern (exit 2)', async () => {
    const { records } = await readAllRecords(file, { event: 'tool' });
    expect(records).toEqual([]);
    const bad = readAllRecords(file, { event: 'tool.[' });
    await expect(bad).rejects.toBeInstanceOf(HookctlError);
    await expect(bad).rejects.toMatchObject({ exit: 2 });
  });

  it('reads the last 20 of 200,000 records as fast as the last 20 of 100', async () => {
    const big = freshFile();
    await mkdir(join(big, '..'), { recursive: true });
    const parts: string[] = [];
    for (let i = 0; i < 200_000; i++) parts.push(serializeRecord(record(i)));
    await writeFile(big, parts.join(''));
    const small = freshFile();
    await writeLog(
      small,
      Array.from({ length: 100 }, (_, i) => record(i)),
    );

    const time = async (f: string) => {
      const started = performance.now();
      for (let k = 0; k < 5; k++) await tailRecords(f, 20);
      return (performance.now() - started) / 5;
    };
    await time(small); // warm up
    const smallMs = await time(small);
    const bigMs = await time(big);
    const tail = await tailRecords(big, 20);
    expect(tail.records.map((r) => r.run_id)).toEqual(Array.from({ length: 20 }, (_, i) => `run-${199_980 + i}`));
    expect(bigMs).toBeLessThan(Math.max(smallMs * 5, 20));

    const filtered = await tailRecords(big, 20, { event: 'prompt.post_assemble', hook: 'hook-2' });
    expect(filtered.records).toHaveLength(20);
    expect(filtered.records.every((r) => r.event === 'prompt.post_assemble' && r.hook_name === 'hook-2')).toBe(true);
  });
});

describe('mergeByTime', () => {
  it('merges lists in time order, ties keeping list order', () => {
    const at = (id: string, s: number): RunRecord =>
      record(0, { run_id: id, recorded_at: new Date(BASE_MS + s * 1000).toISOString() });
    const compozy = [at('c1', 1), at('c3', 3), at('c5', 5), at('c6', 6)];
    const cosh = [at('k2', 2), at('k3', 3), at('k7', 7)];
    expect(mergeByTime(compozy, cosh).map((r) => r.run_id)).toEqual(['c1', 'k2', 'c3', 'k3', 'c5', 'c6', 'k7']);
    expect(mergeByTime(cosh, compozy).map((r) => r.run_id)).toEqual(['c1', 'k2', 'k3', 'c3', 'c5', 'c6', 'k7']);
    expect(mergeByTime([], compozy)).toEqual(compozy);
    expect(mergeByTime()).toEqual([]);
  });
});

describe('latestSession', () => {
  it('picks the session whose hook-runs.jsonl was modified last, across folders', async () => {
    const root = await mkdtemp(join(dir, 'sessions-'));
    const compozy = join(root, 'compozy');
    const cosh = join(root, 'cosh');
    const touch = async (base: string, id: string, secondsAgo: number) => {
      await mkdir(join(base, id), { recursive: true });
      const f = join(base, id, 'hook-runs.jsonl');
      await writeFile(f, '');
      const t = new Date(Date.now() - secondsAgo * 1000);
      await utimes(f, t, t);
    };
    expect(await latestSession([compozy, cosh])).toBeUndefined();
    await touch(compozy, 'old', 300);
    await touch(compozy, 'mid', 200);
    await touch(cosh, 'newest', 100);
    await mkdir(join(compozy, 'no-ledger'), { recursive: true }); // a session folder without runs
    await writeFile(join(compozy, 'stray-file'), '');
    expect(await latestSession([compozy, cosh])).toBe('newest');
    expect(await latestSession([compozy, join(root, 'missing')])).toBe('mid');
    await touch(compozy, 'old', 10);
    expect(await latestSession([compozy, cosh])).toBe('old');
  });
});

describe('parseSince', () => {
  const now = new Date('2026-11-29T21:00:00.000Z');

  it.each([
    ['2026-11-29T20:00:00Z', '2026-11-29T20:00:00.000Z'],
    ['2026-11-29T20:00:00.123Z', '2026-11-29T20:00:00.123Z'],
    ['2026-11-29T22:00:00+02:00', '2026-11-29T20:00:00.000Z'],
    ['2026-11-29t20:00:00.5z', '2026-11-29T20:00:00.500Z'],
    ['90s', '2026-11-29T20:58:30.000Z'],
    ['15m', '2026-11-29T20:45:00.000Z'],
    ['2h', '2026-11-29T19:00:00.000Z'],
    ['1h30m', '2026-11-29T19:30:00.000Z'],
    ['1.5h', '2026-11-29T19:30:00.000Z'],
    ['7d', '2026-11-22T21:00:00.000Z'],
    ['500ms', '2026-11-29T20:59:59.500Z'],
    ['0', '2026-11-29T21:00:00.000Z'],
  ])('%s → %s', (value, expected) => {
    expect(parseSince(value, now).toISOString()).toBe(expected);
  });

  it.each([
    '',
    'yesterday',
    '10',
    '-5m',
    '5 m',
    '1y',
    '2026-11-29',
    '2026-02-30T00:00:00Z',
    '2026-11-29T25:00:00Z',
    'h',
  ])('refuses %j as a usage error (exit 2)', (value) => {
    let error: unknown;
    try {
      parseSince(value, now);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(HookctlError);
    expect((error as HookctlError).exit).toBe(2);
    expect((error as HookctlError).message).toContain(`invalid --since "${value}"`);
  });
});
