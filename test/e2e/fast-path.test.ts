// The fast path of `hooks list|info|runs|events` (issue 25, docs/PERFORMANCE.md) against today's
// oclif path, run by the built CLI on the same invocations: stdout, stderr and exit code must be
// the same, whichever path answers. HOOKCTL_NO_FAST_PATH=1 sends every invocation to oclif. The
// matrix covers help, errors, did-you-mean, --version, each of the four commands with their
// flags, -o json/jsonl, --all-workspaces and bad workspaces; the invocations the fast parser
// must take itself are checked to be taken (the rest are hand-overs, which must still agree).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fastParse, handOverForEnv, type FlagTable } from '../../src/cli/fast-argv.js';
import { demoCopy, limited, repoRoot, runCli, type CliResult } from '../support/cli.js';

const table = JSON.parse(readFileSync(join(repoRoot, 'dist', 'fast-flags.json'), 'utf8')) as FlagTable;

/** [argv, whether the fast parser takes it]. */
const MATRIX: [string[], boolean][] = [
  // help and version: always oclif's
  [['--help'], false],
  [['--version'], false],
  [['hooks'], false],
  [['hooks', '--help'], false],
  [['hooks', 'list', '--help'], false],
  [['hooks', 'list', '-h'], false],
  [['hooks', 'info', '--help'], false],
  [['hooks', 'runs', '-h'], false],
  [['hooks', 'events', '--help'], false],
  [['hooks', 'list', '--version'], false],
  // unknown commands and flags, did-you-mean
  [['hooks', 'lst'], false],
  [['hooks', 'evnts', '--json'], false],
  [['hooks', 'list', '--evnt', 'tool.*'], false],
  [['hooks', 'list', '--bogus', '-o', 'json'], false],
  [['hooks', 'runs', '--sesion', 'x'], false],
  [['hooks', 'list', '-x'], false],
  [['hooks', 'list', 'extra'], false],
  // values oclif rejects
  [['hooks', 'list', '-o', 'xml'], false],
  [['hooks', 'list', '--mode', 'never'], false],
  [['hooks', 'list', '--dialect', 'nope', '--json'], false],
  [['hooks', 'runs', '--last', '0'], false],
  [['hooks', 'runs', '--last', 'x'], false],
  [['hooks', 'runs', '--last'], false],
  [['hooks', 'runs', '--session', 'a', '--all-sessions'], false],
  [['hooks', 'runs', '--endpoint', 'http://127.0.0.1:9'], false],
  [['hooks', 'runs', '--stats', '--follow'], false],
  [['hooks', 'list', '--json', '--json'], false],
  [['hooks', 'list', '-ojson'], false],
  [['hooks', 'list', '--json=true'], false],
  [['hooks', 'info'], false],
  [['hooks', 'info', '-o', 'json'], false],
  [['hooks', 'info', 'a', 'b'], false],
  [['hooks', 'info', '--', 'x'], false],
  // errors the fast path reports itself
  [['hooks', 'list', '--json', '-o', 'human'], true],
  [['hooks', 'list', '--json', '-o', 'json'], true],
  [['hooks', 'list', '--workspace', '/nonexistent/hookctl'], true],
  [['hooks', 'list', '--workspace', '/nonexistent/hookctl', '--json'], true],
  [['hooks', 'runs', '--workspace', 'not-a-folder'], true],
  [['hooks', 'info', 'x', '--additional-dir', '/nonexistent/hookctl'], true],
  [['hooks', 'info', 'no-such-hook'], true],
  [['hooks', 'info', 'no-such-hook', '--json'], true],
  [['hooks', 'events', 'no.such_event'], true],
  [['hooks', 'events', 'no.such_event', '--dialect', 'cosh'], true],
  [['hooks', 'events', '--schema'], true],
  [['hooks', 'events', 'tool.pre_call', '--changes'], true],
  [['hooks', 'list', '--compozy-version', 'v0.0.0-nope'], true],
  [['hooks', 'runs', '--since', 'yesterday'], true],
  // list
  [['hooks', 'list', 'W'], true],
  [['hooks', 'list', 'W', '--all'], true],
  [['hooks', 'list', 'W', '-o', 'json'], true],
  [['hooks', 'list', 'W', '-o', 'jsonl', '--all'], true],
  [['hooks', 'list', 'W', '--json', '--event', 'tool.*'], true],
  [['hooks', 'list', 'W', '--event', 'tool.pre_cal'], true],
  [['hooks', 'list', 'W', '--mode', 'sync', '--dialect', 'compozy'], true],
  [['hooks', 'list', 'W', '--dialect', 'cosh', '--all'], true],
  [['hooks', 'list', 'W', '--source', 'skill', '--color'], true],
  [['hooks', 'list', 'W', '--agent', 'reviewer', '--no-color'], true],
  [['hooks', 'list', '--output=json', 'W'], true],
  [['hooks', 'list'], true],
  // info
  [['hooks', 'info', 'NAME', 'W'], true],
  [['hooks', 'info', 'NAME', 'W', '-o', 'json'], true],
  [['hooks', 'info', 'NAME', 'W', '-o', 'jsonl', '--all-workspaces'], true],
  [['hooks', 'info', 'W', 'NAME', '--session', 'parity', '--dialect', 'compozy'], true],
  [['hooks', 'info', 'NAME', 'W', '--color'], true],
  // runs
  [['hooks', 'runs', 'W'], true],
  [['hooks', 'runs', 'W', '--session', 'parity', '-o', 'json'], true],
  [['hooks', 'runs', 'W', '--all-sessions', '-o', 'jsonl'], true],
  [['hooks', 'runs', 'W', '--all-workspaces', '--json'], true],
  [['hooks', 'runs', 'W', '--stats', '--all-sessions'], true],
  [['hooks', 'runs', 'W', '--stats', '-o', 'json'], true],
  [['hooks', 'runs', 'W', '--last', '1', '--outcome', 'applied', '--json'], true],
  [['hooks', 'runs', 'W', '--event', 'tool.*', '--hook', 'nope', '--dialect', 'compozy'], true],
  [['hooks', 'runs', 'W', '--since', '7d', '--json'], true],
  [['hooks', 'runs', 'W', '--session', 'none-such'], true],
  [['hooks', 'runs', 'W', '--all-sessions', '--export', 'otlp', '--endpoint', 'http://127.0.0.1:9'], true],
  [['hooks', 'list', 'W', '--plugin-dir', '/nonexistent/hookctl'], true],
  [['hooks', 'info', '--additional-dir', 'extra', 'NAME'], false],
  // events
  [['hooks', 'events'], true],
  [['hooks', 'events', '--json'], true],
  [['hooks', 'events', '-o', 'jsonl', '--dialect', 'cosh'], true],
  [['hooks', 'events', '--family', 'tool', '--sync-only'], true],
  [['hooks', 'events', 'tool.pre_call'], true],
  [['hooks', 'events', 'tool.pre_call', '--json'], true],
  [['hooks', 'events', 'PreToolUse', '--schema'], true],
  [['hooks', 'events', '--changes'], true],
  [['hooks', 'events', '--changes', '--json', '--dialect', 'compozy'], true],
  [['hooks', 'events', '--compozy-version', 'v0.3.0-beta.20', '--json'], true],
  [['hooks', 'events', '--color'], true],
];

let demo: ReturnType<typeof demoCopy>;
let hookName: string;

/** `W` stands for the demo's workspace flags, `NAME` for a hook of the demo. */
function expand(argv: string[]): string[] {
  return argv.flatMap((a) => (a === 'W' ? demo.W : a === 'NAME' ? [hookName] : [a]));
}

beforeAll(async () => {
  demo = demoCopy();
  const listed = await runCli(['hooks', 'list', ...demo.W, '--json'], { env: demo.env, cwd: demo.base });
  expect(listed.code, listed.stderr).toBe(0);
  hookName = (JSON.parse(listed.stdout) as { name: string }[])[0]!.name;
  // Runs for `runs` and `info` to show: a fire in the demo's workspace.
  for (const payload of ['tool-safe.json', 'tool-secret.json', 'prompt.json']) {
    const event = payload.startsWith('tool') ? 'tool.pre_call' : 'prompt.post_assemble';
    const fired = await runCli(
      ['hooks', 'fire', event, ...demo.W, '--session', 'parity', '--payload', join(demo.base, 'payloads', payload)],
      { env: demo.env, cwd: demo.base },
    );
    expect(fired.stderr).not.toMatch(/internal error/);
  }
  writeFileSync(join(demo.base, 'not-a-folder'), '');
}, 60_000);

describe('the fast path answers as oclif does', () => {
  it('the parser takes exactly the invocations marked fast', () => {
    for (const [argv, fast] of MATRIX) {
      const parse = fastParse(
        table,
        argv.flatMap((a) => (a === 'W' ? ['--workspace', '.'] : a === 'NAME' ? ['n'] : [a])),
      );
      expect(parse !== undefined, argv.join(' ')).toBe(fast);
    }
  });

  it('stdout, stderr and exit code are the same on both paths, over the whole matrix', async () => {
    const results = await limited(
      MATRIX.map(([argv]) => async () => {
        const args = expand(argv);
        const fast = await runCli(args, { env: demo.env, cwd: demo.base });
        const oclif = await runCli(args, { env: { ...demo.env, HOOKCTL_NO_FAST_PATH: '1' }, cwd: demo.base });
        return { args, fast, oclif };
      }),
      4,
    );
    const same = (r: CliResult) => ({ code: r.code, stdout: r.stdout, stderr: r.stderr });
    for (const { args, fast, oclif } of results) expect(same(fast), args.join(' ')).toEqual(same(oclif));
    // Not a matrix of errors only: most fast invocations succeed.
    expect(results.filter((r) => r.fast.code === 0).length).toBeGreaterThan(30);
    const runs = results.find((r) => r.args.includes('parity') && r.args.includes('runs'))!;
    expect((JSON.parse(runs.fast.stdout) as unknown[]).length).toBeGreaterThan(0);
  }, 300_000);

  it('hands over when oclif would print debug output, or when told to', () => {
    expect(handOverForEnv({ DEBUG: '*' })).toBe(true);
    expect(handOverForEnv({ HOOKCTL_DEBUG: '1' })).toBe(true);
    expect(handOverForEnv({ OCLIF_PERFORMANCE: '1' })).toBe(true);
    expect(handOverForEnv({ HOOKCTL_NO_FAST_PATH: '1' })).toBe(true);
    expect(handOverForEnv({ DEBUG: '', PATH: '/bin' })).toBe(false);
  });
});
