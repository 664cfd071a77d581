// A ledger folder that cannot hold the session's log (issue 28, "never silent"): HOOKCTL_STATE_DIR
// or a dialect home's sessions/ that is a file, or one under /proc, is a one-line error, exit 2,
// before any hook runs. Before, the hooks ran and then `internal error: ENOTDIR` (exit 1) lost
// the verdict; under /proc the process spun and ignored SIGTERM.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canMountTmpfs, mountTmpfs, unmountTmpfs } from '../support/tmpfs.js';
import { runCli, type CliResult } from '../support/cli.js';
import { cmd, group, sandbox, type Sandbox } from './claude-support.js';

const payload = JSON.stringify({ session_id: 's1', tool_name: 'Bash', tool_input: { command: 'ls' } });

function claudeBox(): { box: Sandbox; marker: string } {
  const box = sandbox();
  const marker = join(box.out, 'ran');
  box.settings({ PreToolUse: [group([cmd(`touch ${marker}`)])] });
  return { box, marker };
}

function fireWith(box: Sandbox, env: Record<string, string>, args: string[], input: string): Promise<CliResult> {
  return runCli([...args, '--workspace', box.workspace], { env: { ...box.env, ...env }, input, timeoutMs: 20_000 });
}

function expectRefused(r: CliResult, what: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^hookctl: cannot record runs in "[^"]+": /);
  expect(lines[0]).toMatch(what);
  expect(lines[0]).toContain('--no-record');
  expect(r.stderr).not.toContain('internal error');
}

describe('fire refuses a ledger folder it cannot write, before any hook runs', { timeout: 120_000 }, () => {
  it('HOOKCTL_STATE_DIR that is a file (claude)', async () => {
    const { box, marker } = claudeBox();
    const file = join(box.root, 'state-file');
    writeFileSync(file, '');
    const r = await fireWith(
      box,
      { HOOKCTL_STATE_DIR: file },
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude'],
      payload,
    );
    expectRefused(r, /"[^"]*state-file" is a file, not a folder/);
    expect(existsSync(marker)).toBe(false);
    // the same in JSON: the error document, code and exit
    const json = await fireWith(
      box,
      { HOOKCTL_STATE_DIR: file },
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '-o', 'json'],
      payload,
    );
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'ledger_unwritable' } });
    expect(existsSync(marker)).toBe(false);
    // --no-record needs no ledger: the hook runs
    const unrecorded = await fireWith(
      box,
      { HOOKCTL_STATE_DIR: file },
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '--no-record'],
      payload,
    );
    expect(unrecorded.code, unrecorded.stderr).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it('HOOKCTL_STATE_DIR under /proc: refused at once, not a spin', async () => {
    const { box, marker } = claudeBox();
    const r = await fireWith(
      box,
      { HOOKCTL_STATE_DIR: '/proc/hookctl-state' },
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude'],
      payload,
    );
    expectRefused(r, /"\/proc" is on \/proc/);
    expect(existsSync(marker)).toBe(false);
  });

  it("a session's log that is a folder (claude)", async () => {
    const { box, marker } = claudeBox();
    mkdirSync(join(box.root, 'state', 'claude', 'sessions', 's1', 'hook-runs.jsonl'), { recursive: true });
    const r = await fireWith(box, {}, ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude'], payload);
    expectRefused(r, /hook-runs\.jsonl" is not a file/);
    expect(existsSync(marker)).toBe(false);
  });

  it("a compozy home's sessions/ that is a file", async () => {
    const { box, marker } = claudeBox();
    mkdirSync(join(box.workspace, '.compozy'), { recursive: true });
    writeFileSync(
      join(box.workspace, '.compozy', 'config.toml'),
      `[[hooks.declarations]]\nname = "mark"\nevent = "tool.pre_call"\ncommand = "/bin/touch"\nargs = [${JSON.stringify(marker)}]\n`,
    );
    const home = box.env.COMPOZY_HOME!;
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'sessions'), '');
    const r = await fireWith(box, {}, ['hooks', 'fire', 'tool.pre_call'], '{}');
    expectRefused(r, /sessions" is a file, not a folder/);
    expect(existsSync(marker)).toBe(false);
  });
});

// A folder that is not writable: root may write through any mode, so a read-only mount stands
// for it (mounting needs root, as this project's machines and CI run; elsewhere this is skipped,
// as test/e2e/ledger-full-disk.test.ts does).
describe.skipIf(!canMountTmpfs)('fire refuses an unwritable ledger folder', { timeout: 120_000 }, () => {
  afterEach(unmountTmpfs);

  it('HOOKCTL_STATE_DIR on a read-only file system', async () => {
    const { box, marker } = claudeBox();
    const state = join(box.root, 'state');
    expect(mountTmpfs(state, { readOnly: true })).toBe(true);
    const r = await fireWith(box, {}, ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude'], payload);
    expectRefused(r, /state" is not writable/);
    expect(existsSync(marker)).toBe(false);
  });
});
