// Concurrency and crash safety of the run log (SPEC §5, §7 "32 concurrent hooks fire on one session
// lose and tear no record"): many `hooks fire` processes append to one session's hook-runs.jsonl at
// once; a torn last line (a crash mid-write) never breaks `hooks runs` or later appends.
import { appendFileSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/ledger/record.js';
import { COMPOZY_PAYLOAD, COSH_PAYLOAD, makeBox, parseJson, STACK_FRAME, type Box, type Dialect } from './support.js';

const PROCESSES = 32;
const HOOKS = 20;

function figure(text: string): void {
  if (process.env.HOOKCTL_FIGURES) process.stdout.write(`[figures] ${text}\n`);
}

/** Every line of the file, checked: valid JSON objects, newline-terminated, none torn. */
function strictLines(file: string): RunRecord[] {
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line, i) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new Error(`line ${i + 1} is not JSON (torn or interleaved): ${line.slice(0, 300)}`);
      }
      expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
      return value as RunRecord;
    });
}

describe('32 concurrent `hooks fire` on one session, 20 hooks each', () => {
  it(
    'compozy: exactly 640 records, every line valid JSON, unique run ids, 20 per dispatch',
    { timeout: 120_000 },
    async () => {
      const box = makeBox();
      // Trivial hooks (the cost is in starting processes): 16 sync in a chain, 4 async through the
      // pool, so records of one process are written both in sequence and concurrently.
      box.writeCompozy(
        Array.from({ length: HOOKS }, (_, i) => ({
          name: `h${String(i).padStart(2, '0')}`,
          event: 'tool.pre_call',
          mode: i < 16 ? ('sync' as const) : ('async' as const),
          priority: 100 - i,
          command: '/bin/sh',
          args: ['-c', 'echo {}'],
        })),
      );
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: PROCESSES }, () =>
          box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'crowd', '-o', 'json'], {
            input: COMPOZY_PAYLOAD,
            timeoutMs: 110_000,
          }),
        ),
      );
      const elapsed = performance.now() - started;
      for (const r of results) {
        expect(r.stderr).not.toMatch(STACK_FRAME);
        expect(r.code, r.stderr).toBe(0);
      }
      const records = strictLines(box.logFile('compozy', 'crowd'));
      figure(
        `compozy: ${PROCESSES} processes x ${HOOKS} hooks -> ${records.length} records in ${Math.round(elapsed)} ms`,
      );
      expect(records).toHaveLength(PROCESSES * HOOKS);
      expect(new Set(records.map((r) => r.run_id)).size).toBe(PROCESSES * HOOKS);
      const perDispatch = new Map<string, number>();
      for (const r of records) perDispatch.set(r.dispatch_id, (perDispatch.get(r.dispatch_id) ?? 0) + 1);
      expect(perDispatch.size).toBe(PROCESSES);
      expect([...perDispatch.values()].every((n) => n === HOOKS)).toBe(true);
      expect(records.every((r) => r.outcome === 'applied' && r.session_id === 'crowd')).toBe(true);
      // What each process printed is what it wrote.
      const printed = results.flatMap((r) => parseJson<{ runs: RunRecord[] }>(r.stdout).runs.map((x) => x.run_id));
      expect(new Set(printed)).toEqual(new Set(records.map((r) => r.run_id)));
    },
  );

  it(
    'cosh: 4 concurrent fires x 20 hooks on one session: exactly 80 records, unique run ids',
    { timeout: 120_000 },
    async () => {
      const box = makeBox();
      box.writeCosh(
        'PreToolUse',
        Array.from({ length: HOOKS }, (_, i) => ({ name: `h${String(i).padStart(2, '0')}`, command: 'echo {}' })),
      );
      const n = PROCESSES / 8; // the same writer as compozy; fewer processes keep the suite's time down
      const results = await Promise.all(
        Array.from({ length: n }, () =>
          box.cli(['hooks', 'fire', 'PreToolUse', '--session', 'crowd'], { input: COSH_PAYLOAD, timeoutMs: 110_000 }),
        ),
      );
      for (const r of results) {
        expect(r.stderr).not.toMatch(STACK_FRAME);
        expect(r.code, r.stderr).toBe(0);
      }
      const records = strictLines(box.logFile('cosh', 'crowd'));
      expect(records).toHaveLength(n * HOOKS);
      expect(new Set(records.map((r) => r.run_id)).size).toBe(n * HOOKS);
      expect(new Set(records.map((r) => r.dispatch_id)).size).toBe(n);
    },
  );
});

/** A crash mid-write: the first half of a record, no newline. */
function tear(box: Box, dialect: Dialect, session: string): string {
  const half = JSON.stringify({
    run_id: 'torn',
    dispatch_id: 'd_torn',
    session_id: session,
    hook_name: 'torn',
    outcome: 'applied',
  }).slice(0, 40);
  appendFileSync(box.logFile(dialect, session), half);
  return half;
}

describe.concurrent.each(['compozy', 'cosh'] as const)('%s: a torn last line', (dialect) => {
  const event = dialect === 'compozy' ? 'tool.pre_call' : 'PreToolUse';
  const input = dialect === 'compozy' ? COMPOZY_PAYLOAD : COSH_PAYLOAD;
  const declare = (box: Box) =>
    dialect === 'compozy'
      ? box.writeCompozy([
          { name: 'one', event, mode: 'sync', priority: 2, command: box.hook('emit.sh'), args: ['{}'] },
          { name: 'two', event, mode: 'sync', priority: 1, command: box.hook('emit.sh'), args: ['{}'] },
        ])
      : box.writeCosh(event, [
          { name: 'one', command: 'echo {}' },
          { name: 'two', command: 'echo {}' },
        ]);

  it('hooks runs skips it (saying so on stderr) and later appends start on a new line, also from concurrent writers', async () => {
    const box = makeBox();
    declare(box);
    const first = await box.cli(['hooks', 'fire', event, '--session', 'crash'], { input });
    expect(first.code, first.stderr).toBe(0);
    const half = tear(box, dialect, 'crash');

    // Reading: the torn line is skipped and counted, the whole records are all there.
    for (const args of [
      ['hooks', 'runs', '--session', 'crash', '-o', 'json'],
      ['hooks', 'runs', '--session', 'crash', '--last', '5', '-o', 'json'],
    ]) {
      const runs = await box.cli(args);
      expect(runs.stderr).not.toMatch(STACK_FRAME);
      expect(runs.code, runs.stderr).toBe(0);
      expect(parseJson<RunRecord[]>(runs.stdout).map((r) => r.hook_name)).toEqual(['one', 'two']);
      expect(runs.stderr).toMatch(/skipped 1 /i);
    }

    // Writing: two fires at once after the crash; each record is a whole line of its own.
    const later = await Promise.all(
      Array.from({ length: 2 }, () => box.cli(['hooks', 'fire', event, '--session', 'crash'], { input })),
    );
    for (const r of later) expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(box.logFile(dialect, 'crash'), 'utf8');
    const lines = text.split('\n');
    expect(lines.filter((l) => l === half)).toHaveLength(1); // the torn half stays alone on its line
    const whole = lines.filter((l) => l !== '' && l !== half);
    expect(whole).toHaveLength(2 + 2 * 2);
    for (const l of whole) expect(() => JSON.parse(l)).not.toThrow();
    const after = await box.cli(['hooks', 'runs', '--session', 'crash', '-o', 'json']);
    expect(after.code, after.stderr).toBe(0);
    expect(parseJson<RunRecord[]>(after.stdout)).toHaveLength(6);
    expect(after.stderr).toMatch(/skipped 1 /i);
  });
});
