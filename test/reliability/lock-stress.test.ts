// Mutual exclusion of the edit lock (src/edit/file-lock.ts) between real processes, with holders
// killed while they hold it (issue 18: when a stale lock was broken, a fresh lock moved aside by
// mistake was put back, and a third process could take the lock in between: two writers).
//
// Every worker takes the lock of one file again and again; inside, it appends `enter <pid>` and,
// before it lets go, `exit <pid>` to a shared log (O_APPEND: lines never tear). The test kills
// some workers while they are inside, logging `kill <pid>` before the signal. Replayed, the log
// must show one holder at a time: an `enter` may follow an `enter` without its `exit` only after
// that holder's `kill`.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../../src/edit/file-lock.js';
import { repoRoot } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const WORKERS = 12;
const ROUNDS = 25;
const KILLS = 6;

let dir: string;
beforeEach(() => {
  dir = tempDir('hookctl-lock-stress-');
});

/** The built chunk that holds src/edit/file-lock.ts (dist/modules.json names it). */
function lockChunk(): string {
  const built = JSON.parse(readFileSync(join(repoRoot, 'dist', 'modules.json'), 'utf8')) as Record<
    string,
    { modules: string[] }
  >;
  const file = Object.entries(built).find(([, v]) => v.modules.includes('src/edit/file-lock.ts'))?.[0];
  if (!file) throw new Error('no built file holds src/edit/file-lock.ts: run `npm run build`');
  return join(repoRoot, 'dist', file);
}

const WORKER = `
const { appendFileSync } = require('node:fs');
const { withFileLock } = require(process.argv[2]);
const [file, log, rounds] = [process.argv[3], process.argv[4], Number(process.argv[5])];
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  for (let i = 0; i < rounds; i++) {
    await withFileLock(file, async () => {
      appendFileSync(log, 'enter ' + process.pid + '\\n');
      process.stdout.write('in\\n');
      await pause(1 + Math.random() * 3);
      appendFileSync(log, 'exit ' + process.pid + '\\n');
    }, { retryMs: 1, timeoutMs: 60000 });
    await pause(Math.random() * 2);
  }
})().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(3); });
`;

/** The first moment two holders overlap, or undefined. */
function overlap(lines: string[]): string | undefined {
  let inside: string | undefined;
  const killed = new Set<string>();
  for (const [i, line] of lines.entries()) {
    const [what, pid] = line.split(' ') as [string, string];
    if (what === 'kill') killed.add(pid);
    else if (what === 'enter') {
      if (inside !== undefined && !killed.has(inside))
        return `line ${i + 1}: ${pid} entered while ${inside} held the lock`;
      inside = pid;
    } else if (what === 'exit') {
      if (inside !== pid) return `line ${i + 1}: ${pid} left a lock held by ${inside}`;
      inside = undefined;
    }
  }
  return undefined;
}

describe('the edit lock between processes', () => {
  it(
    `${WORKERS} processes, ${ROUNDS} turns each, ${KILLS} holders killed inside: never two holders`,
    { timeout: 90_000 },
    async () => {
      const chunk = lockChunk();
      const script = join(dir, 'worker.cjs');
      writeFileSync(script, WORKER);
      const file = join(dir, 'config.toml');
      const log = join(dir, 'log');
      writeFileSync(file, '');
      writeFileSync(log, '');
      let kills = 0;
      const exits: Promise<{ pid: number; code: number | null; signal: string | null; stderr: string }>[] = [];
      for (let w = 0; w < WORKERS; w++) {
        const child: ChildProcess = spawn(process.execPath, [script, chunk, file, log, String(ROUNDS)], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        // Kill a holder inside: at its third turn, for the first KILLS workers, while it waits
        // its 1–4 ms there.
        let turns = 0;
        child.stdout!.setEncoding('utf8').on('data', (d: string) => {
          turns += d.split('\n').length - 1;
          if (w < KILLS && turns >= 3 && child.exitCode === null && child.signalCode === null && !child.killed) {
            appendFileSync(log, `kill ${child.pid}\n`);
            child.kill('SIGKILL');
            kills++;
          }
        });
        exits.push(
          new Promise((resolve) =>
            child.on('close', (code, signal) => resolve({ pid: child.pid!, code, signal, stderr })),
          ),
        );
      }
      const results = await Promise.all(exits);
      const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
      expect(overlap(lines)).toBeUndefined();
      expect(kills).toBe(KILLS);
      const finished = results.filter((r) => r.signal === null);
      for (const r of finished) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
      // Every surviving worker had all its turns; the killed ones at least three.
      const enters = new Map<string, number>();
      for (const l of lines) if (l.startsWith('enter ')) enters.set(l.slice(6), (enters.get(l.slice(6)) ?? 0) + 1);
      for (const r of finished) expect(enters.get(String(r.pid))).toBe(ROUNDS);
      // A later writer clears whatever the killed ones left; then nothing is left behind.
      await withFileLock(file, async () => {}, { timeoutMs: 5000 });
      expect(readdirSync(dir).sort()).toEqual(['config.toml', 'log', 'worker.cjs']);
      expect(existsSync(`${file}.lock`)).toBe(false);
    },
  );

  it('the replay finds an overlap (so the check above can fail)', () => {
    expect(overlap(['enter 1', 'enter 2', 'exit 2'])).toMatch(/2 entered while 1 held/);
    expect(overlap(['enter 1', 'kill 1', 'enter 2', 'exit 2'])).toBeUndefined();
  });
});
