// The answer cache of the built CLI (src/cli/answer-cache.ts): a read command run again with
// nothing it read changed is answered from the entry its first run left, byte for byte; when
// anything it read changed, it runs again. Every case has its own cache folder (NODE_COMPILE_CACHE)
// and its own copy of the demo.
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { demoCopy, runCli, type CliResult } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

let demo: ReturnType<typeof demoCopy>;
let env: Record<string, string>;
let cache: string;

beforeEach(() => {
  demo = demoCopy();
  cache = tempDir('hookctl-answer-cache-');
  env = { ...demo.env, NODE_COMPILE_CACHE: cache };
});

const run = (args: string[], extra: Record<string, string> = {}) =>
  runCli(args, { env: { ...env, ...extra }, cwd: demo.base });
/** The same command with the answer cache off: what any answer must equal. */
const fresh = (args: string[], extra: Record<string, string> = {}) =>
  run(args, { ...extra, HOOKCTL_NO_ANSWER_CACHE: '1' });
const shown = (r: CliResult) => ({ code: r.code, stdout: r.stdout, stderr: r.stderr });

/** The answer cache's entries: file → the argv its key holds. */
function answers(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const version of readdirSync(cache)) {
    for (const name of readdirSync(join(cache, version))) {
      if (!name.startsWith('answer-') || !name.endsWith('.json')) continue;
      const file = join(cache, version, name);
      const entry = JSON.parse(readFileSync(file, 'utf8')) as { key: string };
      found.set(file, (JSON.parse(entry.key) as unknown[])[3] as string[]);
    }
  }
  return found;
}
const entryOf = (args: string[]) => [...answers()].find(([, argv]) => argv.join('\0') === args.join('\0'))?.[0];

/** Runs `args` twice (the second from the cache) and checks both against a run without it. */
async function answeredAlike(args: string[], extra: Record<string, string> = {}): Promise<CliResult> {
  const want = shown(await fresh(args, extra));
  const first = await run(args, extra);
  const second = await run(args, extra);
  expect(shown(first), args.join(' ')).toEqual(want);
  expect(shown(second), args.join(' ')).toEqual(want);
  return second;
}

describe('the answer cache', () => {
  it('answers a repeated read command byte for byte, warnings, errors and exit codes included', async () => {
    const W = demo.W;
    const matrix = [
      ['hooks', 'list', ...W],
      ['hooks', 'list', ...W, '--all'],
      ['hooks', 'list', ...W, '-o', 'json'],
      ['hooks', 'list', ...W, '--event', 'nope.nothing'],
      ['hooks', 'info', 'block-secret-file-edits', ...W],
      ['hooks', 'info', 'no-such-hook', ...W],
      ['hooks', 'runs', ...W],
      ['hooks', 'events'],
      ['hooks', 'list', '--workspace', join(demo.base, 'no-such-folder')],
    ];
    const codes = [];
    for (const args of matrix) codes.push((await answeredAlike(args)).code);
    expect(codes).toContain(0);
    expect(codes.filter((c) => c !== 0).length).toBeGreaterThan(0); // errors are answers too
    expect(answers().size).toBe(matrix.length);
  }, 120_000);

  it('a hit prints what its entry holds: the command itself does not run', async () => {
    const args = ['hooks', 'list', ...demo.W, '-o', 'json'];
    await run(args);
    const file = entryOf(args)!;
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { out: [number, string][] };
    entry.out = [[1, 'from the entry\n']];
    writeFileSync(file, JSON.stringify(entry));
    expect((await run(args)).stdout).toBe('from the entry\n');
  });

  describe('runs again when anything it read changed', () => {
    const list = () => ['hooks', 'list', ...demo.W, '--all'];

    it('a file rewritten in place, same size and modification time', async () => {
      const before = await answeredAlike(list());
      const config = join(demo.base, 'workspace', '.compozy', 'config.toml');
      const { atime, mtime } = statSync(config);
      const text = readFileSync(config, 'utf8');
      expect(text).toContain('priority = 700');
      writeFileSync(config, text.replace('priority = 700', 'priority = 701'));
      utimesSync(config, atime, mtime);
      const after = await answeredAlike(list());
      expect(after.stdout).not.toBe(before.stdout);
      expect(after.stdout).toContain('701');
    });

    it('a file added to a folder it listed, and one removed', async () => {
      const before = await answeredAlike(list());
      const skills = join(demo.base, 'extra', '.compozy', 'skills');
      cpSync(join(skills, 'paste-guard'), join(skills, 'paste-guard-two'), { recursive: true });
      const skill = join(skills, 'paste-guard-two', 'SKILL.md');
      writeFileSync(skill, readFileSync(skill, 'utf8').replace('name: paste-guard', 'name: paste-guard-two'));
      const added = await answeredAlike(list());
      expect(added.stdout).toContain('paste-guard-two');
      rmSync(join(skills, 'paste-guard'), { recursive: true });
      const removed = await answeredAlike(list());
      expect(removed.stdout).not.toMatch(/paste-guard\s/);
      expect(before.stdout).toMatch(/paste-guard\s/);
    });

    it('a link pointed elsewhere', async () => {
      const skills = join(demo.base, 'extra', '.compozy', 'skills');
      const real = join(demo.base, 'real-skill');
      cpSync(join(skills, 'paste-guard'), real, { recursive: true });
      rmSync(join(skills, 'paste-guard'), { recursive: true });
      symlinkSync(real, join(skills, 'paste-guard'));
      const info = ['hooks', 'info', 'paste-guard', ...demo.W];
      const before = await answeredAlike(info);
      expect(before.stdout).toContain('2000 ms');
      const other = join(demo.base, 'other-skill');
      cpSync(real, other, { recursive: true });
      const skill = join(other, 'SKILL.md');
      writeFileSync(skill, readFileSync(skill, 'utf8').replace('timeout: 2s', 'timeout: 9s'));
      rmSync(join(skills, 'paste-guard'));
      symlinkSync(other, join(skills, 'paste-guard'));
      const after = await answeredAlike(info);
      expect(after.stdout).toContain('9000 ms');
    });

    it('an environment variable it read', async () => {
      const before = await answeredAlike(list());
      const empty = tempDir('hookctl-empty-home-');
      const after = await answeredAlike(list(), { COMPOZY_HOME: empty });
      expect(after.stdout).not.toBe(before.stdout);
      // … and back: the first entry's answer again, not the second's.
      expect(shown(await run(list()))).toEqual(shown(before));
    });

    it('the log a history shows: a run recorded since', async () => {
      const runs = ['hooks', 'runs', ...demo.W];
      const info = ['hooks', 'info', 'paste-guard', ...demo.W];
      const none = await answeredAlike(runs);
      const unrun = await answeredAlike(info);
      expect(unrun.stdout).toContain('(none recorded)');
      const fired = await run([
        'hooks',
        'fire',
        'input.pre_submit',
        ...demo.W,
        '--session',
        'answers',
        '--payload',
        join(demo.base, 'payloads', 'prompt.json'),
      ]);
      expect(fired.stderr).not.toMatch(/internal error/);
      const some = await answeredAlike(runs);
      expect(some.stdout).not.toBe(none.stdout);
      expect((await answeredAlike(info)).stdout).toMatch(/input\.pre_submit\s+applied/);
      // A torn line appended: still the log as it is now.
      const log = join(demo.base, 'home', '.compozy', 'sessions', 'answers', 'hook-runs.jsonl');
      appendFileSync(log, '{"torn');
      await answeredAlike(runs);
    });

    it('the working directory', async () => {
      const args = ['hooks', 'list', '--workspace', 'workspace', '--all'];
      const here = await answeredAlike(args);
      const elsewhere = join(demo.base, 'elsewhere');
      mkdirSync(join(elsewhere, 'workspace'), { recursive: true });
      const there = await runCli(args, { env, cwd: elsewhere });
      expect(there.stdout).not.toBe(here.stdout);
      expect(shown(there)).toEqual(
        shown(await runCli(args, { env: { ...env, HOOKCTL_NO_ANSWER_CACHE: '1' }, cwd: elsewhere })),
      );
    });
  });

  describe('keeps no answer', () => {
    it('of a run that read the clock (--since)', async () => {
      await answeredAlike(['hooks', 'runs', ...demo.W, '--since', '1d']);
      expect(answers().size).toBe(0);
    });

    it('of a run that sends records out (--export)', async () => {
      const r = await run(['hooks', 'runs', ...demo.W, '--export', 'otlp', '--endpoint', 'http://127.0.0.1:9']);
      expect(r.stderr).not.toMatch(/internal error/);
      expect(answers().size).toBe(0);
    });

    it('when told not to, or when the compile cache is off', async () => {
      const args = ['hooks', 'list', ...demo.W];
      await run(args, { HOOKCTL_NO_ANSWER_CACHE: '1' });
      await run(args, { HOOKCTL_NO_ANSWER_CACHE: '1' });
      expect(answers().size).toBe(0);
      rmSync(cache, { recursive: true });
      mkdirSync(cache);
      for (let i = 0; i < 2; i++) expect((await run(args, { NODE_DISABLE_COMPILE_CACHE: '1' })).code).toBe(0);
      expect(readdirSync(cache)).toEqual([]);
      await run(args);
      expect(answers().size).toBe(1); // (so the checks above can fail)
    });
  });

  it('a damaged entry is ignored and made again; a link at its place is left as it is', async () => {
    const args = ['hooks', 'list', ...demo.W];
    const want = shown(await fresh(args));
    await run(args);
    const file = entryOf(args)!;
    writeFileSync(file, '{"key": tor');
    expect(shown(await run(args))).toEqual(want);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty('out');
    rmSync(file);
    const target = join(demo.base, 'not-an-entry');
    writeFileSync(target, 'untouched');
    symlinkSync(target, file);
    expect(shown(await run(args))).toEqual(want);
    expect(shown(await run(args))).toEqual(want);
    expect(readFileSync(target, 'utf8')).toBe('untouched');
  });
});
