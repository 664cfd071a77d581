// The answer cache's recording and check (src/cli/answer-cache.ts), in-process: a run is kept
// only when everything it read was recorded, and its answer is served only while every one of
// those inputs is unchanged. The recording watches the file system module itself, as the fast
// path's bundle calls it, so the tests call it through the same object.
import { constants, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordAnswer, serveAnswer, type AnswerSlot } from '../../src/cli/answer-cache.js';
import { tempDir } from '../support/temp.js';

const fs = (process as unknown as { getBuiltinModule(id: string): typeof import('node:fs') }).getBuiltinModule(
  'node:fs',
);

let dir: string;
let slot: AnswerSlot;
let input: string;
let modules = 0;

beforeEach(() => {
  dir = tempDir('hookctl-answer-unit-');
  // Apart from what the runs read: writing an entry changes its folder.
  slot = { file: join(tempDir('hookctl-answer-slot-'), 'answer-test.json'), key: 'the key', modules: () => modules };
  input = join(dir, 'input.toml');
  fs.writeFileSync(input, 'name = "a"\n');
});

afterEach(() => {
  delete process.env.HOOKCTL_ANSWER_TEST;
  modules = 0;
});

/** Records `run` as a command that printed `printed`, and says whether an answer was kept. */
function record(run: () => void, printed = 'out\n', exit = 0): boolean {
  const recording = recordAnswer(slot)!;
  expect(recording).toBeDefined();
  try {
    run();
    recording.wrote(1, printed);
  } finally {
    recording.finish(true, exit);
  }
  return fs.existsSync(slot.file);
}

function served(): [number, string][] | undefined {
  const written: [number, string][] = [];
  return serveAnswer(slot, (fd, text) => written.push([fd, text])) ? written : undefined;
}

describe('recording', () => {
  it('keeps a run that read files and folders, and serves it while they are unchanged', () => {
    expect(
      record(() => {
        fs.readFileSync(input, 'utf8');
        fs.statSync(dir);
        fs.readdirSync(dir, { withFileTypes: true });
        fs.existsSync(join(dir, 'missing'));
        fs.statSync(join(dir, 'missing'), { throwIfNoEntry: false });
        fs.realpathSync.native(input);
        fs.accessSync(input, constants.R_OK);
        expect(() => fs.readFileSync(join(dir, 'missing'))).toThrow();
      }),
    ).toBe(true);
    expect(served()).toEqual([[1, 'out\n']]);
    expect(served()).toEqual([[1, 'out\n']]);
    fs.writeFileSync(join(dir, 'missing'), '');
    expect(served()).toBeUndefined();
  });

  it('a file changed in its bytes alone is a change', () => {
    record(() => fs.readFileSync(input));
    const { atime, mtime } = fs.statSync(input);
    fs.writeFileSync(input, 'name = "b"\n');
    fs.utimesSync(input, atime, mtime);
    expect(served()).toBeUndefined();
  });

  it('reads through a descriptor are checked at their positions', () => {
    fs.writeFileSync(input, 'x'.repeat(100));
    record(() => {
      const fd = fs.openSync(input, 'r');
      const buf = Buffer.alloc(10);
      fs.fstatSync(fd);
      fs.readSync(fd, buf, 0, 10, 90);
      fs.readSync(fd, buf, 0, 10, null);
      fs.closeSync(fd);
    });
    expect(served()).toBeDefined();
    fs.appendFileSync(input, 'y');
    expect(served()).toBeUndefined();
  });

  it('replays the exit code', () => {
    record(() => fs.readFileSync(input), 'no such hook\n', 3);
    const before = process.exitCode;
    try {
      expect(served()).toEqual([[1, 'no such hook\n']]);
      expect(process.exitCode).toBe(3);
    } finally {
      process.exitCode = before;
    }
  });

  it('checks the variables the run read, and all of them when it listed them', () => {
    record(() => void process.env.HOOKCTL_ANSWER_TEST);
    process.env.HOOKCTL_ANSWER_UNREAD = 'x';
    try {
      expect(served()).toBeDefined();
      process.env.HOOKCTL_ANSWER_TEST = 'set';
      expect(served()).toBeUndefined();
      delete process.env.HOOKCTL_ANSWER_TEST;
      rmSync(slot.file);
      record(() => Object.keys(process.env));
      expect(served()).toBeDefined();
      delete process.env.HOOKCTL_ANSWER_UNREAD;
      expect(served()).toBeUndefined();
    } finally {
      delete process.env.HOOKCTL_ANSWER_UNREAD;
    }
  });

  it('puts the file system, the environment and the clock back', () => {
    const before = { readFileSync: fs.readFileSync, env: process.env, Date, now: Date.now, random: Math.random };
    record(() => fs.readFileSync(input));
    expect({ readFileSync: fs.readFileSync, env: process.env, Date, now: Date.now, random: Math.random }).toEqual(
      before,
    );
    expect(fs.readFileSync).toBe(before.readFileSync);
    expect(process.env).toBe(before.env);
  });

  it.each<[string, () => unknown]>([
    ['Date.now()', () => Date.now()],
    ['new Date()', () => new Date()],
    ['local time', () => new Date(0).getHours()],
    ['Math.random()', () => Math.random()],
    ['a write', () => fs.writeFileSync(join(dir, 'w'), 'w')],
    ['fs.promises', () => fs.promises],
    ['an fs call it does not record', () => fs.statfsSync(dir)],
    ['a variable set', () => (process.env.HOOKCTL_ANSWER_TEST = '1')],
    ['a descriptor it did not open', () => fs.readSync(0, Buffer.alloc(1), 0, 0, null)],
    ['a file left open', () => fs.openSync(input, 'r')],
    ['a module loaded', () => (modules += 1)],
    ['more than an entry holds', () => fs.readFileSync(writeBig())],
  ])('keeps no run that read what it cannot see: %s', (_, run) => {
    expect(record(run)).toBe(false);
    // … while the same run without it is kept (so the check can fail).
    expect(record(() => fs.readFileSync(input))).toBe(true);
  });

  it('a date made from a value is not the clock', () => {
    expect(
      record(() => [new Date(0).toISOString(), Date.parse('2026-01-01T00:00:00Z'), new Date(0) instanceof Date]),
    ).toBe(true);
  });

  it('keeps no run that failed', () => {
    const recording = recordAnswer(slot)!;
    fs.readFileSync(input);
    recording.finish(false, 1);
    expect(fs.existsSync(slot.file)).toBe(false);
  });

  it('an entry for another key is not served', () => {
    record(() => fs.readFileSync(input));
    expect(served()).toBeDefined();
    slot = { ...slot, key: 'another key' };
    expect(served()).toBeUndefined();
    expect(JSON.parse(readFileSync(slot.file, 'utf8'))).toHaveProperty('key', 'the key');
  });
});

function writeBig(): string {
  const file = join(dir, 'big');
  fs.writeFileSync(file, Buffer.alloc((1 << 20) + 1, 'a'));
  return file;
}
