// Runs over time end to end (SPEC §9, issue 15): sessions, stats and follow over ledgers written
// by concurrent `hooks fire` processes of two dialects, and `info NAME` across sessions.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/ledger/record.js';
import { binPath } from '../support/cli.js';
import { emitHook, makeSandbox, parseJson, removeSandboxes, type Sandbox } from './fire-support.js';

afterAll(removeSandboxes);

/** A sandbox with compozy hooks on two events and one cosh hook. */
function historySandbox(): Sandbox {
  const box = makeSandbox();
  box.writeConfig([
    emitHook(box, 'quick', 'tool.pre_call', '{}'),
    emitHook(box, 'flaky', 'tool.pre_call', '', { args: ['', '1'] }),
    emitHook(box, 'closer', 'tool.post_call', '{"deny":true,"deny_reason":"done"}'),
  ]);
  mkdirSync(box.env.COSH_HOME!, { recursive: true });
  writeFileSync(
    join(box.env.COSH_HOME!, 'config.toml'),
    ['[[hooks.PreToolUse]]', 'name = "cosh-guard"', `command = "printf '{\\"decision\\":\\"block\\"}'"`, ''].join('\n'),
  );
  return box;
}

const coshLog = (box: Sandbox, session: string) => join(box.env.COSH_HOME!, 'sessions', session, 'hook-runs.jsonl');
const readLog = (file: string): RunRecord[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as RunRecord);

function fire(box: Sandbox, event: string, session: string, input = '{"tool_id":"t"}') {
  return box.cli(['hooks', 'fire', event, '--session', session, '-o', 'json'], { input, timeoutMs: 60_000 });
}

function nearestRank(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p * sorted.length) / 100) - 1]!;
}

describe('sessions, stats, --all-sessions, --dispatch and info over concurrent fires', () => {
  let box: Sandbox;
  const compozySessions = ['alpha', 'beta', 'gamma'];

  it('is set up by concurrent fire processes of both dialects', { timeout: 120_000 }, async () => {
    box = historySandbox();
    const fires: Promise<unknown>[] = [];
    for (const s of compozySessions) {
      for (let i = 0; i < 3; i++) fires.push(fire(box, 'tool.pre_call', s));
      fires.push(fire(box, 'tool.post_call', s));
    }
    for (let i = 0; i < 2; i++) fires.push(fire(box, 'PreToolUse', 'cosh-one', '{"tool_name":"shell"}'));
    const results = (await Promise.all(fires)) as { code: number; stderr: string }[];
    for (const r of results) expect([0, 1]).toContain(r.code); // denied/blocked fires exit 1
    for (const s of compozySessions) expect(box.records(s)).toHaveLength(3 * 2 + 1);
    expect(readLog(coshLog(box, 'cosh-one'))).toHaveLength(2);
  });

  it('hooks sessions lists every session of both dialects with the counts on disk, newest first', async () => {
    const res = await box.cli(['hooks', 'sessions', '-o', 'json']);
    expect(res.code, res.stderr).toBe(0);
    const rows = parseJson<Record<string, unknown>[]>(res.stdout);
    expect(rows.map((r) => r.session_id).sort()).toEqual([...compozySessions, 'cosh-one'].sort());
    for (const row of rows) {
      const records =
        row.dialect === 'cosh' ? readLog(coshLog(box, String(row.session_id))) : box.records(String(row.session_id));
      const outcomes: Record<string, number> = {};
      for (const r of records) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
      const times = records.map((r) => r.recorded_at).sort();
      expect(row).toEqual({
        session_id: row.session_id,
        dialect: records[0]!.dialect,
        runs: records.length,
        outcomes,
        first_recorded_at: times[0],
        last_recorded_at: times.at(-1),
        file: row.dialect === 'cosh' ? coshLog(box, String(row.session_id)) : box.logFile(String(row.session_id)),
      });
    }
    const lasts = rows.map((r) => String(r.last_recorded_at));
    expect(lasts).toEqual([...lasts].sort().reverse());

    const human = await box.cli(['hooks', 'sessions', '--dialect', 'cosh']);
    expect(human.stdout.split('\n')[0]).toMatch(/^Session\s+Dialect\s+Runs\s+Failed\s+Denied\s+First\s+Last$/);
    expect(human.stdout).toMatch(/cosh-one\s+cosh\s+2\s+0\s+2\s/);
    expect(human.stdout).not.toMatch(/alpha/);
    const last = parseJson<unknown[]>((await box.cli(['hooks', 'sessions', '--last', '2', '-o', 'json'])).stdout);
    expect(last).toEqual(rows.slice(0, 2));
  });

  it('runs --stats gives one row per (hook, event, dialect) with nearest-rank percentiles of the records on disk', async () => {
    const res = await box.cli(['hooks', 'runs', '--stats', '--all-sessions', '-o', 'json']);
    expect(res.code, res.stderr).toBe(0);
    const rows = parseJson<Record<string, unknown>[]>(res.stdout);
    const all = [...compozySessions.flatMap((s) => box.records(s)), ...readLog(coshLog(box, 'cosh-one'))];
    expect(rows.map((r) => `${r.hook_name}/${r.event}/${r.dialect}`)).toEqual([
      'closer/tool.post_call/compozy',
      'cosh-guard/PreToolUse/cosh',
      'flaky/tool.pre_call/compozy',
      'quick/tool.pre_call/compozy',
    ]);
    for (const row of rows) {
      const mine = all.filter((r) => r.hook_name === row.hook_name && r.event === row.event);
      const d = mine.map((r) => r.duration_ms);
      expect(row).toMatchObject({
        runs: mine.length,
        timed_out: 0,
        p50_ms: nearestRank(d, 50),
        p95_ms: nearestRank(d, 95),
        p99_ms: nearestRank(d, 99),
        max_ms: Math.max(...d),
      });
    }
    expect(rows[2]).toMatchObject({ runs: 9, outcomes: { failed: 9 } });
    // Every runs filter applies.
    const filtered = parseJson<Record<string, unknown>[]>(
      (
        await box.cli([
          'hooks',
          'runs',
          '--stats',
          '--session',
          'beta',
          '--event',
          'tool.*',
          '--outcome',
          'applied',
          '-o',
          'json',
        ])
      ).stdout,
    );
    expect(filtered).toMatchObject([{ hook_name: 'quick', runs: 3, outcomes: { applied: 3 } }]);
    const human = await box.cli(['hooks', 'runs', '--stats', '--all-sessions']);
    expect(human.stdout.split('\n')[0]).toMatch(
      /^Hook\s+Event\s+Dialect\s+Runs\s+Applied\s+Denied\s+Failed\s+Timed out\s+p50\s+p95\s+p99\s+Max$/,
    );
  });

  it('runs --all-sessions reads every session, newest session last; --dispatch keeps one dispatch', async () => {
    const res = await box.cli(['hooks', 'runs', '--all-sessions', '-o', 'json']);
    const records = parseJson<RunRecord[]>(res.stdout);
    expect(records).toHaveLength(3 * 7 + 2);
    const order = [...new Set(records.map((r) => r.session_id))];
    expect(order).toHaveLength(4);
    const sessionsJson = parseJson<{ session_id: string }[]>(
      (await box.cli(['hooks', 'sessions', '-o', 'json'])).stdout,
    );
    expect(order.at(-1)).toBe(sessionsJson[0]!.session_id);
    const one = box.records('beta')[0]!;
    const byDispatch = parseJson<RunRecord[]>(
      (await box.cli(['hooks', 'runs', '--dispatch', one.dispatch_id, '-o', 'json'])).stdout,
    );
    expect(byDispatch.map((r) => r.run_id)).toEqual(
      box
        .records('beta')
        .filter((r) => r.dispatch_id === one.dispatch_id)
        .map((r) => r.run_id),
    );
    expect(byDispatch.length).toBeGreaterThan(0);
  });

  it("info NAME shows the hook's last runs from every session, newest first", async () => {
    const res = await box.cli(['hooks', 'info', 'quick', '-o', 'json']);
    expect(res.code, res.stderr).toBe(0);
    const { runs } = parseJson<{ runs: RunRecord[] }>(res.stdout);
    const all = compozySessions
      .flatMap((s) => box.records(s))
      .filter((r) => r.hook_name === 'quick')
      .sort((a, b) => (a.recorded_at < b.recorded_at ? 1 : -1));
    expect(runs).toHaveLength(9);
    expect(new Set(runs.map((r) => r.session_id))).toEqual(new Set(compozySessions));
    expect(runs.map((r) => r.recorded_at)).toEqual(all.map((r) => r.recorded_at));
  });
});

/** `hooks runs --follow` as a child process, its stdout lines collected. */
function follow(box: Sandbox, args: string[]) {
  const child: ChildProcess = spawn(
    process.execPath,
    [binPath, 'hooks', 'runs', '--follow', ...args, '--workspace', box.workspace],
    {
      env: box.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    buffer += d;
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waitFor = async (n: number, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (lines.length < n) {
      if (Date.now() > deadline)
        throw new Error(`follow printed ${lines.length} lines, waited for ${n}; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return lines;
  };
  return { child, lines, waitFor, exited, stderr: () => stderr };
}

describe('runs --follow', () => {
  it(
    'prints what is there, then what concurrent fires append; survives truncation, replacement and a torn line; exits 0 on SIGINT',
    { timeout: 120_000 },
    async () => {
      const box = historySandbox();
      expect((await fire(box, 'tool.pre_call', 'live')).code).toBe(0);
      const f = follow(box, ['--session', 'live', '--hook', 'quick', '-o', 'jsonl']);
      try {
        await f.waitFor(1);
        expect(parseJson<RunRecord>(f.lines[0]!)).toMatchObject({ hook_name: 'quick', session_id: 'live' });

        await Promise.all([1, 2, 3, 4].map(() => fire(box, 'tool.pre_call', 'live')));
        await f.waitFor(5);
        const seen = f.lines.map((l) => parseJson<RunRecord>(l));
        expect(seen.every((r) => r.hook_name === 'quick')).toBe(true); // the filter applies
        expect(new Set(seen.map((r) => r.run_id)).size).toBe(5);

        const template = box.records('live').find((r) => r.hook_name === 'quick')!;
        // Proof that follow has looked at the logs since a change, instead of a sleep a loaded
        // machine can outlast: two records in the session's cosh log (also followed), the second
        // written once the first is printed, so the look that prints it began after the change.
        let looks = 0;
        const lookedAgain = async () => {
          for (let i = 0; i < 2; i++) {
            const id = `look-${++looks}`;
            mkdirSync(join(coshLog(box, 'live'), '..'), { recursive: true });
            appendFileSync(coshLog(box, 'live'), JSON.stringify({ ...template, dialect: 'cosh', run_id: id }) + '\n');
            await f.waitFor(f.lines.length + 1);
            expect(parseJson<RunRecord>(f.lines.at(-1)!).run_id).toBe(id);
          }
        };
        const runIds = () => f.lines.map((l) => parseJson<RunRecord>(l).run_id);

        truncateSync(box.logFile('live'), 0);
        await lookedAgain(); // the emptied log is seen before it is written again
        // Counted before the fire: the follower may print its record before the fire returns.
        const beforeFire = f.lines.length;
        expect((await fire(box, 'tool.pre_call', 'live')).code).toBe(0);
        await f.waitFor(beforeFire + 1);
        expect(parseJson<RunRecord>(f.lines.at(-1)!).hook_name).toBe('quick');

        const replacement = join(box.out, 'replacement.jsonl');
        writeFileSync(replacement, JSON.stringify({ ...template, run_id: 'replaced-1' }) + '\n');
        renameSync(replacement, box.logFile('live'));
        await f.waitFor(f.lines.length + 1);
        expect(runIds().at(-1)).toBe('replaced-1');

        const torn = JSON.stringify({ ...template, run_id: 'torn-1' }) + '\n';
        appendFileSync(box.logFile('live'), torn.slice(0, 50));
        await lookedAgain();
        expect(runIds().slice(-3)).toEqual(['replaced-1', 'look-3', 'look-4']); // the half line waited for, not skipped
        appendFileSync(box.logFile('live'), torn.slice(50));
        await f.waitFor(f.lines.length + 1);
        expect(runIds().at(-1)).toBe('torn-1');
        expect(f.stderr()).toBe('');

        f.child.kill('SIGINT');
        expect(await f.exited).toBe(0);
      } finally {
        f.child.kill('SIGKILL');
      }
    },
  );

  it('starts from the last N, and prints human lines', { timeout: 60_000 }, async () => {
    const box = historySandbox();
    for (let i = 0; i < 3; i++) expect((await fire(box, 'tool.pre_call', 'tail')).code).toBe(0);
    const f = follow(box, ['--session', 'tail', '--last', '2']);
    try {
      await f.waitFor(4); // whose runs, the header and two records
      expect(f.lines[0]).toBe(`workspace ${box.workspace} (--all-workspaces for every workspace)`);
      f.lines.shift();
      // the columns and order of `runs`
      expect(f.lines[0]).toMatch(/^Hook\s+Event\s+Outcome\s+Duration\s+Error\s+Recorded$/);
      expect(f.lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['flaky', 'quick']); // dispatch order: by name
      expect(f.lines[1]).toMatch(/flaky\s+tool\.pre_call\s+failed\s+\d+ ms\s+hook command failed: exit status 1/);
      f.child.kill('SIGINT');
      expect(await f.exited).toBe(0);
    } finally {
      f.child.kill('SIGKILL');
    }
  });
});
