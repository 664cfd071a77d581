// A hook whose stdout starts with `{` but is not valid JSON (issue 28, "never silent"): fire
// warns with the position, and the run record says so in `stdout_json_error` (where and why, not
// the text), for every dialect. claude.md §5.4 (2.1.248): `{…}` that does not parse is a hook
// error; `{…` without its closing brace is still plain text.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { cmd, group, sandbox } from './claude-support.js';

describe('fire: stdout that starts with { but is not valid JSON', { timeout: 120_000 }, () => {
  it('claude: {…} is a hook error, {… is plain text; both warn and are marked in the record', async () => {
    const box = sandbox();
    box.settings({
      UserPromptSubmit: [group([cmd(`echo '{"hookSpecificOutput": oops}'`)]), group([cmd(`echo '{"secret": 1'`)])],
    });
    const r = await box.fire('UserPromptSubmit', { session_id: 's1', prompt: 'hi' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'warning: project:UserPromptSubmit:1.1: stdout starts with "{" but is not valid JSON (1:24): the run failed',
    );
    expect(r.stderr).toContain(
      'warning: project:UserPromptSubmit:2.1: stdout starts with "{" but is not valid JSON (2:1): read as plain text',
    );
    const [broken, open] = r.json.runs;
    expect(broken).toMatchObject({
      outcome: 'failed',
      output: 'json',
      error: "hook output is not valid JSON: unexpected character 'o', expected a value (1:24)",
      stdout_json_error: "1:24: unexpected character 'o', expected a value",
    });
    expect(open).toMatchObject({
      outcome: 'applied',
      output: 'text',
      stdout_json_error: expect.stringMatching(/^2:1: /),
    });
    expect(r.json.additional_context).toBe('{"secret": 1');
    expect(r.json.notifications.map((n) => n.event.message)).toContain(
      'UserPromptSubmit hook error: hook output is not valid JSON',
    );
    // the ledger holds the position and the reason, never the output
    const records = box.records('s1'); // in the order the runs ended
    expect(records.map((x) => x.stdout_json_error).sort()).toEqual(
      [broken!.stdout_json_error, open!.stdout_json_error].sort(),
    );
    expect(JSON.stringify(records)).not.toContain('secret');
    // valid JSON and plain text carry no such field and no warning
    box.settings({ UserPromptSubmit: [group([cmd('echo plain'), cmd(`echo '{}'`)])] });
    const clean = await box.fire('UserPromptSubmit', { session_id: 's2', prompt: 'hi' });
    expect(clean.stderr).not.toContain('not valid JSON');
    for (const run of clean.json.runs) expect(run).not.toHaveProperty('stdout_json_error');
  });

  it('claude before 2.1.248 (--claude-version 2.1.240): {…} that does not parse is plain text, and still warns', async () => {
    const box = sandbox();
    box.settings({ UserPromptSubmit: [group([cmd(`echo '{"hookSpecificOutput": oops}'`)])] });
    const r = await box.fire('UserPromptSubmit', { session_id: 's1', prompt: 'hi' }, '--claude-version', '2.1.240');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.runs[0]).toMatchObject({ outcome: 'applied', output: 'text' });
    expect(r.json.additional_context).toBe('{"hookSpecificOutput": oops}');
    expect(r.stderr).toContain('stdout starts with "{" but is not valid JSON (1:24): read as plain text');
  });

  it('compozy: the run fails by its own rules, and still warns and is marked', async () => {
    const box = sandbox();
    mkdirSync(join(box.workspace, '.compozy'), { recursive: true });
    writeFileSync(
      join(box.workspace, '.compozy', 'config.toml'),
      '[[hooks.declarations]]\nname = "brace"\nevent = "tool.pre_call"\ncommand = "/bin/echo"\nargs = [\'{"tool_id": x}\']\n',
    );
    const r = await runCli(
      ['hooks', 'fire', 'tool.pre_call', '--workspace', box.workspace, '--session', 'c1', '-o', 'json'],
      { env: box.env, input: '{}' },
    );
    expect(r.stderr).toContain('warning: brace: stdout starts with "{" but is not valid JSON (1:13): the run failed');
    const run = (JSON.parse(r.stdout) as { runs: Record<string, unknown>[] }).runs[0]!;
    expect(run).toMatchObject({
      outcome: 'failed',
      stdout_json_error: "1:13: unexpected character 'x', expected a value",
    });
  });
});
