// A hook that is not found or not executable (exit 127 / 126 from its shell) says why in fire's
// human Error column, without -v (issue 28, "never silent"): the first line of its stderr, then
// the exit code. The record keeps its own one-line error: stderr text never lands in the ledger
// nor in `-o json` (SPEC §5 `error`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { cmd, group, sandbox } from './claude-support.js';

const payload = JSON.stringify({ session_id: 's1', tool_name: 'Bash', tool_input: { command: 'ls' } });

describe('fire: exit 126/127 shows the first stderr line in the Error column', { timeout: 120_000 }, () => {
  it('claude: a missing script and one that is not executable', async () => {
    const box = sandbox();
    const notExecutable = join(box.workspace, 'plain.sh');
    writeFileSync(notExecutable, 'echo hi\n', { mode: 0o644 });
    box.settings({
      PreToolUse: [group([cmd('"$CLAUDE_PROJECT_DIR"/.claude/hooks/missing.sh'), cmd(`"${notExecutable}"`)])],
    });
    const r = await box.cli(['hooks', 'fire', 'PreToolUse', '--dialect', 'claude'], payload);
    expect(r.code, r.stderr).toBe(0); // a failed hook never changes the verdict (fail-open)
    const row = (name: string) => r.stdout.split('\n').find((l) => l.startsWith(name)) ?? '';
    expect(row('project:PreToolUse:1.1')).toMatch(/\.claude\/hooks\/missing\.sh: not found \(exit 127\)$/);
    expect(row('project:PreToolUse:1.2')).toMatch(/plain\.sh: [Pp]ermission denied \(exit 126\)$/);
    // the record's error is its own line, with no stderr text, in the ledger and in JSON
    const records = box.records('s1').sort((a, b) => String(a.hook_name).localeCompare(String(b.hook_name)));
    expect(records.map((x) => x.error)).toEqual([
      expect.stringMatching(/^hook command failed: exit status 127 \(stderr: \d+ bytes\)$/),
      expect.stringMatching(/^hook command failed: exit status 126 \(stderr: \d+ bytes\)$/),
    ]);
    const log = readFileSync(join(box.root, 'state', 'claude', 'sessions', 's1', 'hook-runs.jsonl'), 'utf8');
    expect(log).not.toMatch(/not found|denied/i);
    const json = await box.fire('PreToolUse', { ...JSON.parse(payload), session_id: 's2' });
    expect(JSON.stringify(json.json.runs)).not.toMatch(/not found|denied/i);
    expect(json.stdout).not.toContain('terminal_errors');
  });

  it('compozy: the shared view, for a hook whose shell cannot find its script', async () => {
    const box = sandbox();
    mkdirSync(join(box.workspace, '.compozy'), { recursive: true });
    writeFileSync(
      join(box.workspace, '.compozy', 'config.toml'),
      '[[hooks.declarations]]\nname = "lost"\nevent = "tool.pre_call"\ncommand = "/bin/sh"\nargs = ["-c", "./no-such-script.sh"]\n',
    );
    const r = await runCli(['hooks', 'fire', 'tool.pre_call', '--workspace', box.workspace, '--session', 'c1'], {
      env: box.env,
      input: '{}',
    });
    const row = r.stdout.split('\n').find((l) => l.startsWith('lost')) ?? '';
    expect(row, r.stdout + r.stderr).toMatch(/no-such-script\.sh: not found \(exit 127\)$/);
    const log = readFileSync(join(box.env.COMPOZY_HOME!, 'sessions', 'c1', 'hook-runs.jsonl'), 'utf8');
    expect(log).not.toContain('not found');
  });
});
