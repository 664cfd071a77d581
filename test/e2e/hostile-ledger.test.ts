// Issue 24: a huge line in a run log. `runs`, `--stats` and `sessions` skip and count it in
// linear time; `runs --follow` reads past a 100 MB line being written, prints the next record,
// and answers SIGINT at once instead of after minutes of work.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/ledger/record.js';
import { binPath } from '../support/cli.js';
import { emitHook, makeSandbox, parseJson, removeSandboxes, type Sandbox } from './fire-support.js';
import { until } from '../support/until.js';

afterAll(removeSandboxes);

const HUGE = 100 * 1024 * 1024;

function box(): Sandbox {
  const b = makeSandbox();
  b.writeConfig([emitHook(b, 'quick', 'tool.pre_call', '{}')]);
  return b;
}

async function fire(b: Sandbox, session: string) {
  const r = await b.cli(['hooks', 'fire', 'tool.pre_call', '--session', session, '-o', 'json'], {
    input: '{"tool_id":"t"}',
    timeoutMs: 60_000,
  });
  expect(r.code).toBe(0);
}

function follow(b: Sandbox, session: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [binPath, 'hooks', 'runs', '--follow', '--session', session, '-o', 'jsonl', '--workspace', b.workspace],
    { env: b.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  let exitCode: number | null | undefined;
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.on('close', (code) => (exitCode = code));
  const lines = () => stdout.split('\n').filter((l) => l !== '');
  return { child, lines, stderr: () => stderr, exited: () => exitCode !== undefined, code: () => exitCode };
}

describe('runs --follow beside a huge line', () => {
  it(
    'reads past a 100 MB line as it is written, prints the next record, and exits 0 on SIGINT',
    { timeout: 120_000 },
    async () => {
      const b = box();
      await fire(b, 'big');
      const f = follow(b, 'big');
      try {
        await until('the first record', () => f.lines().length === 1, 30_000);
        appendFileSync(b.logFile('big'), Buffer.alloc(HUGE, 0x78)); // a line being written, no newline yet
        appendFileSync(b.logFile('big'), '\n');
        await fire(b, 'big');
        await until('the record after the huge line', () => f.lines().length === 2, 30_000);
        expect(parseJson<RunRecord>(f.lines()[1]!)).toMatchObject({ hook_name: 'quick', session_id: 'big' });
        expect(f.stderr()).toMatch(/skipped 1 line/);
        f.child.kill('SIGINT');
        await until('exit after SIGINT', f.exited, 10_000);
        expect(f.code()).toBe(0);
      } finally {
        f.child.kill('SIGKILL');
      }
    },
  );

  it('answers SIGINT while a 100 MB partial line is there', { timeout: 120_000 }, async () => {
    const b = box();
    await fire(b, 'partial');
    const f = follow(b, 'partial');
    try {
      await until('the first record', () => f.lines().length === 1, 30_000);
      for (let i = 0; i < 4; i++) appendFileSync(b.logFile('partial'), Buffer.alloc(HUGE / 4, 0x78));
      f.child.kill('SIGINT');
      await until('exit after SIGINT', f.exited, 10_000);
      expect(f.code()).toBe(0);
    } finally {
      f.child.kill('SIGKILL');
    }
  });
});

describe('runs --follow across a rotation', () => {
  it(
    'prints a record written to the rotated log after the switch by a writer that opened it before',
    { timeout: 120_000 },
    async () => {
      const b = box();
      await fire(b, 'rot');
      const template = b.records('rot')[0]!;
      const f = follow(b, 'rot');
      const late = openSync(b.logFile('rot'), 'a'); // a writer with the log open across the rotation
      try {
        await until('the first record', () => f.lines().length === 1, 30_000);
        renameSync(b.logFile('rot'), `${b.logFile('rot')}.1`);
        await fire(b, 'rot'); // the new log
        await until('the record of the new log', () => f.lines().length === 2, 30_000);
        writeSync(late, JSON.stringify({ ...template, run_id: 'late-1' }) + '\n');
        await until('the record written to the rotated log', () => f.lines().length === 3, 30_000);
        expect(parseJson<RunRecord>(f.lines()[2]!).run_id).toBe('late-1');
        f.child.kill('SIGINT');
        await until('exit after SIGINT', f.exited, 10_000);
        expect(f.code()).toBe(0);
      } finally {
        closeSync(late);
        f.child.kill('SIGKILL');
      }
    },
  );
});

describe('runs, --stats and sessions over a log with a 32 MB line', () => {
  it('skip the line and count it, and show every other record', { timeout: 120_000 }, async () => {
    const b = box();
    await fire(b, 'wide');
    const template = b.records('wide')[0]!;
    appendFileSync(
      b.logFile('wide'),
      JSON.stringify({ ...template, run_id: 'wide', note: 'x'.repeat(32 * 1024 * 1024) }) + '\n',
    );
    await fire(b, 'wide');
    const runs = await b.cli(['hooks', 'runs', '--session', 'wide', '-o', 'json'], { timeoutMs: 60_000 });
    expect(runs.code).toBe(0);
    const shown = parseJson<RunRecord[]>(runs.stdout);
    expect(shown).toHaveLength(2);
    expect(shown.map((r) => r.run_id)).not.toContain('wide');
    expect(runs.stderr).toMatch(/skipped 1 line/);
    const stats = await b.cli(['hooks', 'runs', '--session', 'wide', '--stats', '-o', 'json'], { timeoutMs: 60_000 });
    expect(stats.code).toBe(0);
    expect(stats.stdout).toContain('"runs": 2');
    const sessions = await b.cli(['hooks', 'sessions', '-o', 'json'], { timeoutMs: 60_000 });
    expect(sessions.code).toBe(0);
    expect(sessions.stdout).toMatch(/"runs": 2\b/);
  });
});
