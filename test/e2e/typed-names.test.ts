// Paths and names a user typed (SPEC §7.1), on the built CLI: a --workspace or --additional-dir
// that is not a folder stops every command with exit 2 (a typo must never create a tree nor pass
// validate green), unknown commands and flags get the closest names, and parse errors keep their
// reason.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, type CliResult, limited } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

/** Every command, with the arguments it needs to get as far as reading the workspace. */
const COMMANDS: string[][] = [
  ['hooks', 'list'],
  ['hooks', 'info', 'some-hook'],
  ['hooks', 'events'],
  ['hooks', 'fire', 'tool.pre_call'],
  ['hooks', 'fire', 'tool.pre_call', '--dry-run'],
  ['hooks', 'runs'],
  ['hooks', 'validate'],
  ['hooks', 'create', 'x', '--event', 'tool.pre_call', '--command', '/bin/true'],
  ['hooks', 'update', 'x', '--priority', '3'],
  ['hooks', 'delete', 'x'],
  ['hooks', 'enable', 'x'],
  ['hooks', 'disable', 'x'],
];

function expectUsage(r: CliResult, message: string, what: string): void {
  expect(r.code, `${what}\n${r.stderr}`).toBe(2);
  expect(r.stdout, what).toBe('');
  expect(r.stderr.trimEnd().split('\n'), what).toEqual([`hookctl: ${message}`]);
}

describe('--workspace and --additional-dir must be folders', { timeout: 180_000 }, () => {
  const cwd = tempDir('hookctl-typed-');
  const env = isolatedEnv();
  writeFileSync(join(cwd, 'a-file'), 'x');

  it('a workspace that does not exist: exit 2 for every command, mutations included, and nothing is created', async () => {
    const results = await limited(COMMANDS.map((c) => () => runCli([...c, '--workspace', 'typo'], { env, cwd })));
    results.forEach((r, i) => expectUsage(r, 'workspace "typo" does not exist', COMMANDS[i]!.join(' ')));
    expect(existsSync(join(cwd, 'typo'))).toBe(false);
  });

  it('a workspace that is a file, an additional dir that is missing or a file: exit 2', async () => {
    const cases: [string[], string][] = [
      [['--workspace', 'a-file'], 'workspace "a-file" is not a directory'],
      [['--additional-dir', 'nowhere'], 'additional dir "nowhere" does not exist'],
      [['--additional-dir', '.', '--additional-dir', 'a-file'], 'additional dir "a-file" is not a directory'],
    ];
    const jobs = COMMANDS.flatMap((c) =>
      cases.map(
        ([flags]) =>
          () =>
            runCli([...c, ...flags], { env, cwd }),
      ),
    );
    const results = await limited(jobs);
    COMMANDS.forEach((c, i) =>
      cases.forEach(([flags, message], k) =>
        expectUsage(results[i * cases.length + k]!, message, [...c, ...flags].join(' ')),
      ),
    );
  });

  it('under --json the error is a JSON document with its own code', async () => {
    const r = await runCli(['hooks', 'validate', '--workspace', 'typo', '--json'], { env, cwd });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      error: { code: 'directory_not_found', message: 'workspace "typo" does not exist', exit: 2 },
    });
  });

  it('an existing folder still works', async () => {
    const r = await runCli(['hooks', 'validate', '--workspace', '.', '--additional-dir', '.'], { env, cwd });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('did you mean, and parse errors that keep their reason', { timeout: 120_000 }, () => {
  const env = isolatedEnv();

  it('an unknown command names the closest ones', async () => {
    const [lst, fier, far] = await Promise.all([
      runCli(['hooks', 'lst'], { env }),
      runCli(['hooks', 'fier', 'x'], { env }),
      runCli(['hooks', 'zzzzzz'], { env }),
    ]);
    expectUsage(lst, 'command "hooks lst" not found; did you mean "hooks list"?', 'hooks lst');
    expect(fier.stderr).toContain('did you mean "hooks fire"?');
    expectUsage(far, 'command "hooks zzzzzz" not found (see: hookctl --help)', 'hooks zzzzzz');
  });

  it('an unknown flag names the closest ones', async () => {
    const r = await runCli(['hooks', 'list', '--workspce', '.'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('hookctl: unknown flag "--workspce"; did you mean "--workspace"?');
    const json = await runCli(['hooks', 'runs', '--sesion', 'x', '--json'], { env });
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'unknown_flag', exit: 2 });
    expect(JSON.parse(json.stdout).error.message).toContain('did you mean "--session"?');
  });

  it('a missing argument and a bad flag value say what was wrong', async () => {
    const [fire, last] = await Promise.all([
      runCli(['hooks', 'fire'], { env }),
      runCli(['hooks', 'runs', '--last', 'abc'], { env }),
    ]);
    expect(fire.code).toBe(2);
    expect(fire.stderr.split('\n')[0]).toBe('hookctl: Missing 1 required arg: event');
    expect(last.code).toBe(2);
    expect(last.stderr.split('\n')[0]).toBe('hookctl: Parsing --last: Expected an integer but received: abc');
  });

  it('--json with -o human (or jsonl) is a usage error; with -o json it is the same document', async () => {
    const [human, jsonl, same] = await Promise.all([
      runCli(['hooks', 'events', '--json', '-o', 'human'], { env }),
      runCli(['hooks', 'events', '-o', 'jsonl', '--json'], { env }),
      runCli(['hooks', 'events', '--json', '-o', 'json'], { env }),
    ]);
    for (const r of [human, jsonl]) {
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error.message).toMatch(/^--json and -o (human|jsonl) disagree/);
    }
    expect(same.code).toBe(0);
    expect(Array.isArray(JSON.parse(same.stdout))).toBe(true);
  });
});
