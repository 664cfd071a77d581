// Command-line conventions of SPEC §6 on the built CLI, for the read commands: -o json = --json,
// compact JSON errors with the same exit code as without --json, exit 2 with a short message for
// an unknown command or flag, colour rules, and warnings on stderr that leave stdout JSON whole.
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDir, demoEnv, isolatedEnv, repoRoot, runCli, type CliResult, limited } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const W = ['--workspace', join(demoDir, 'workspace'), '--additional-dir', join(demoDir, 'extra')];
// An SGR escape: ESC [ … m (built from a string: a control character in a regex literal is a lint error).
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`);
const ANSI_ALL = new RegExp(ANSI.source, 'g');

function expectNoStack(r: CliResult): void {
  expect(r.stderr).not.toContain('    at ');
  expect(r.stdout).not.toContain('    at ');
}

/** A JSON error document: one compact line `{"error":{"code","message","exit"}}`. */
function expectJsonError(r: CliResult, exit: number): { code: string; message: string; exit: number } {
  expect(r.code).toBe(exit);
  expect(r.stdout.endsWith('\n')).toBe(true);
  expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
  const doc = JSON.parse(r.stdout) as { error: { code: string; message: string; exit: number } };
  expect(Object.keys(doc)).toEqual(['error']);
  expect(doc.error).toMatchObject({ exit });
  expect(typeof doc.error.code).toBe('string');
  expect(doc.error.code).toMatch(/^[a-z][a-z0-9_]*$/);
  expect(doc.error.message).not.toContain('\n');
  // never oclif's own error JSON with its whole config
  expect(r.stdout.length).toBeLessThan(500);
  expect(r.stdout).not.toMatch(/"(config|oclif|plugins|pjson)"/);
  expectNoStack(r);
  return doc.error;
}

describe('JSON output', { timeout: 120_000 }, () => {
  it('-o json and --json print the same document for list, info, events and validate', async () => {
    const env = demoEnv();
    const commands = [
      ['hooks', 'list', ...W],
      ['hooks', 'list', ...W, '--all'],
      ['hooks', 'info', 'prompt-style', ...W],
      ['hooks', 'events'],
      ['hooks', 'events', 'tool.pre_call'],
      ['hooks', 'validate', ...W],
    ];
    const results = await limited(
      commands.flatMap((c) => [
        () => runCli([...c, '-o', 'json'], { env }),
        () => runCli([...c, '--json'], { env }),
        () => runCli([...c, '--output=json'], { env }),
      ]),
    );
    commands.forEach((c, i) => {
      const [o, json, long] = results.slice(i * 3, i * 3 + 3) as [CliResult, CliResult, CliResult];
      expect(o.code, c.join(' ')).toBe(0);
      expect(json.stdout, c.join(' ')).toBe(o.stdout);
      expect(long.stdout, c.join(' ')).toBe(o.stdout);
      expect(() => JSON.parse(o.stdout), c.join(' ')).not.toThrow();
    });
  });

  it('errors under --json are one compact {"error":{code,message,exit}} on stdout, with the exit code of the plain run', async () => {
    const env = demoEnv();
    const cases: { args: string[]; exit: number; code: string }[] = [
      { args: ['hooks', 'info', 'nope', ...W], exit: 1, code: 'hook_not_found' },
      { args: ['hooks', 'list', ...W, '--bogus'], exit: 2, code: 'unknown_flag' },
      { args: ['hooks', 'list', '--workspace', 'no-such-dir'], exit: 2, code: 'directory_not_found' },
      { args: ['hooks', 'list', ...W, '--mode', 'blocking'], exit: 2, code: 'usage_error' },
      { args: ['hooks', 'events', 'tool.nope'], exit: 2, code: 'unknown_event' },
      { args: ['hooks', 'validate', 'missing.toml'], exit: 2, code: 'file_not_found' },
      { args: ['hooks', 'info'], exit: 2, code: 'usage_error' },
    ];
    const runs = await limited(
      cases.flatMap((c) => [
        () => runCli(c.args, { env }),
        () => runCli([...c.args, '--json'], { env }),
        () => runCli([...c.args, '-o', 'json'], { env }),
      ]),
    );
    cases.forEach((c, i) => {
      const [plain, json, o] = runs.slice(i * 3, i * 3 + 3) as [CliResult, CliResult, CliResult];
      const what = c.args.join(' ');
      expect(plain.code, what).toBe(c.exit);
      expect(plain.stdout, what).toBe('');
      expect(plain.stderr.startsWith('hookctl: '), what).toBe(true);
      expect(plain.stderr.trimEnd().split('\n').length, what).toBeLessThanOrEqual(3);
      expectNoStack(plain);
      const error = expectJsonError(json, c.exit);
      expect(error.code, what).toBe(c.code);
      // the same message as the plain run's first line
      expect(plain.stderr.split('\n')[0], what).toBe(`hookctl: ${error.message}`);
      expect(o.stdout, what).toBe(json.stdout);
      expect(json.stderr, what).toBe('');
    });
  });

  it('an unknown command under --json is a JSON error too (exit 2)', async () => {
    const r = await runCli(['hooks', 'bogus', '--json'], { env: isolatedEnv() });
    expectJsonError(r, 2);
  });
});

describe('usage errors', { timeout: 120_000 }, () => {
  it('an unknown command or flag exits 2 with a short message, never the whole help', async () => {
    const env = isolatedEnv();
    const cases = [
      ['hooks', 'bogus'],
      ['nosuch'],
      ['hooks', 'list', '--bogus'],
      ['hooks', 'events', '--nope'],
      ['hooks', 'validate', '--format', 'xml'],
      ['hooks', 'list', '-o', 'yaml'],
    ];
    const results = await limited(cases.map((args) => () => runCli(args, { env })));
    results.forEach((r, i) => {
      const what = cases[i]!.join(' ');
      expect(r.code, what).toBe(2);
      expect(r.stdout, what).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines.length, `${what}: ${r.stderr}`).toBeLessThanOrEqual(4);
      expect(r.stderr, what).not.toMatch(/USAGE|FLAGS|DESCRIPTION/);
      expectNoStack(r);
    });
    expect(results[0]!.stderr).toContain('bogus');
    expect(results[2]!.stderr).toContain('--bogus');
  });
});

describe('colour', { timeout: 120_000 }, () => {
  const human = [
    ['hooks', 'list', ...W, '--all'],
    ['hooks', 'events'],
    ['hooks', 'info', 'prompt-style', ...W],
    ['hooks', 'validate', '--workspace', join(repoRoot, 'fixtures', 'broken', 'workspace')],
  ];
  const brokenEnv = (extra: Record<string, string> = {}) => ({
    ...isolatedEnv({
      compozyHome: join(repoRoot, 'fixtures', 'broken', 'home', '.compozy'),
      coshHome: join(repoRoot, 'fixtures', 'broken', 'home', '.copilot-shell'),
      systemRoot: join(repoRoot, 'fixtures', 'broken', 'system'),
    }),
    ...extra,
  });
  const envFor = (args: string[], extra: Record<string, string>) =>
    args[1] === 'validate' ? brokenEnv(extra) : demoEnv(extra);

  it('none when piped', async () => {
    const results = await limited(human.map((args) => () => runCli(args, { env: envFor(args, {}) })));
    results.forEach((r, i) => expect(r.stdout, human[i]!.join(' ')).not.toMatch(ANSI));
  });

  it('FORCE_COLOR=1 turns it on; NO_COLOR=1 wins over FORCE_COLOR; --no-color turns it off', async () => {
    const forced = await limited(human.map((args) => () => runCli(args, { env: envFor(args, { FORCE_COLOR: '1' }) })));
    forced.forEach((r, i) => expect(r.stdout, human[i]!.join(' ')).toMatch(ANSI));
    const noColor = await limited(
      human.map((args) => () => runCli(args, { env: envFor(args, { FORCE_COLOR: '1', NO_COLOR: '1' }) })),
    );
    noColor.forEach((r, i) => {
      expect(r.stdout, human[i]!.join(' ')).not.toMatch(ANSI);
      expect(r.stderr).not.toMatch(ANSI);
    });
    const flagOff = await runCli([...human[0]!, '--no-color'], { env: demoEnv({ FORCE_COLOR: '1' }) });
    expect(flagOff.stdout).not.toMatch(ANSI);
    // the same text once the escapes are taken out
    expect(forced[0]!.stdout.replace(ANSI_ALL, '')).toBe(flagOff.stdout);
  });

  it('--color turns it on when piped, and beats NO_COLOR (SPEC §7.4)', async () => {
    const [on, noColor] = await Promise.all([
      runCli([...human[1]!, '--color'], { env: demoEnv() }),
      runCli([...human[1]!, '--color'], { env: demoEnv({ NO_COLOR: '1' }) }),
    ]);
    expect(on.stdout).toMatch(ANSI);
    expect(noColor.stdout).toMatch(ANSI);
    expect(noColor.stdout).toBe(on.stdout);
  });

  it('JSON is never coloured', async () => {
    const results = await limited(
      human.map((args) => () => runCli([...args, '-o', 'json'], { env: envFor(args, { FORCE_COLOR: '1' }) })),
    );
    results.forEach((r) => {
      expect(r.stdout).not.toMatch(ANSI);
      expect(() => JSON.parse(r.stdout)).not.toThrow();
    });
  });

  it('comes only from src/cli/colour.ts', () => {
    const offenders: string[] = [];
    const scan = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) scan(p);
        else if (p.endsWith('.ts') && !p.endsWith(join('cli', 'colour.ts'))) {
          const text = readFileSync(p, 'utf8');
          if (/from ['"](chalk|ansi-colors|kleur|picocolors|@colors\/colors)['"]/.test(text))
            offenders.push(`${p}: imports a colour library`);
          if (/\\(x1b|u001b|033)\[/.test(text)) offenders.push(`${p}: writes an escape sequence`);
        }
      }
    };
    scan(join(repoRoot, 'src'));
    expect(offenders).toEqual([]);
  });
});

describe('warnings and JSON', { timeout: 120_000 }, () => {
  it('list on a tree with a broken declaration: exit 0, stdout the valid ones as JSON, stderr names the error', async () => {
    const base = tempDir('hookctl-warn-');
    cpSync(demoDir, base, { recursive: true });
    rmSync(join(base, 'home', '.compozy', 'sessions'), { recursive: true, force: true });
    const config = join(base, 'workspace', '.compozy', 'config.toml');
    const before = readFileSync(config, 'utf8').split('\n').length;
    appendFileSync(config, '\n[[hooks.declarations]]\nname = "typo"\nevent = "tool.pre_cal"\ncommand = "true"\n');
    const env = isolatedEnv({
      compozyHome: join(base, 'home', '.compozy'),
      coshHome: join(base, 'home', '.copilot-shell'),
      systemRoot: join(base, 'system'),
    });
    const w = ['--workspace', join(base, 'workspace'), '--additional-dir', join(base, 'extra')];
    const [list, info, events] = await Promise.all([
      runCli(['hooks', 'list', ...w, '-o', 'json'], { env, cwd: base }),
      runCli(['hooks', 'info', 'prompt-style', ...w, '--json'], { env, cwd: base }),
      runCli(['hooks', 'events', ...w, '--family', 'tool', '-o', 'json'], { env, cwd: base }),
    ]);
    expect(list.code).toBe(0);
    const names = (JSON.parse(list.stdout) as { name: string }[]).map((e) => e.name);
    expect(names).toContain('block-secret-file-edits');
    expect(names).not.toContain('typo');
    expect(names).toHaveLength(16);
    expect(list.stderr).toContain(
      `workspace/.compozy/config.toml:${before + 3}: hooks: invalid hook event "tool.pre_cal"`,
    );
    expect(list.stderr.split('\n').every((l) => l === '' || l.startsWith('hookctl: warning: '))).toBe(true);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout).name).toBe('prompt-style');
    expect(info.stderr).toContain('tool.pre_cal');
    expect(events.code).toBe(0);
    expect(JSON.parse(events.stdout)).toHaveLength(3);
    for (const r of [list, info, events]) expectNoStack(r);
    writeFileSync(join(base, 'done'), '');
  });
});

// oclif reads a missing positional argument from a non-terminal stdin; hookctl's arguments never
// come from there (src/cli/base-command.ts).
describe('stdin is never a positional argument', { timeout: 60_000 }, () => {
  it('hooks events with text on stdin lists every event, not the one named on stdin', async () => {
    const all = await runCli(['hooks', 'events', '-o', 'json'], { env: demoEnv() });
    const piped = await runCli(['hooks', 'events', '-o', 'json'], { env: demoEnv(), input: 'tool.pre_call\n' });
    expect(piped.code).toBe(0);
    expect(Array.isArray(JSON.parse(piped.stdout))).toBe(true);
    expect(piped.stdout).toBe(all.stdout);
  });

  it('hooks validate with a file name on stdin validates every source', async () => {
    const r = await runCli(['hooks', 'validate', ...W], { env: demoEnv(), input: 'no-such-file.toml\n' });
    expect(r.stderr).not.toContain('no-such-file.toml');
    expect(r.code).toBe(0);
  });

  it('hooks info with a name on stdin and none in argv is a usage error', async () => {
    const r = await runCli(['hooks', 'info', ...W], { env: demoEnv(), input: 'block-secret-file-edits\n' });
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain('block-secret-file-edits');
  });
});
