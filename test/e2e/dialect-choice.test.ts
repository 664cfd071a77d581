// Issue 28, "a broken source must never change which hooks guard an event" (claude.md §7,
// "Choosing the dialect", rule 3 revised): a dialect any of whose sources has an error counts as
// declaring every event of its catalog. So a trailing comma or a misspelt event key in
// .claude/settings.json never sends PreToolUse quietly to cosh: `fire` refuses naming the file
// and line (or, when cosh declares the event too, asks for --dialect), `fire --dry-run` plans
// claude's event and says why fire would refuse, and a `hooks test` case without `dialect:`
// fails. The same holds with cosh or compozy broken. Built CLI, real files, real hook scripts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bash, cmd, group, sandbox, type Sandbox } from './claude-support.js';

const GUARD_SETTINGS = (event = 'PreToolUse', comma = '') =>
  [
    '{',
    '  "hooks": {',
    `    "${event}": [`,
    `      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "echo no >&2; exit 2" } ] }${comma}`,
    '    ]',
    '  }',
    '}',
    '',
  ].join('\n');

/** A claude settings file that does not parse: a trailing comma after the last group. */
function trailingComma(s: Sandbox): void {
  writeFileSync(join(s.workspace, '.claude', 'settings.json'), GUARD_SETTINGS('PreToolUse', ','));
}

/** A claude settings file whose event key is misspelt. */
function eventTypo(s: Sandbox): void {
  writeFileSync(join(s.workspace, '.claude', 'settings.json'), GUARD_SETTINGS('PreToolUSe'));
}

/** A cosh config hook for PreToolUse in the user layer. */
function coshHook(s: Sandbox, text = '[[hooks.PreToolUse]]\nname = "cosh-audit"\ncommand = "true"\n'): void {
  mkdirSync(s.env.COSH_HOME!, { recursive: true });
  writeFileSync(join(s.env.COSH_HOME!, 'config.toml'), text);
}

/** A cosh extension manifest that is not JSON. */
function brokenCoshExtension(s: Sandbox): string {
  const dir = join(s.env.COSH_HOME!, 'extensions', 'guard');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'cosh-extension.json');
  writeFileSync(file, '{ "name": "guard", "hooks": { "PreToolUse": [ ] }, }\n');
  return file;
}

const fire = (s: Sandbox, event: string, ...flags: string[]) =>
  s.cli(['hooks', 'fire', event, ...flags], JSON.stringify(bash('ls')));

describe('a broken source never changes which dialect fires the event', { timeout: 120_000 }, () => {
  for (const [what, breakIt, where] of [
    ['a trailing comma', trailingComma, /\.claude\/settings\.json:\d+: /],
    ['a misspelt event key', eventTypo, /\.claude\/settings\.json:3: .*"PreToolUSe"/],
  ] as const) {
    it(`claude settings with ${what}: fire refuses (exit 2) naming file:line, never cosh's pass`, async () => {
      const s = sandbox();
      breakIt(s);
      const human = await fire(s, 'PreToolUse');
      expect(human.code, human.stdout + human.stderr).toBe(2);
      expect(human.stdout).toBe('');
      expect(human.stderr).toContain('refusing to fire "PreToolUse"');
      expect(human.stderr).toMatch(where);
      const json = await fire(s, 'PreToolUse', '-o', 'json');
      expect(json.code).toBe(2);
      expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code).toBe('declarations_invalid');
    });
  }

  it('fire --dry-run plans the broken dialect and says on stderr why fire would refuse', async () => {
    const s = sandbox();
    eventTypo(s);
    const json = await fire(s, 'PreToolUse', '--dry-run', '-o', 'json');
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ event: 'PreToolUse', dialect: 'claude', plan: [] });
    expect(json.stderr).toMatch(/warning: fire would refuse "PreToolUse": .*settings\.json:3: .*"PreToolUSe"/);
  });

  it('broken claude settings and a cosh hook of the event: ambiguous (exit 2), fire and dry run alike', async () => {
    const s = sandbox();
    trailingComma(s);
    coshHook(s);
    for (const flags of [[], ['--dry-run']]) {
      const r = await fire(s, 'PreToolUse', ...flags);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain(
        'event "PreToolUse" is declared in more than one dialect (claude, cosh); pass --dialect claude or --dialect cosh',
      );
    }
    // --dialect still decides: cosh's hook runs.
    const cosh = await fire(s, 'PreToolUse', '--dialect', 'cosh', '-o', 'json');
    expect(cosh.code, cosh.stderr).toBe(0);
    expect(JSON.parse(cosh.stdout)).toMatchObject({ dialect: 'cosh', runs: [{ hook_name: 'cosh-audit' }] });
  });

  it('a broken cosh extension and a claude hook of the event: ambiguous, not claude alone', async () => {
    const s = sandbox();
    s.settings({ PreToolUse: [group([cmd('true')], 'Bash')] });
    brokenCoshExtension(s);
    const r = await fire(s, 'PreToolUse');
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('is declared in more than one dialect (claude, cosh)');
    // Alone, the broken cosh source makes fire refuse with its file and line.
    const t = sandbox();
    const file = brokenCoshExtension(t);
    const alone = await fire(t, 'PreToolUse');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('refusing to fire "PreToolUse"');
    expect(alone.stderr).toContain(`${file}:1: `);
  });

  it('a broken cosh config.toml with a claude hook of the event: ambiguous', async () => {
    const s = sandbox();
    s.settings({ Stop: [group([cmd('true')])] });
    coshHook(s, '[[hooks.Stop]]\nname = "x"\ncommand = \n');
    const r = await s.cli(['hooks', 'fire', 'Stop'], '{}');
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('event "Stop" is declared in more than one dialect (claude, cosh)');
  });

  it('bad TOML in the compozy config: fire refuses naming the file and line', async () => {
    const s = sandbox();
    mkdirSync(join(s.workspace, '.compozy'), { recursive: true });
    writeFileSync(join(s.workspace, '.compozy', 'config.toml'), '[[hooks.declarations]]\nname = "g"\nevent = \n');
    const r = await s.cli(['hooks', 'fire', 'tool.pre_call'], '{}');
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('refusing to fire "tool.pre_call"');
    expect(r.stderr).toMatch(/\.compozy\/config\.toml:\d+: /);
  });

  it('hooks test: a case without dialect fails on broken claude settings, and is ambiguous beside a cosh hook', async () => {
    const s = sandbox();
    eventTypo(s);
    const file = join(s.workspace, 'guard.hooktest.yaml');
    writeFileSync(
      file,
      [
        'cases:',
        '  - name: ls passes',
        '    event: PreToolUse',
        '    payload: { tool_name: Bash, tool_input: { command: ls } }',
        '    expect: { verdict: pass }',
        '',
      ].join('\n'),
    );
    const failed = await s.cli(['hooks', 'test', file]);
    expect(failed.code, failed.stdout + failed.stderr).toBe(1);
    expect(failed.stdout).toContain('refusing to fire "PreToolUse"');
    expect(failed.stdout).toMatch(/settings\.json:3: .*"PreToolUSe"/);
    expect(failed.stdout).toContain('0 passed, 1 failed');
    // A hook name of the broken file is not blamed on the test file: the case fails with the refusal.
    const named = join(s.workspace, 'named.hooktest.yaml');
    writeFileSync(
      named,
      'cases:\n  - { name: the guard denies, event: PreToolUse, hooks: ["project:PreToolUse:1.1"], expect: { verdict: deny } }\n',
    );
    const refused = await s.cli(['hooks', 'test', named]);
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stdout).toMatch(/settings\.json:3: .*"PreToolUSe"/);

    coshHook(s);
    const ambiguous = await s.cli(['hooks', 'test', file]);
    expect(ambiguous.code, ambiguous.stdout + ambiguous.stderr).toBe(2);
    expect(ambiguous.stderr).toContain('hooktest_ambiguous_event');
    expect(ambiguous.stderr).toContain('(claude, cosh)');
  });
});

describe(
  'the human output of fire, fire --dry-run and hooks test names the dialect in its first line',
  {
    timeout: 120_000,
  },
  () => {
    it('fire and fire --dry-run, for each dialect', async () => {
      const s = sandbox();
      s.settings({ Stop: [group([cmd('true')])] });
      coshHook(s);
      for (const [event, dialect] of [
        ['Stop', 'claude'],
        ['PreToolUse', 'cosh'],
        ['tool.pre_call', 'compozy'],
      ] as const) {
        const fired = await s.cli(['hooks', 'fire', event], JSON.stringify(bash('ls')));
        expect(fired.code, fired.stderr).toBe(0);
        expect(fired.stdout.split('\n')[0], event).toBe(`dialect  ${dialect}`);
        expect(fired.stdout.split('\n')[1], event).toMatch(/^verdict\s+\w+$/);
        const dry = await s.cli(['hooks', 'fire', event, '--dry-run'], JSON.stringify(bash('ls')));
        expect(dry.code, dry.stderr).toBe(0);
        expect(dry.stdout.split('\n')[0], event).toBe(
          `dialect  ${dialect}  (dry run: nothing runs, nothing is recorded)`,
        );
      }
    });

    it('hooks test: each case line names the dialect that fired it (JSON: dialect)', async () => {
      const s = sandbox();
      s.settings({ Stop: [group([cmd('true')])] });
      coshHook(s);
      const file = join(s.workspace, 'both.hooktest.yaml');
      writeFileSync(
        file,
        [
          'cases:',
          '  - { name: the cosh one, event: PreToolUse, payload: { tool_name: shell } }',
          '  - { name: the claude one, event: Stop }',
          '  - { name: the compozy one, event: tool.pre_call, dry_run: true }',
          '',
        ].join('\n'),
      );
      const human = await s.cli(['hooks', 'test', file]);
      expect(human.code, human.stdout + human.stderr).toBe(0);
      expect(human.stdout).toMatch(/^ {2}✓ the cosh one {2}cosh · \d+ ms$/m);
      expect(human.stdout).toMatch(/^ {2}✓ the claude one {2}claude · \d+ ms$/m);
      expect(human.stdout).toMatch(/^ {2}✓ the compozy one \(dry run\) {2}compozy · \d+ ms$/m);
      const json = await s.cli(['hooks', 'test', file, '-o', 'json']);
      const cases = (JSON.parse(json.stdout) as { cases: { name: string; dialect: string }[] }).cases;
      expect(cases.map((c) => [c.name, c.dialect])).toEqual([
        ['the cosh one', 'cosh'],
        ['the claude one', 'claude'],
        ['the compozy one', 'compozy'],
      ]);
    });
  },
);
