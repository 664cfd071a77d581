// Issue 22, on the built CLI with real Claude Code trees and hook scripts: the notices Claude Code
// would show (a hook that exits 1 is a non-blocking error) appear in fire's human output with the
// hint that only exit 2 blocks, and `hooks list` run in a sub-folder of a project whose git root
// has `.claude/settings.json` says that Claude Code would not read it from there.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { claudeCliEnv, makeClaudeTree, oneHook } from '../support/claude-tree.js';

describe('claude notices in fire', { timeout: 120_000 }, () => {
  it('a hook that exits 1 shows its notice and that only exit 2 blocks; exit 0 shows none', async () => {
    const t = makeClaudeTree('hookctl-e2e-notice-');
    const env = claudeCliEnv(t, isolatedEnv({ home: t.home }));
    const guard = t.write('ws/guard.sh', '#!/bin/sh\necho "guard: no config file" >&2\nexit 1\n');
    chmodSync(guard, 0o755);
    t.write('ws/.claude/settings.json', oneHook('PreToolUse', { type: 'command', command: guard }, 'Bash'));
    const payload = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });
    const fire = (tool: string) =>
      runCli(['hooks', 'fire', 'PreToolUse', '--workspace', t.workspace, '--dialect', 'claude'], {
        env,
        cwd: t.root,
        input: payload.replace('Bash', tool),
      });
    const [failing, unmatched] = await Promise.all([fire('Bash'), fire('Read')]);
    expect(failing.code, failing.stderr).toBe(0); // a non-blocking error: the tool call goes on
    const lines = failing.stdout.split('\n');
    expect(lines).toContain(
      'notice   Failed with non-blocking status code: guard: no config file  (project:PreToolUse:1.1)',
    );
    expect(lines).toContain(
      'hint     only exit 2 blocks: another exit code is a non-blocking error, and Claude goes on',
    );
    expect(
      lines.indexOf('hint     only exit 2 blocks: another exit code is a non-blocking error, and Claude goes on'),
    ).toBe(lines.findIndex((l) => l.startsWith('notice ')) + 1);
    expect(unmatched.code).toBe(0);
    expect(unmatched.stdout).not.toMatch(/^(notice|hint) /m);
  });
});

describe('hooks list in a sub-folder of a Claude project', { timeout: 120_000 }, () => {
  function project() {
    const t = makeClaudeTree('hookctl-e2e-subdir-');
    const env = claudeCliEnv(t, isolatedEnv({ home: t.home }));
    mkdirSync(join(t.workspace, '.git'));
    t.write('ws/.claude/settings.json', oneHook('Stop', { type: 'command', command: 'echo done' }));
    const sub = join(t.workspace, 'sub', 'dir');
    mkdirSync(sub, { recursive: true });
    return { t, env, sub };
  }
  const note = (root: string) =>
    `hookctl: note: ${join(root, '.claude', 'settings.json')} is not read: Claude Code reads project settings from the folder it is launched in (pass --workspace ${root})\n`;

  it('notes the git root’s settings.json on stderr, for human and JSON output alike', async () => {
    const { t, env, sub } = project();
    const [human, json] = await Promise.all([
      runCli(['hooks', 'list'], { env, cwd: sub }),
      runCli(['hooks', 'list', '-o', 'json'], { env, cwd: sub }),
    ]);
    expect(human.code).toBe(0);
    expect(human.stderr).toBe(note(t.workspace));
    expect(json.code).toBe(0);
    expect(json.stderr).toBe(note(t.workspace));
    expect(JSON.parse(json.stdout)).toEqual([]); // stdout stays the document
  });

  it('says nothing at the root, in a sub-folder with its own settings, or without a git root', async () => {
    const { t, env, sub } = project();
    const own = join(t.workspace, 'pkg');
    mkdirSync(own);
    t.write('ws/pkg/.claude/settings.json', oneHook('Stop', { type: 'command', command: 'echo pkg' }));
    const bare = makeClaudeTree('hookctl-e2e-subdir-nogit-');
    bare.write('ws/.claude/settings.json', oneHook('Stop', { type: 'command', command: 'echo done' }));
    const bareSub = join(bare.workspace, 'sub');
    mkdirSync(bareSub);
    const bareEnv = claudeCliEnv(bare, isolatedEnv({ home: bare.home }));
    const [root, viaFlag, withOwn, noGit] = await Promise.all([
      runCli(['hooks', 'list'], { env, cwd: t.workspace }),
      runCli(['hooks', 'list', '--workspace', t.workspace], { env, cwd: sub }),
      runCli(['hooks', 'list'], { env, cwd: own }),
      runCli(['hooks', 'list'], { env: bareEnv, cwd: bareSub }),
    ]);
    for (const r of [root, viaFlag, withOwn, noGit]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
    }
    expect(root.stdout).toContain('project:Stop:1.1');
  });
});
