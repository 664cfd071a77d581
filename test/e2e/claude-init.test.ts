// `hooks test --init EVENT` on a Claude Code project (issue 22), on the built CLI with real hook
// scripts: each case's payload fills its group matcher's field, so every case runs its hook, and
// the written file passes as it is.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isolatedEnv, runCli } from '../support/cli.js';
import { claudeCliEnv, makeClaudeTree } from '../support/claude-tree.js';

describe('hooks test --init for claude', { timeout: 120_000 }, () => {
  it('writes cases whose tool_name the group matcher accepts, and each case runs its hook', async () => {
    const t = makeClaudeTree('hookctl-e2e-claude-init-');
    const env = claudeCliEnv(t, isolatedEnv({ home: t.home }));
    const mark = (name: string) => join(t.root, `${name}.ran`);
    const hook = (name: string) => ({ type: 'command', command: `touch ${JSON.stringify(mark(name))}` });
    t.write('ws/.claude/settings.json', {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [hook('bash')] },
          { matcher: 'Edit|Write', hooks: [hook('edit')] },
          { matcher: 'mcp__github__.*', hooks: [hook('mcp')] },
          { hooks: [hook('all')] },
        ],
      },
    });
    const W = ['--workspace', t.workspace];
    const init = await runCli(['hooks', 'test', '--init', 'PreToolUse', ...W], { env, cwd: t.root });
    expect(init.code, init.stderr).toBe(0);
    const text = readFileSync(join(t.workspace, 'PreToolUse.hooktest.yaml'), 'utf8');
    const cases = (parse(text) as { cases: { hooks: string[]; payload: Record<string, unknown>; expect: object }[] })
      .cases;
    expect(cases.map((c) => [c.hooks, c.payload.tool_name])).toEqual([
      [['project:PreToolUse:1.1'], 'Bash'],
      [['project:PreToolUse:2.1'], 'Edit'],
      [['project:PreToolUse:3.1'], expect.stringMatching(/^mcp__github__/)],
      [['project:PreToolUse:4.1'], undefined], // match-all: the skeleton as it is
    ]);
    for (const c of cases) expect(c.expect).toMatchObject({ verdict: 'pass', ran: c.hooks });
    // A field the case fills is no longer listed among the fields left to fill in.
    const firstCase = text.split('\n  - name: ')[1]!;
    expect(firstCase).toContain('"tool_name": "Bash"');
    expect(firstCase).not.toMatch(/# more fields of the payload: .*tool_name/);
    // Writing the file ran each hook once with its case's payload.
    for (const name of ['bash', 'edit', 'mcp', 'all']) expect(existsSync(mark(name)), name).toBe(true);

    const run = await runCli(['hooks', 'test', join(t.workspace, 'PreToolUse.hooktest.yaml'), ...W], {
      env,
      cwd: t.root,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('4 passed, 0 failed');
  });
});
