// Issue 24: a hook owns its CLAUDE_ENV_FILE, so it can make it huge or a link to an endless
// device. hookctl reads a bounded part of it, warns, and still prints the verdict.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath } from '../support/cli.js';
import { cmd, group, sandbox } from './claude-support.js';
import { until } from '../support/until.js';

describe('CLAUDE_ENV_FILE is read within bounds', () => {
  it('a 300 MB env file: the verdict, a warning, at most 10,000 env_exports lines', async () => {
    const sb = sandbox();
    // 300 MB of `export A=1` lines; before, V8 ran out of memory (exit 134, no verdict).
    sb.settings({
      SessionStart: [
        group([cmd(`yes 'export A=1' | head -c 300000000 > "$CLAUDE_ENV_FILE"; echo '{"systemMessage":"done"}'`)]),
      ],
    });
    const r = await sb.fire('SessionStart', { session_id: 's1', source: 'startup' });
    expect(r.code).toBe(0);
    expect(r.json.system_message).toBe('done');
    expect(r.json.env_exports.length).toBe(10_000);
    expect(r.json.env_exports[0]).toEqual({ hook: 'project:SessionStart:1.1', line: 'export A=1' });
    expect(r.stdout.length).toBeLessThan(2_000_000);
    expect(r.stderr).toContain('project:SessionStart:1.1: CLAUDE_ENV_FILE: it holds more than 1048576 bytes');
    expect(r.stderr).toMatch(/env_exports: \d+ more lines not reported/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it.each(['/dev/zero', '/dev/urandom'])(
    "an env file made a link to %s is not read; the other hook's lines are",
    async (dev) => {
      const sb = sandbox();
      sb.settings({
        SessionStart: [
          group([cmd(`ln -sf ${dev} "$CLAUDE_ENV_FILE"`), cmd(`echo 'export B=2' >> "$CLAUDE_ENV_FILE"`)]),
        ],
      });
      const r = await sb.fire('SessionStart', { session_id: 's1', source: 'startup' });
      expect(r.code).toBe(0);
      expect(r.json.env_exports).toEqual([{ hook: 'project:SessionStart:1.2', line: 'export B=2' }]);
      expect(r.stderr).toContain('project:SessionStart:1.1: CLAUDE_ENV_FILE: it is not a regular file; not read');
    },
    60_000,
  );

  it('an env file made a FIFO no one writes to does not hang the dispatch', async () => {
    const sb = sandbox();
    sb.settings({ SessionStart: [group([cmd(`rm -f "$CLAUDE_ENV_FILE"; mkfifo "$CLAUDE_ENV_FILE"`)])] });
    const r = await sb.fire('SessionStart', { session_id: 's1', source: 'startup' });
    expect(r.code).toBe(0);
    expect(r.json.env_exports).toEqual([]);
    expect(r.stderr).toContain('CLAUDE_ENV_FILE: it is not a regular file; not read');
  }, 60_000);
});

describe('an interrupted claude dispatch', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('removes its temporary env folder on %s', async (sig) => {
    const sb = sandbox();
    const tmp = join(sb.root, 'tmp');
    mkdirSync(tmp);
    const where = join(sb.out, 'env-path');
    sb.settings({ SessionStart: [group([cmd(`echo "$CLAUDE_ENV_FILE" > ${where}; exec sleep 30`)])] });
    const child = spawn(
      process.execPath,
      [binPath, 'hooks', 'fire', 'SessionStart', '--dialect', 'claude', '--workspace', sb.workspace],
      { env: { ...sb.env, TMPDIR: tmp }, stdio: ['pipe', 'ignore', 'ignore'] },
    );
    child.stdin.end(JSON.stringify({ session_id: 's1', source: 'startup' }));
    let gone = false;
    child.on('close', () => (gone = true));
    try {
      await until('the hook to start', () => existsSync(where) && readFileSync(where, 'utf8').includes('\n'), 20_000);
      const folder = dirname(readFileSync(where, 'utf8').trim());
      expect(folder.startsWith(tmp)).toBe(true);
      expect(existsSync(folder)).toBe(true);
      child.kill(sig);
      await until('hookctl to exit', () => gone, 10_000);
      expect(child.signalCode).toBe(sig);
      expect(readdirSync(tmp).filter((n) => n.startsWith('hookctl-claude-env-'))).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('the nesting guard of claude settings', () => {
  it('reads a settings file whose statusLine.command holds 300 "[": validate is clean and fire runs', async () => {
    const sb = sandbox();
    sb.settings(
      { UserPromptSubmit: [group([cmd(`echo '{"systemMessage":"ran"}'`)])] },
      { statusLine: { type: 'command', command: `echo ${'['.repeat(300)}` } },
    );
    const v = await sb.cli(['hooks', 'validate', '--dialect', 'claude', '-o', 'json']);
    expect(v.stdout).not.toContain('nesting_too_deep');
    expect(v.code, v.stdout + v.stderr).toBe(0);
    const r = await sb.fire('UserPromptSubmit', { session_id: 's1', prompt: 'hi' });
    expect(r.code).toBe(0);
    expect(r.json.system_message).toBe('ran');
  });
});

describe('a bad HOOKCTL_COMPOZY_VERSION concerns compozy alone', () => {
  it('claude and cosh commands run; compozy commands and a typed --compozy-version are usage errors', async () => {
    const sb = sandbox();
    sb.settings({ UserPromptSubmit: [group([cmd(`echo '{"systemMessage":"ran"}'`)])] });
    sb.env.HOOKCTL_COMPOZY_VERSION = 'v9.bogus';
    const fired = await sb.fire('UserPromptSubmit', { session_id: 's1', prompt: 'hi' });
    expect(fired.code, fired.stderr).toBe(0);
    expect(fired.json.system_message).toBe('ran');
    // Without --dialect too: the event is looked up among every dialect's, compozy's included.
    const plain = await sb.cli(['hooks', 'fire', 'UserPromptSubmit', '-o', 'json'], JSON.stringify({ prompt: 'hi' }));
    expect(plain.code, plain.stderr).toBe(0);
    for (const args of [
      ['hooks', 'list'],
      ['hooks', 'list', '--dialect', 'claude'],
      ['hooks', 'list', '--dialect', 'cosh'],
      ['hooks', 'validate', '--dialect', 'claude'],
      ['hooks', 'events', '--dialect', 'cosh'],
    ]) {
      const r = await sb.cli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    for (const args of [
      ['hooks', 'validate', '--dialect', 'compozy'],
      ['hooks', 'events', '--dialect', 'compozy'],
      ['hooks', 'list', '--dialect', 'claude', '--compozy-version', 'v9.bogus'],
    ]) {
      const r = await sb.cli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/^hookctl: unknown CompozyOS version "v9\.bogus"; known versions: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
