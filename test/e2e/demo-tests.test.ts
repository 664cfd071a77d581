// The demo's test files pass with the environment the README gives (issue 28): in a copy of
// fixtures/demo, with only COMPOZY_HOME, COSH_HOME and COSH_SYSTEM_ROOT exported as the README's
// "Commands" intro says, `hooks test --workspace workspace` and every shipped *.hooktest.* file
// run by its path pass. What a file needs beyond that (Claude Code's settings folders) it says in
// its own `env:`. The user's home has Claude Code settings of its own, which must not leak in.
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoDir, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

let copy: string;
let env: Record<string, string>;

/** Every test file the demo ships, relative to the demo folder. */
function shippedTestFiles(dir: string, under = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? shippedTestFiles(join(dir, e.name), under)
        : /\.hooktest\.(ya?ml|json)$/.test(e.name)
          ? [relative(under, join(dir, e.name))]
          : [],
    )
    .sort();
}

beforeAll(() => {
  const root = tempDir('hookctl-demo-tests-');
  copy = join(root, 'demo');
  cpSync(demoDir, copy, { recursive: true });
  for (const d of ['home/.compozy/sessions', 'home/.copilot-shell/sessions', 'claude/state', 'codex/state'])
    rmSync(join(copy, d), { recursive: true, force: true });
  // The user's own Claude Code settings: a guard on every PreToolUse and a SessionStart hook.
  const home = join(root, 'user');
  mkdirSync(join(home, '.claude'), { recursive: true });
  const deny = { type: 'command', command: 'echo "the user\'s own guard" >&2; exit 2' };
  writeFileSync(
    join(home, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ hooks: [deny] }], SessionStart: [{ hooks: [deny] }] } }),
  );
  // … and Codex hooks of their own, trusted or not: the demo's codex file names its own home.
  mkdirSync(join(home, '.codex'), { recursive: true });
  writeFileSync(
    join(home, '.codex', 'hooks.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ hooks: [deny] }], SessionStart: [{ hooks: [deny] }] } }),
  );
  mkdirSync(join(root, 'tmp'));
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    TMPDIR: join(root, 'tmp'), // the demo's async hooks append to $TMPDIR/hookctl-demo.log
    // README, "Commands": export COMPOZY_HOME=$PWD/home/.compozy COSH_HOME=$PWD/home/.copilot-shell COSH_SYSTEM_ROOT=$PWD/system
    COMPOZY_HOME: join(copy, 'home', '.compozy'),
    COSH_HOME: join(copy, 'home', '.copilot-shell'),
    COSH_SYSTEM_ROOT: join(copy, 'system'),
  };
});

const hooksTest = (...args: string[]) => runCli(['hooks', 'test', ...args], { env, cwd: copy, timeoutMs: 60_000 });

describe("the demo's test files, with the README's environment", { timeout: 120_000 }, () => {
  it('ships the two the README names', () => {
    expect(shippedTestFiles(demoDir)).toEqual([
      'claude/workspace/tests/claude.hooktest.yaml',
      'codex/workspace/tests/codex.hooktest.yaml',
      'workspace/tests/demo.hooktest.yaml',
    ]);
  });

  it('hookctl hooks test --workspace workspace (the README example): every case passes', async () => {
    const r = await hooksTest('--workspace', 'workspace');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('8 passed, 0 failed');
  });

  it('every shipped test file, run by its path, passes', async () => {
    for (const file of shippedTestFiles(copy)) {
      const r = await hooksTest(file);
      expect(r.code, `${file}\n${r.stdout}${r.stderr}`).toBe(0);
      expect(r.stdout, file).toMatch(/^[1-9]\d* passed, 0 failed$/m);
      expect(r.stdout, file).not.toContain("the user's own guard");
    }
  });

  it("the Claude Code setup's test file, run from its workspace as the demo runs it", async () => {
    const r = await hooksTest('--workspace', 'claude/workspace');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('6 passed, 0 failed');
  });

  it("the Codex setup's test file, run from its workspace as the demo runs it", async () => {
    const r = await hooksTest('--workspace', 'codex/workspace');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('4 passed, 0 failed');
  });
});
