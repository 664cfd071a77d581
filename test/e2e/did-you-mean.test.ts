// Issue 22, "Help, messages and the package stand on their own", on the built CLI: a hook name
// typed wrong gets the closest names wherever a name is taken (info, update, delete, enable,
// disable, a test file's hooks/ran/outcomes), a test file's misspelt key gets the closest key, an
// expected verdict is checked against the case's dialect before anything runs, and `create` with
// a misspelt event names the event rather than asking for a NAME.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoCopy, isolatedEnv, runCli } from '../support/cli.js';
import { claudeCliEnv, makeClaudeTree, oneHook } from '../support/claude-tree.js';

describe('did you mean, for hook names', { timeout: 120_000 }, () => {
  it('info, update, delete, enable and disable offer the closest hook name', async () => {
    const { env, W, base } = demoCopy();
    const config = join(base, 'workspace', '.compozy', 'config.toml');
    const before = readFileSync(config, 'utf8');
    const hint = '; did you mean "prompt-style"?';
    const [info, update, del, disable, enable, json] = await Promise.all([
      runCli(['hooks', 'info', 'prompt-styl', ...W], { env }),
      runCli(['hooks', 'update', 'prompt-styl', '--timeout', '5s', ...W], { env }),
      runCli(['hooks', 'delete', 'prompt-styl', ...W], { env }),
      runCli(['hooks', 'disable', 'prompt-styl', ...W], { env }),
      runCli(['hooks', 'enable', 'securty-check', ...W], { env }),
      runCli(['hooks', 'delete', 'prompt-styl', ...W, '--json'], { env }),
    ]);
    expect(info.code).toBe(1);
    expect(info.stderr.trim()).toBe(`hookctl: no hooks named "prompt-styl" found${hint}`);
    for (const r of [update, del, disable]) {
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toMatch(/^hookctl: hook "prompt-styl" not found in target config overlay \(/);
      expect(r.stderr.trim().endsWith(hint)).toBe(true);
    }
    expect(enable.code).toBe(1);
    expect(enable.stderr.trim().endsWith('; did you mean "security-check"?')).toBe(true);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'hook_not_found', exit: 1 });
    expect(JSON.parse(json.stdout).error.message.endsWith(hint)).toBe(true);
    expect(readFileSync(config, 'utf8')).toBe(before);
  });

  it('claude update and delete offer the closest name of a claude hook', async () => {
    const t = makeClaudeTree('hookctl-e2e-dym-');
    const env = claudeCliEnv(t, isolatedEnv({ home: t.home }));
    t.write('ws/.claude/settings.json', oneHook('PreToolUse', { type: 'command', command: './guard.sh' }, 'Bash'));
    const W = ['--workspace', t.workspace];
    const [update, del] = await Promise.all([
      runCli(['hooks', 'update', 'project:PreToolUse:1.2', '--timeout', '5', ...W], { env, cwd: t.root }),
      runCli(['hooks', 'delete', 'project:PreToolUse:2.1', ...W], { env, cwd: t.root }),
    ]);
    expect(update.code).toBe(1);
    expect(update.stderr.trim()).toBe(
      'hookctl: hook "project:PreToolUse:1.2" not found; did you mean "project:PreToolUse:1.1"?',
    );
    expect(del.code).toBe(1);
    expect(del.stderr.trim()).toBe(
      'hookctl: hook "project:PreToolUse:2.1" not found; did you mean "project:PreToolUse:1.1"?',
    );
  });

  it('create with a misspelt event names the event and its closest, not "needs a NAME"', async () => {
    const t = makeClaudeTree('hookctl-e2e-dym-');
    const env = claudeCliEnv(t, isolatedEnv({ home: t.home }));
    const args = ['hooks', 'create', '--event', 'PreToolUSe', '--command', './guard.sh', '--workspace', t.workspace];
    const [human, json] = await Promise.all([
      runCli(args, { env, cwd: t.root }),
      runCli([...args, '--json'], { env, cwd: t.root }),
    ]);
    expect(human.code).toBe(2);
    expect(human.stderr.trim()).toBe('hookctl: unknown event "PreToolUSe"; did you mean "PreToolUse"?');
    expect(JSON.parse(json.stdout).error).toEqual({
      code: 'unknown_event',
      message: 'unknown event "PreToolUSe"; did you mean "PreToolUse"?',
      exit: 2,
    });
  });
});

describe(
  'hooks test files: names, keys and verdict words are checked before anything runs',
  { timeout: 120_000 },
  () => {
    function claudeProject() {
      const t = makeClaudeTree('hookctl-e2e-dym-test-');
      const env = claudeCliEnv(t, isolatedEnv({ home: t.home }));
      const marker = join(t.root, 'ran.txt');
      t.write(
        'ws/.claude/settings.json',
        oneHook('PreToolUse', { type: 'command', command: `echo ran >> ${JSON.stringify(marker)}` }, 'Bash'),
      );
      return { t, env, marker };
    }
    const run = (t: { root: string; workspace: string }, env: Record<string, string>, file: string) =>
      runCli(['hooks', 'test', file, '--workspace', t.workspace], { env, cwd: t.root, timeoutMs: 60_000 });

    it('hooks and ran naming an undeclared hook get the closest declared name', async () => {
      const { t, env, marker } = claudeProject();
      const file = t.write(
        'ws/guard.hooktest.yaml',
        [
          'dialect: claude',
          'cases:',
          '  - name: bash is checked',
          '    event: PreToolUse',
          '    payload: {tool_name: Bash, tool_input: {command: ls}}',
          '    hooks: [project:PreToolUse:1.2]',
          '    expect:',
          '      ran: [project:PreToolus:1.1]',
          '',
        ].join('\n'),
      );
      const r = await run(t, env, file);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'guard.hooktest.yaml:6:13  error  hooktest_unknown_hook  hook "project:PreToolUse:1.2" is not declared for event "PreToolUse"; did you mean "project:PreToolUse:1.1"?',
      );
      expect(r.stderr).toContain(
        'hook "project:PreToolus:1.1" is not declared for event "PreToolUse"; did you mean "project:PreToolUse:1.1"?',
      );
      expect(() => readFileSync(marker)).toThrow(); // nothing ran
    });

    it('a misspelt key gets the closest key of its level', async () => {
      const { t, env } = claudeProject();
      const file = t.write(
        'ws/keys.hooktest.yaml',
        'nme: x\ncases:\n  - name: a\n    event: PreToolUse\n    paylod: {}\n    expect:\n      verdit: deny\n',
      );
      const r = await run(t, env, file);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('document: unknown key "nme"; did you mean "name"?');
      expect(r.stderr).toContain('cases[0]: unknown key "paylod"; did you mean "payload"?');
      expect(r.stderr).toContain('cases[0].expect: unknown key "verdit"; did you mean "verdict"?');
    });

    it('a verdict word of another dialect is an error at its line, and no case runs', async () => {
      const { t, env, marker } = claudeProject();
      const file = t.write(
        'ws/verdict.hooktest.yaml',
        [
          'cases:',
          '  - name: bash is denied',
          '    event: PreToolUse',
          '    dialect: claude',
          '    payload: {tool_name: Bash, tool_input: {command: ls}}',
          '    expect:',
          '      verdict: denied',
          '  - name: bash is blocked',
          '    event: PreToolUse',
          '    dialect: claude',
          '    payload: {tool_name: Bash, tool_input: {command: ls}}',
          '    expect:',
          '      verdict: alow',
          '',
        ].join('\n'),
      );
      const [human, json] = await Promise.all([
        run(t, env, file),
        runCli(['hooks', 'test', file, '--workspace', t.workspace, '-o', 'json'], { env, cwd: t.root }),
      ]);
      expect(human.code).toBe(2);
      expect(human.stderr).toMatch(
        /verdict\.hooktest\.yaml:7:7 +error +hooktest_unknown_verdict +verdict "denied" is not a claude verdict \(one of: pass, allow, ask, defer, deny, block, stop, accept, decline, cancel\)/,
      );
      expect(human.stderr).toMatch(
        /verdict\.hooktest\.yaml:13:7 +error +hooktest_unknown_verdict +verdict "alow" is not a claude verdict; did you mean "allow"\?/,
      );
      expect(JSON.parse(json.stdout).error.diagnostics).toHaveLength(2);
      expect(() => readFileSync(marker)).toThrow(); // nothing ran
    });

    it('the same words of the right dialect pass the check and run', async () => {
      const { t, env, marker } = claudeProject();
      mkdirSync(join(t.root, 'ws', 't'), { recursive: true });
      const file = join(t.root, 'ws', 't', 'ok.hooktest.yaml');
      writeFileSync(
        file,
        'dialect: claude\ncases:\n  - name: a\n    event: PreToolUse\n    payload: {tool_name: Bash, tool_input: {command: ls}}\n    expect:\n      verdict: pass\n',
      );
      const r = await run(t, env, file);
      expect(r.code, r.stderr + r.stdout).toBe(0);
      expect(readFileSync(marker, 'utf8')).toBe('ran\n');
    });
  },
);
