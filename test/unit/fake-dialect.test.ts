// Issue 12's proof that a dialect is a plug-in: a fake dialect from the test folder
// (test/support/fake-dialect.ts) is registered, and `list`, `events`, `fire --dry-run` and
// `validate` work on it with no change outside the registry.
//
// In-process, through the real command classes of src/: the built CLI cannot load a dialect from
// the test folder without a way to load code named by the environment, which hookctl must not
// have (anyone who can set a variable could then run code in every hook dispatch). The commands
// read the registry when their module loads, so the dialect is registered before they are imported.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Config } from '@oclif/core/config';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerDialect } from '../../src/dialects/registry.js';
import { FAKE_FILE, fakeDialect } from '../support/fake-dialect.js';
import { tempDir } from '../support/temp.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface CommandClass {
  run(argv: string[], config: Config): Promise<unknown>;
}

let root: string;
let workspace: string;
let config: Config;
let unregister: () => void;
const ENV_KEYS = ['HOME', 'COMPOZY_HOME', 'COSH_HOME', 'COSH_SYSTEM_ROOT', 'NO_COLOR'] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
const commands: Record<string, CommandClass> = {};

beforeAll(async () => {
  root = tempDir('hookctl-fake-dialect-');
  workspace = join(root, 'workspace');
  mkdirSync(join(workspace, '.fake'), { recursive: true });
  writeFileSync(
    join(workspace, '.fake', FAKE_FILE),
    '[\n{"name": "guard", "event": "fake.before", "command": "/bin/true", "matcher": "door"},\n{"name": "log", "event": "fake.before", "command": "/bin/true"}\n]\n',
  );
  // Every other dialect reads an empty home.
  for (const key of ['HOME', 'COMPOZY_HOME', 'COSH_HOME']) process.env[key] = join(root, 'home');
  process.env.COSH_SYSTEM_ROOT = join(root, 'system');
  process.env.NO_COLOR = '1';
  unregister = registerDialect(fakeDialect);
  const [list, events, fire, validate] = await Promise.all([
    import('../../src/commands/hooks/list.js'),
    import('../../src/commands/hooks/events.js'),
    import('../../src/commands/hooks/fire.js'),
    import('../../src/commands/hooks/validate.js'),
  ]);
  Object.assign(commands, {
    list: list.default,
    events: events.default,
    fire: fire.default,
    validate: validate.default,
  });
  config = await Config.load(repoRoot);
});

afterAll(() => {
  unregister();
  for (const k of ENV_KEYS) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
});

afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

/** Runs one command class in this process; what it printed, and the exit code it set. */
async function run(name: string, argv: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  await commands[name]!.run(argv, config);
  vi.restoreAllMocks();
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { stdout, stderr, code };
}

describe('a dialect registered from the test folder', () => {
  it('hooks list shows its hooks, filtered by --dialect and --source', async () => {
    const all = await run('list', ['--workspace', workspace, '-o', 'json']);
    expect(all.code).toBe(0);
    const listed = JSON.parse(all.stdout) as { name: string; dialect: string; source: string; priority: unknown }[];
    expect(listed.map((d) => [d.name, d.dialect, d.source, d.priority])).toEqual([
      ['guard', 'fake', 'fake_file', null],
      ['log', 'fake', 'fake_file', null],
    ]);
    const one = await run('list', ['--workspace', workspace, '--dialect', 'fake', '--source', 'fake_file']);
    expect(one.stdout).toMatch(/^Order +Name +Event +Source/);
    expect(one.stdout).toContain('guard');
    expect((await run('list', ['--workspace', workspace, '--dialect', 'cosh', '-o', 'json'])).stdout).toBe('[]\n');
  });

  it('hooks events lists its events after the others, and shows one in detail', async () => {
    const rows = JSON.parse((await run('events', ['-o', 'json'])).stdout) as { event: string; dialect: string }[];
    expect(rows.slice(-2)).toEqual([
      expect.objectContaining({ event: 'fake.before', dialect: 'fake', deny: 'veto' }),
      expect.objectContaining({ event: 'fake.after', dialect: 'fake' }),
    ]);
    expect(rows.filter((r) => r.dialect !== 'fake').length).toBeGreaterThan(100);
    const only = JSON.parse((await run('events', ['--dialect', 'fake', '-o', 'json'])).stdout) as unknown[];
    expect(only).toHaveLength(2);
    const detail = await run('events', ['fake.before']);
    expect(detail.stdout).toContain('fake.before  (fake, family fake)');
    expect(detail.stdout).toContain('Matcher   target');
  });

  it('hooks fire --dry-run plans its event from its own sources only', async () => {
    const r = await run('fire', [
      'fake.before',
      '--dry-run',
      '--payload',
      writePayload({ target: 'door' }),
      '--workspace',
      workspace,
      '-o',
      'json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      event: 'fake.before',
      dialect: 'fake',
      plan: [
        {
          name: 'guard',
          source: 'fake_file',
          mode: 'sync',
          order: 1,
          matched: true,
          fields: [{ field: 'target', pattern: 'door', value: 'door', matched: true }],
          status: 'active',
        },
        { name: 'log', source: 'fake_file', mode: 'sync', order: 2, matched: true, fields: [], status: 'active' },
      ],
    });
    const human = await run('fire', [
      'fake.before',
      '--dry-run',
      '--payload',
      writePayload({ target: 'wall' }),
      '--workspace',
      workspace,
    ]);
    expect(human.stdout).toContain('target "door" vs "wall": no match');
    const wrong = await run('fire', [
      'fake.before',
      '--dialect',
      'cosh',
      '--dry-run',
      '--payload',
      writePayload({}),
      '--workspace',
      workspace,
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('unknown event "fake.before" for dialect "cosh"');
  });

  it('hooks validate checks its files, named or found', async () => {
    const bad = join(root, FAKE_FILE);
    writeFileSync(bad, '[\n{"name": "x", "event": "fake.nope", "command": "/bin/true"}\n]\n');
    const named = await run('validate', [bad, '-o', 'json']);
    expect(named.code).toBe(1);
    expect(JSON.parse(named.stdout).diagnostics).toEqual([
      expect.objectContaining({ code: 'invalid_event', line: 2, message: 'fake: unknown event "fake.nope"' }),
    ]);
    const found = await run('validate', ['--workspace', workspace, '-o', 'json']);
    expect(found.code).toBe(0);
    expect(JSON.parse(found.stdout).files).toContain(join(workspace, '.fake', FAKE_FILE));
  });
});

function writePayload(payload: object): string {
  const file = join(root, `payload-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(payload));
  return file;
}
