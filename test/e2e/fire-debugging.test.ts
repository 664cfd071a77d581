// What a debugging user needs from `hooks fire` (SPEC §7.2, §7.3, §7.4), on the built CLI with
// real hook scripts: --verbose shows what each hook printed (never recorded), --hook runs one
// name, --no-record writes nothing, --session is the session of the run and of the payload,
// --dry-run never refuses, --skip-invalid runs the valid ones, payload errors name
// file:line:col, a BOM is skipped, and the human table colours outcomes and gives cosh decisions
// their own column.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoCopy, repoRoot, runCli } from '../support/cli.js';
import { emitHook, makeSandbox, parseJson, removeSandboxes, type FireJson } from './fire-support.js';

afterAll(removeSandboxes);

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`);

describe('fire --verbose, --hook, --no-record, --session', { timeout: 120_000 }, () => {
  it('--verbose prints each hook’s stdout and stderr on stderr, marked; the record keeps sizes only', async () => {
    const box = makeSandbox();
    box.writeConfig([
      emitHook(box, 'talker', 'tool.pre_call', '{}', { priority: 20 }),
      {
        name: 'grumbler',
        event: 'tool.pre_call',
        mode: 'sync',
        priority: 10,
        command: box.hook('fail-stderr.sh'),
        args: ['secret-ish text on stderr'],
      },
    ]);
    const r = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'v', '--verbose', '-o', 'json'], {
      input: '{}',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^hookctl: hook "talker" \(exit 0, \d+ ms\)\n\[stdout\] \{\}\n\[stderr\] \(nothing\)$/m);
    expect(r.stderr).toMatch(/^hookctl: hook "grumbler" \(exit 1, \d+ ms\)$/m);
    expect(r.stderr).toContain('[stderr] secret-ish text on stderr');
    // stdout stays the JSON document alone, and the ledger never holds what was printed
    const out = parseJson<FireJson>(r.stdout);
    expect(out.runs.map((x) => x.hook_name)).toEqual(['talker', 'grumbler']);
    const log = readFileSync(box.logFile('v'), 'utf8');
    expect(log).not.toContain('secret-ish');
    expect(box.records('v')[1]).toMatchObject({ hook_name: 'grumbler', stderr_bytes: 26 });
    // without --verbose, nothing of it is shown
    const quiet = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'q'], { input: '{}' });
    expect(quiet.stderr).not.toContain('secret-ish');
  });

  it('--verbose shows at most 4 KiB of each stream and says where it cut, counting every byte written (issue 28)', async () => {
    const box = makeSandbox();
    const writeBytes = join(repoRoot, 'test', 'fixtures', 'hooks', 'write-bytes.mjs');
    box.writeConfig([
      { name: 'flood', event: 'tool.pre_call', mode: 'sync', command: writeBytes, args: ['10000', '20000'] },
      { name: 'small', event: 'tool.pre_call', mode: 'sync', command: writeBytes, args: ['4096', '3'] },
    ]);
    const r = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'cap', '--verbose', '-o', 'json'], {
      input: '{}',
    });
    const shown = (hook: string, mark: string) => {
      const block = r.stderr.split(/^(?=hookctl: hook ")/m).find((b) => b.startsWith(`hookctl: hook "${hook}"`))!;
      return block
        .split('\n')
        .filter((l) => l.startsWith(`${mark} `))
        .map((l) => l.slice(mark.length + 1))
        .join('\n');
    };
    expect(shown('flood', '[stdout]')).toBe(`${'a'.repeat(4096)}…[truncated ${10000 - 4096} bytes]`);
    // stderr is captured up to 8 KiB; the count is still of all 20000 bytes the hook wrote
    expect(shown('flood', '[stderr]')).toBe(`${'a'.repeat(4096)}…[truncated ${20000 - 4096} bytes]`);
    expect(shown('small', '[stdout]')).toBe('a'.repeat(4096));
    expect(shown('small', '[stderr]')).toBe('aaa');
    expect(readFileSync(box.logFile('cap'), 'utf8')).not.toContain('aaaa');
  });

  it('--hook NAME runs only that name; the dry run lists the others as not selected; a typo is exit 2', async () => {
    const box = makeSandbox();
    box.writeConfig([
      emitHook(box, 'one', 'tool.pre_call', '{}', { priority: 20, env: { MARKER: join(box.out, 'one') } }),
      emitHook(box, 'two', 'tool.pre_call', '{}', { priority: 10, env: { MARKER: join(box.out, 'two') } }),
    ]);
    const r = await box.cli(['hooks', 'fire', 'tool.pre_call', '--hook', 'two', '--session', 'h', '-o', 'json'], {
      input: '{}',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(parseJson<FireJson>(r.stdout).runs.map((x) => x.hook_name)).toEqual(['two']);
    expect(existsSync(join(box.out, 'one'))).toBe(false);
    expect(existsSync(join(box.out, 'two'))).toBe(true);
    const plan = await box.cli(['hooks', 'fire', 'tool.pre_call', '--hook', 'two', '--dry-run', '-o', 'json'], {
      input: '{}',
    });
    const entries = parseJson<{ plan: { name: string; matched: boolean; status: string }[] }>(plan.stdout).plan;
    expect(entries.map((e) => [e.name, e.matched, e.status])).toEqual([
      ['one', false, 'not_selected'],
      ['two', true, 'active'],
    ]);
    const typo = await box.cli(['hooks', 'fire', 'tool.pre_call', '--hook', 'tow'], { input: '{}' });
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe(
      'hookctl: no hook named "tow" is declared for "tool.pre_call"; did you mean "two"?',
    );
  });

  it('--no-record runs the hooks and writes no log', async () => {
    const box = makeSandbox();
    box.writeConfig([emitHook(box, 'one', 'tool.pre_call', '{}', { env: { MARKER: join(box.out, 'ran') } })]);
    const r = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'n', '--no-record', '-o', 'json'], {
      input: '{}',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(parseJson<FireJson>(r.stdout).runs).toHaveLength(1);
    expect(existsSync(join(box.out, 'ran'))).toBe(true);
    expect(existsSync(box.logFile('n'))).toBe(false);
  });

  it('--session replaces the payload’s session_id: the hook and the ledger agree', async () => {
    const box = makeSandbox();
    const seen = join(box.out, 'seen.json');
    box.writeConfig([emitHook(box, 'one', 'tool.pre_call', '{}', { env: { SEEN_FILE: seen } })]);
    const r = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'mine', '-o', 'json'], {
      input: '{"session_id":"from-payload","tool_id":"x"}',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(parseJson<FireJson>(r.stdout).session_id).toBe('mine');
    expect(JSON.parse(readFileSync(seen, 'utf8')).session_id).toBe('mine');
    expect(box.records('mine').map((x) => x.session_id)).toEqual(['mine']);
    expect(existsSync(box.logFile('from-payload'))).toBe(false);
  });
});

describe('declarations with errors do not blind fire (SPEC §7.2)', { timeout: 120_000 }, () => {
  const broken = (box: ReturnType<typeof makeSandbox>) => [
    emitHook(box, 'good', 'tool.pre_call', '{}', { env: { MARKER: join(box.out, 'good') } }),
    emitHook(box, 'typo', 'tool.pre_cal', '{}'),
  ];

  it('without a flag fire refuses (exit 2); --dry-run never refuses', async () => {
    const box = makeSandbox();
    box.writeConfig(broken(box));
    const refused = await box.cli(['hooks', 'fire', 'tool.pre_call'], { input: '{}' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to fire');
    const plan = await box.cli(['hooks', 'fire', 'tool.pre_call', '--dry-run', '-o', 'json'], { input: '{}' });
    expect(plan.code, plan.stderr).toBe(0);
    expect(parseJson<{ plan: { name: string }[] }>(plan.stdout).plan.map((p) => p.name)).toContain('good');
  });

  it('--skip-invalid runs the valid declarations, names each skipped one (its NAME, issue 28) on stderr, records only the runs', async () => {
    const box = makeSandbox();
    box.writeConfig(broken(box));
    const r = await box.cli(['hooks', 'fire', 'tool.pre_call', '--skip-invalid', '--session', 's', '-o', 'json'], {
      input: '{}',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^hookctl: warning: skipped \(invalid\): "typo" at .*config\.toml:\d+: .*invalid hook event "tool\.pre_cal"/m,
    );
    expect(existsSync(join(box.out, 'good'))).toBe(true);
    expect(box.records('s').map((x) => x.hook_name)).toEqual(['good']);
  });

  it('the invalid_event diagnostic and fire’s unknown event say what was meant', async () => {
    const box = makeSandbox();
    box.writeConfig(broken(box));
    const v = await box.cli(['hooks', 'validate', '-o', 'json']);
    const d = parseJson<{ diagnostics: { code: string; message: string }[] }>(v.stdout).diagnostics;
    expect(d.find((x) => x.code === 'invalid_event')?.message).toBe(
      'hooks: invalid hook event "tool.pre_cal"; did you mean "tool.pre_call"?',
    );
    const f = await box.cli(['hooks', 'fire', 'PreToolUs'], { input: '{}' });
    expect(f.code).toBe(2);
    expect(f.stderr.trim()).toBe('hookctl: unknown event "PreToolUs"; did you mean "PreToolUse"?');
  });
});

describe('payload files', { timeout: 120_000 }, () => {
  it('an error names the file, line and column; a byte-order mark is skipped', async () => {
    const box = makeSandbox();
    box.writeConfig([emitHook(box, 'one', 'tool.pre_call', '{}')]);
    writeFileSync(join(box.out, 'payload.json'), '{\n  "tool_id": "x",\n  oops\n}\n');
    const bad = await box.cli(['hooks', 'fire', 'tool.pre_call', '--payload', 'payload.json'], { cwd: box.out });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('hookctl: payload.json:3:3: invalid JSON: Expected double-quoted property name');
    const piped = await box.cli(['hooks', 'fire', 'tool.pre_call'], { input: '{"a": tru}' });
    expect(piped.stderr.trim()).toMatch(/^hookctl: <stdin>:1:\d+: invalid JSON: Unexpected token/);
    // The bad token's line and column, not the end of the input, from a file and from stdin (issue 28).
    writeFileSync(join(box.out, 'value.json'), '{\n  "tool_id": "x",\n  "b": oops\n}\n');
    const [value, valuePiped, missing] = await Promise.all([
      box.cli(['hooks', 'fire', 'tool.pre_call', '--payload', 'value.json'], { cwd: box.out }),
      box.cli(['hooks', 'fire', 'tool.pre_call'], { input: '{\n  "tool_id": "x",\n  "b": oops\n}\n' }),
      box.cli(['hooks', 'fire', 'tool.pre_call', '--payload', 'nope.json'], { cwd: box.out }),
    ]);
    expect(value.stderr.trim()).toBe("hookctl: value.json:3:8: invalid JSON: Unexpected token 'o'");
    expect(valuePiped.stderr.trim()).toBe("hookctl: <stdin>:3:8: invalid JSON: Unexpected token 'o'");
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe('hookctl: cannot read payload file "nope.json": no such file or directory');
    writeFileSync(join(box.out, 'bom.json'), '\uFEFF{"tool_id":"with-bom"}');
    const bom = await box.cli(['hooks', 'fire', 'tool.pre_call', '--payload', 'bom.json', '-o', 'json'], {
      cwd: box.out,
    });
    expect(bom.code, bom.stderr).toBe(0);
    expect(parseJson<FireJson>(bom.stdout).payload.tool_id).toBe('with-bom');
  });
});

describe('the human result of fire and runs', { timeout: 120_000 }, () => {
  it('cosh decisions have their own column, the reason is in Error, outcomes are coloured as in runs', async () => {
    const { base, env, W } = demoCopy();
    const args = [
      'hooks',
      'fire',
      'PreToolUse',
      ...W,
      '--payload',
      join(base, 'payloads', 'cosh-rm.json'),
      '--session',
      'c',
    ];
    const r = await runCli(args, { env });
    expect(r.code).toBe(1);
    const header = r.stdout.split('\n').find((l) => l.startsWith('Hook'))!;
    expect(header.split(/\s{2,}/)).toEqual(['Hook', 'Mode', 'Outcome', 'Decision', 'Duration', 'Error']);
    expect(r.stdout).toMatch(/security-check\s+sync\s+denied\s+block\s+\d+ ms\s+reason: Dangerous rm -rf command/);
    const [fireColour, runsColour] = await Promise.all([
      runCli([...args.slice(0, -1), 'c2', '--color'], { env }),
      runCli(['hooks', 'runs', ...W, '--session', 'c', '--color'], { env }),
    ]);
    const deniedPainted = '\u001B[31mdenied\u001B[39m';
    expect(fireColour.stdout).toContain(deniedPainted);
    expect(runsColour.stdout).toContain(deniedPainted);
    expect(runsColour.stdout).toMatch(ANSI);
  });

  it('runs shows why a compozy hook denied', async () => {
    const { base, env, W } = demoCopy();
    const fired = await runCli(
      [
        'hooks',
        'fire',
        'tool.pre_call',
        ...W,
        '--payload',
        join(base, 'payloads', 'tool-secret.json'),
        '--session',
        'd',
      ],
      { env },
    );
    expect(fired.code).toBe(1);
    const runs = await runCli(['hooks', 'runs', ...W, '--session', 'd'], { env });
    expect(runs.stdout).toMatch(
      /block-secret-file-edits\s+tool\.pre_call\s+denied\s+\d+ ms\s+reason: Protected secret file path\./,
    );
    const json = await runCli(['hooks', 'runs', ...W, '--session', 'd', '-o', 'json'], { env });
    expect(JSON.parse(json.stdout)[0]).toMatchObject({ outcome: 'denied', reason: 'Protected secret file path.' });
  });
});
