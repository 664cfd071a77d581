// The commands that change declarations, run through the BUILT CLI (`npm run build` first) on a
// temporary copy of the demo tree; fixtures/ itself is never modified.
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoDir, isolatedEnv, runCli } from '../support/cli.js';

let root: string;
let env: Record<string, string>;
let W: string[];
let workspaceConfig: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hookctl-e2e-edit-'));
  cpSync(demoDir, root, { recursive: true });
  env = isolatedEnv({
    compozyHome: join(root, 'home/.compozy'),
    coshHome: join(root, 'home/.copilot-shell'),
    systemRoot: join(root, 'system'),
  });
  W = ['--workspace', join(root, 'workspace'), '--additional-dir', join(root, 'extra')];
  workspaceConfig = join(root, 'workspace/.compozy/config.toml');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const hookctl = (args: string[], extraEnv: Record<string, string> = {}) =>
  runCli([...args, ...W], { env: { ...env, ...extraEnv }, cwd: root });
const json = (stdout: string): Record<string, unknown> => JSON.parse(stdout) as Record<string, unknown>;

const createAudit = [
  'hooks',
  'create',
  'audit-writes',
  '--event',
  'tool.pre_call',
  '--mode',
  'sync',
  '--command',
  '/usr/bin/env',
  '--arg',
  'bash',
  '--arg',
  '-c',
  '--arg',
  'cat >/dev/null; printf "{}\\n"',
  '--matcher',
  'tool_read_only=false',
  '--timeout',
  '2s',
];

describe('create → list → fire → disable → delete', () => {
  it('round-trips on the demo and leaves the config byte for byte as it was', async () => {
    const original = readFileSync(workspaceConfig, 'utf8');

    const created = await hookctl(createAudit);
    expect(created).toMatchObject({
      code: 0,
      stdout: 'created hook "audit-writes" in workspace/.compozy/config.toml\n',
      stderr: '',
    });

    const list = await hookctl(['hooks', 'list', '--event', 'tool.pre_call', '-o', 'json']);
    expect((JSON.parse(list.stdout) as { name: string; status?: string }[]).map((e) => e.name)).toEqual([
      'block-secret-file-edits',
      'audit-writes',
    ]);

    const payload = join(root, 'payloads/tool-safe.json');
    const fired = await hookctl(['hooks', 'fire', 'tool.pre_call', '--payload', payload, '-o', 'json']);
    expect(fired.code).toBe(0);
    expect(
      (json(fired.stdout).runs as { hook_name: string; outcome: string }[]).map((r) => [r.hook_name, r.outcome]),
    ).toEqual([
      ['block-secret-file-edits', 'applied'],
      ['audit-writes', 'applied'],
    ]);

    const disabled = await hookctl(['hooks', 'disable', 'audit-writes']);
    expect(disabled.stdout).toBe('disabled hook "audit-writes" in workspace/.compozy/config.toml\n');
    const all = JSON.parse((await hookctl(['hooks', 'list', '--all', '-o', 'json'])).stdout) as {
      name: string;
      status: string;
    }[];
    expect(all.find((e) => e.name === 'audit-writes')?.status).toBe('disabled');
    const firedAgain = await hookctl(['hooks', 'fire', 'tool.pre_call', '--payload', payload, '-o', 'json']);
    expect((json(firedAgain.stdout).runs as { hook_name: string }[]).map((r) => r.hook_name)).toEqual([
      'block-secret-file-edits',
    ]);

    const deleted = await hookctl(['hooks', 'delete', 'audit-writes', '-o', 'json']);
    expect(json(deleted.stdout)).toEqual({
      action: 'delete',
      name: 'audit-writes',
      scope: 'workspace',
      file: workspaceConfig,
      changed: true,
      targets: [{ dialect: 'compozy', file: workspaceConfig, changed: true }],
    });
    expect(readFileSync(workspaceConfig, 'utf8')).toBe(original);
  });
});

describe('each command and its refusals', () => {
  it('update changes only the fields given; --dry-run prints the diff and writes nothing', async () => {
    const before = readFileSync(workspaceConfig, 'utf8');
    const dry = await hookctl([
      'hooks',
      'update',
      'block-secret-file-edits',
      '--timeout',
      '5s',
      '--unset',
      'matcher.tool_id',
      '--dry-run',
    ]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(
      [
        '--- workspace/.compozy/config.toml',
        '+++ workspace/.compozy/config.toml',
        '@@ -23,10 +23,9 @@',
        ' mode = "sync"',
        ' required = true',
        ' priority = 700',
        '-timeout = "3s"',
        '+timeout = "5s"',
        ' ',
        ' [hooks.declarations.matcher]',
        '-tool_id = "*"',
        ' tool_read_only = false',
        ' ',
        ' [hooks.declarations.executor]',
        '',
      ].join('\n'),
    );
    expect(readFileSync(workspaceConfig, 'utf8')).toBe(before);
    const dryJson = json(
      (await hookctl(['hooks', 'update', 'block-secret-file-edits', '--timeout', '5s', '--dry-run', '--json'])).stdout,
    );
    expect(dryJson).toMatchObject({
      action: 'update',
      changed: true,
      dry_run: true,
      diff: expect.stringContaining('+timeout = "5s"'),
    });

    const real = await hookctl([
      'hooks',
      'update',
      'block-secret-file-edits',
      '--timeout',
      '5s',
      '--unset',
      'matcher.tool_id',
    ]);
    expect(real.stdout).toBe('updated hook "block-secret-file-edits" in workspace/.compozy/config.toml\n');
    expect(readFileSync(workspaceConfig, 'utf8')).toBe(
      before.replace('timeout = "3s"', 'timeout = "5s"').replace('tool_id = "*"\n', ''),
    );
    const again = await hookctl(['hooks', 'update', 'block-secret-file-edits', '--timeout', '5s']);
    expect(again.stdout).toBe(
      'hook "block-secret-file-edits" already has these values (workspace/.compozy/config.toml): no change\n',
    );
  });

  it.each<[string, string[], { code: string; exit: number; message: string }]>([
    [
      'already exists',
      ['hooks', 'create', 'prompt-style', '--event', 'prompt.post_assemble', '--command', 'x'],
      { code: 'hook_already_exists', exit: 1, message: 'hook "prompt-style" already exists' },
    ],
    [
      'not found',
      ['hooks', 'delete', 'nope'],
      {
        code: 'hook_not_found',
        exit: 1,
        message:
          'hook "nope" not found in target config overlay (workspace config workspace/.compozy/config.toml has no declaration of that name)',
      },
    ],
    [
      'an extension hook',
      ['hooks', 'update', 'workspace-context', '--timeout', '1s'],
      {
        code: 'hook_source_immutable',
        exit: 1,
        message: 'hook "workspace-context" source "extension" is immutable by tools',
      },
    ],
    [
      'an agent hook',
      ['hooks', 'disable', 'add-review-context'],
      {
        code: 'hook_source_immutable',
        exit: 1,
        message: 'hook "add-review-context" source "agent_definition" is immutable by tools',
      },
    ],
    [
      'a skill hook',
      ['hooks', 'delete', 'input-tidy'],
      { code: 'hook_source_immutable', exit: 1, message: 'hook "input-tidy" source "skill" is immutable by tools' },
    ],
    [
      'a secret env name',
      ['hooks', 'update', 'prompt-style', '--env', 'SLACK_TOKEN=x'],
      {
        code: 'hook_secret_input_forbidden',
        exit: 1,
        message:
          'hook executor env contains a forbidden secret-bearing input: env "SLACK_TOKEN" (use --secret-env SLACK_TOKEN=env:VAR)',
      },
    ],
    [
      'a secret env value',
      ['hooks', 'update', 'prompt-style', '--env', 'HOOK=xoxb-1234567890-abcdefghij'],
      {
        code: 'hook_secret_input_forbidden',
        exit: 1,
        message:
          'hook executor env contains a forbidden secret-bearing input: env "HOOK" (use --secret-env HOOK=env:VAR)',
      },
    ],
    [
      'an invalid result',
      ['hooks', 'update', 'prompt-style', '--timeout', '-5s'],
      { code: 'hook_validation_failed', exit: 1, message: 'hook declaration validation failed' },
    ],
    [
      'an unknown event',
      ['hooks', 'create', 'x', '--event', 'tool.pre_cal', '--command', 'c'],
      { code: 'hook_validation_failed', exit: 1, message: 'hook declaration validation failed' },
    ],
    [
      'a value that does not parse',
      ['hooks', 'update', 'prompt-style', '--priority', 'abc'],
      { code: 'usage_error', exit: 2, message: '--priority expects an integer, got "abc"' },
    ],
    [
      'an invalid mode',
      ['hooks', 'update', 'prompt-style', '--mode', 'fast'],
      { code: 'usage_error', exit: 2, message: expect.stringContaining('--mode') as unknown as string },
    ],
    [
      'create without --command',
      ['hooks', 'create', 'x', '--event', 'tool.pre_call'],
      { code: 'usage_error', exit: 2, message: 'hooks create needs --command' },
    ],
    [
      'update with nothing to change',
      ['hooks', 'update', 'prompt-style'],
      { code: 'usage_error', exit: 2, message: expect.stringContaining('nothing to update') as unknown as string },
    ],
  ])('refuses %s with its code and exit code, and writes nothing', async (_what, args, error) => {
    const before = readFileSync(workspaceConfig, 'utf8');
    const human = await hookctl(args);
    expect(human.code).toBe(error.exit);
    expect(human.stdout).toBe('');
    expect(human.stderr.split('\n')[0]).toMatch(/^hookctl: /);
    const machine = await hookctl([...args, '--json']);
    expect(machine.code).toBe(error.exit);
    expect(json(machine.stdout).error).toMatchObject(error);
    expect(readFileSync(workspaceConfig, 'utf8')).toBe(before);
  });

  it('a validation refusal lists the diagnostics, as detail lines and in the JSON error', async () => {
    const human = await hookctl(['hooks', 'update', 'prompt-style', '--timeout', '-5s']);
    expect(human.stderr).toBe(
      'hookctl: hook declaration validation failed\n  workspace/.compozy/config.toml:10: hooks: hook "prompt-style" timeout must be non-negative\n',
    );
    const machine = json((await hookctl(['hooks', 'update', 'prompt-style', '--timeout', '-5s', '--json'])).stdout)
      .error as { diagnostics: unknown[] };
    expect(machine.diagnostics).toEqual([
      expect.objectContaining({ code: 'negative_timeout', severity: 'error', hook: 'prompt-style' }),
    ]);
  });

  it('--scope global changes $COMPOZY_HOME/config.toml', async () => {
    const result = await hookctl(['hooks', 'disable', 'session-audit', '--scope', 'global']);
    expect(result.stdout).toBe(`disabled hook "session-audit" in home/.compozy/config.toml\n`);
    expect(readFileSync(join(root, 'home/.compozy/config.toml'), 'utf8')).toContain(
      'mode = "async"\nenabled = false\ntimeout = "2s"',
    );
  });

  it('enable/disable of a cosh hook keep its name in states/hooks.json, and fire skips it', async () => {
    const payload = join(root, 'payloads/cosh-rm.json');
    expect((await hookctl(['hooks', 'fire', 'PreToolUse', '--payload', payload])).code).toBe(1);
    const off = await hookctl(['hooks', 'disable', 'security-check']);
    expect(off.stdout).toBe('disabled cosh hook "security-check" in home/.copilot-shell/states/hooks.json\n');
    const fired = json((await hookctl(['hooks', 'fire', 'PreToolUse', '--payload', payload, '-o', 'json'])).stdout);
    expect((fired.runs as { hook_name: string }[]).map((r) => r.hook_name)).not.toContain('security-check');
    const on = await hookctl(['hooks', 'enable', 'security-check', '--json']);
    expect(json(on.stdout)).toMatchObject({
      scope: null,
      changed: true,
      targets: [{ dialect: 'cosh', changed: true }],
    });
    expect((await hookctl(['hooks', 'fire', 'PreToolUse', '--payload', payload])).code).toBe(1);
  });
});

describe('symbolic links', () => {
  it('disable of a cosh hook writes through a linked states/hooks.json: the link stays, its target changes', async () => {
    const states = join(root, 'home/.copilot-shell/states');
    const linked = join(states, 'hooks.json');
    const dotfiles = join(root, 'dotfiles');
    mkdirSync(dotfiles);
    mkdirSync(states, { recursive: true });
    const real = join(dotfiles, 'cosh-hooks.json');
    writeFileSync(real, '{\n  "disabled": [],\n  "kept": true\n}\n');
    symlinkSync(real, linked);
    const off = await hookctl(['hooks', 'disable', 'security-check']);
    expect({ code: off.code, stderr: off.stderr }).toEqual({ code: 0, stderr: '' });
    expect(lstatSync(linked).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, 'utf8'))).toEqual({ disabled: ['security-check'], kept: true });
    expect(readdirSync(states).sort()).toEqual(['hooks.json']);
    const on = await hookctl(['hooks', 'enable', 'security-check']);
    expect(on.code).toBe(0);
    expect(lstatSync(linked).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, 'utf8')).disabled).not.toContain('security-check');
  });
});

describe('atomicity and concurrency', () => {
  it('a writer killed before its rename leaves the old file whole; the next writer recovers', async () => {
    const before = readFileSync(workspaceConfig, 'utf8');
    const killed = await hookctl(createAudit, { HOOKCTL_TEST_FAULT: 'kill-before-rename' });
    expect(killed.code).toBe(128);
    expect(readFileSync(workspaceConfig, 'utf8')).toBe(before);
    const folder = join(root, 'workspace/.compozy');
    const leftovers = readdirSync(folder).filter((n) => n !== 'config.toml' && n !== 'agents' && n !== 'skills');
    expect(leftovers.sort()).toEqual([
      expect.stringMatching(/^\.config\.toml\.\d+\.[0-9a-f]+\.tmp$/),
      'config.toml.lock',
    ]);
    // The half-done write is never read as config.
    expect((await hookctl(['hooks', 'validate'])).code).toBe(0);
    expect((await hookctl(['hooks', 'list', '-o', 'json'])).stdout).not.toContain('audit-writes');
    // The next writer breaks the dead writer's lock, removes its temporary file, and succeeds.
    const next = await hookctl(createAudit);
    expect(next.code).toBe(0);
    expect(readdirSync(folder).sort()).toEqual(['agents', 'config.toml', 'skills']);
    expect((await hookctl(['hooks', 'validate'])).code).toBe(0);
  });

  it('parallel creates on one file all land; none is lost', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `parallel-${i}`);
    const results = await Promise.all(
      names.map((name) =>
        hookctl(['hooks', 'create', name, '--event', 'session.post_create', '--command', '/bin/true'], {}),
      ),
    );
    for (const r of results) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const list = JSON.parse(
      (await hookctl(['hooks', 'list', '--event', 'session.post_create', '-o', 'json'])).stdout,
    ) as { name: string }[];
    expect(
      list
        .map((e) => e.name)
        .filter((n) => n.startsWith('parallel-'))
        .sort(),
    ).toEqual(names);
    expect((await hookctl(['hooks', 'validate'])).code).toBe(0);
    expect(existsSync(`${workspaceConfig}.lock`)).toBe(false);
  });
});
