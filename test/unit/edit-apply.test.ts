import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/app/catalog.js';
import { changeDeclaration, planTargets, type ChangeRequest, type OwnershipFacts } from '../../src/app/edit.js';
import { HookctlError } from '../../src/errors.js';
import type { Locations } from '../../src/paths.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let root: string;
let loc: Locations;
let workspaceConfig: string;
let globalConfig: string;
let statesFile: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hookctl-edit-apply-'));
  cpSync(join(ROOT, 'fixtures/demo'), root, { recursive: true });
  loc = {
    compozyHome: join(root, 'home/.compozy'),
    coshHome: join(root, 'home/.copilot-shell'),
    coshSystemRoot: join(root, 'system'),
    workspace: join(root, 'workspace'),
    additionalDirs: [join(root, 'extra')],
    bundledSkillsDir: join(root, 'no-bundled-skills'),
    pluginDirs: [],
    stateDir: join(root, 'state'),
  };
  workspaceConfig = join(loc.workspace, '.compozy/config.toml');
  globalConfig = join(loc.compozyHome, 'config.toml');
  statesFile = join(loc.coshHome, 'states/hooks.json');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (over: Partial<ChangeRequest> & Pick<ChangeRequest, 'action' | 'name'>) =>
  changeDeclaration({ scope: 'workspace', dryRun: false, loc, env: {}, ...over });

async function refusal(over: Partial<ChangeRequest> & Pick<ChangeRequest, 'action' | 'name'>): Promise<HookctlError> {
  const err = await run(over).catch((e: unknown) => e);
  if (!(err instanceof HookctlError)) throw new Error(`expected a refusal, got ${JSON.stringify(err)}`);
  return err;
}

const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => [join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), 'utf8')]),
  );

const gate = [
  { path: ['event'], value: 'tool.pre_call' },
  { path: ['mode'], value: 'sync' },
  { path: ['command'], value: '/usr/bin/env' },
  { path: ['args'], value: ['bash', '-c', 'printf "{}\\n"'] },
];

describe('create', () => {
  it('adds the declaration to the workspace config; the catalog lists it', async () => {
    const result = await run({ action: 'create', name: 'audit-writes', changes: gate });
    expect(result).toEqual({
      action: 'create',
      name: 'audit-writes',
      scope: 'workspace',
      file: workspaceConfig,
      changed: true,
      dry_run: false,
      targets: [{ dialect: 'compozy', file: workspaceConfig, changed: true }],
      warnings: [],
    });
    const catalog = await loadCatalog(loc, { dialect: 'compozy' });
    expect(catalog.declarations.find((d) => d.name === 'audit-writes')).toMatchObject({
      source: 'config',
      mode: 'sync',
      event: 'tool.pre_call',
      status: 'active',
    });
    expect(readdirSync(dirname(workspaceConfig)).filter((n) => n.startsWith('.') || n.endsWith('.lock'))).toEqual([]);
  });

  it('creates the file and its folder when they are missing', async () => {
    const workspace = join(root, 'fresh');
    const result = await changeDeclaration({
      action: 'create',
      name: 'x',
      changes: gate,
      scope: 'workspace',
      dryRun: false,
      env: {},
      loc: { ...loc, workspace },
    });
    expect(result.targets[0]).toMatchObject({ created: true, changed: true });
    expect(readFileSync(join(workspace, '.compozy/config.toml'), 'utf8')).toMatch(
      /^\[\[hooks\.declarations\]\]\nname = "x"\n/,
    );
  });

  it('may reuse, in the workspace, a name only the global file has: it overrides it', async () => {
    await run({
      action: 'create',
      name: 'session-audit',
      changes: [
        { path: ['event'], value: 'session.post_create' },
        { path: ['command'], value: '/bin/true' },
      ],
    });
    const audits = (await loadCatalog(loc, { dialect: 'compozy' })).declarations.filter(
      (d) => d.name === 'session-audit',
    );
    expect(new Map(audits.map((d) => [d.location.file, d.status]))).toEqual(
      new Map([
        [workspaceConfig, 'active'],
        [globalConfig, 'overridden'],
      ]),
    );
  });

  it('warns when a global declaration will be overridden by the workspace', async () => {
    const result = await run({ action: 'create', scope: 'global', name: 'block-secret-file-edits', changes: gate });
    expect(result.warnings).toEqual([
      expect.stringContaining('also declares hook "block-secret-file-edits": there it replaces this one'),
    ]);
  });

  it('refuses a name the target already has', async () => {
    expect(await refusal({ action: 'create', name: 'prompt-style', changes: gate })).toMatchObject({
      code: 'hook_already_exists',
      exit: 1,
      message: 'hook "prompt-style" already exists',
    });
  });
});

describe('immutability: hooks of other sources cannot change', () => {
  const others: [string, string][] = [
    ['workspace-context', 'extension'],
    ['add-review-context', 'agent_definition'],
    ['add-plan-context', 'agent_definition'],
    ['input-tidy', 'skill'],
    ['session-journal#1', 'skill'],
    ['paste-guard', 'skill'],
    ['tool-logger', 'skill'],
  ];
  it.each(others)('%s (%s): every command is refused as immutable', async (name, source) => {
    const before = snapshot(root);
    for (const action of ['create', 'update', 'delete', 'enable', 'disable'] as const) {
      for (const scope of ['workspace', 'global'] as const) {
        const changes =
          action === 'create' ? gate : action === 'update' ? [{ path: ['timeout'], value: '1s' }] : undefined;
        const err = await refusal({ action, name, scope, changes });
        expect(err.code).toBe('hook_source_immutable');
        expect(err.exit).toBe(1);
        expect(err.message).toBe(`hook "${name}" source "${source}" is immutable by tools`);
      }
    }
    expect(snapshot(root)).toEqual(before);
  });
});

describe('update, delete, enable, disable', () => {
  it('refuses a name the target lacks, and says where it is declared', async () => {
    const err = await refusal({
      action: 'update',
      name: 'session-audit',
      changes: [{ path: ['timeout'], value: '1s' }],
    });
    expect(err).toMatchObject({
      code: 'hook_not_found',
      exit: 1,
      message: expect.stringMatching(
        /^hook "session-audit" not found in target config overlay \(workspace config \S*config\.toml has no declaration of that name\)$/,
      ) as unknown as string,
    });
    expect(err.details).toEqual([expect.stringContaining('use --scope global')]);
    expect(await refusal({ action: 'delete', name: 'nowhere' })).toMatchObject({ code: 'hook_not_found', details: [] });
  });

  it('updates the global file with --scope global', async () => {
    await run({
      action: 'update',
      scope: 'global',
      name: 'session-audit',
      changes: [{ path: ['timeout'], value: '1s' }],
    });
    expect(readFileSync(globalConfig, 'utf8')).toContain('timeout = "1s"');
  });

  it('disable then enable: the catalog shows it disabled, then the file is as it was', async () => {
    const original = readFileSync(workspaceConfig, 'utf8');
    await run({ action: 'disable', name: 'block-secret-file-edits' });
    const d = (await loadCatalog(loc, { dialect: 'compozy' })).declarations.find(
      (x) => x.name === 'block-secret-file-edits',
    );
    expect(d).toMatchObject({ status: 'disabled', enabled: false });
    await run({ action: 'enable', name: 'block-secret-file-edits' });
    expect(readFileSync(workspaceConfig, 'utf8')).toBe(original);
  });

  it('create then delete gives back the original bytes', async () => {
    const original = readFileSync(workspaceConfig, 'utf8');
    await run({ action: 'create', name: 'temp', changes: gate });
    expect(readFileSync(workspaceConfig, 'utf8')).not.toBe(original);
    await run({ action: 'delete', name: 'temp' });
    expect(readFileSync(workspaceConfig, 'utf8')).toBe(original);
  });
});

describe('refusals leave the file untouched', () => {
  it('a change that does not validate: hook_validation_failed with the diagnostics', async () => {
    const before = snapshot(root);
    const err = await refusal({
      action: 'update',
      name: 'block-secret-file-edits',
      changes: [{ path: ['matcher', 'input_class'], value: 'user' }],
    });
    expect(err).toMatchObject({
      code: 'hook_validation_failed',
      exit: 1,
      message: 'hook declaration validation failed',
    });
    expect(err.details).toEqual([
      expect.stringContaining('hooks: matcher fields [input_class] are not valid for event "tool.pre_call"'),
    ]);
    expect(err.data).toEqual({
      diagnostics: [expect.objectContaining({ code: 'matcher_field_not_allowed', hook: 'block-secret-file-edits' })],
    });
    const asyncRequired = await refusal({
      action: 'create',
      name: 'y',
      changes: [...gate.slice(0, 1), { path: ['required'], value: true }, ...gate.slice(2)],
    });
    expect(asyncRequired.details).toEqual([
      expect.stringContaining('hooks: hook "y" cannot be required in async mode'),
    ]);
    expect(snapshot(root)).toEqual(before);
  });

  it('a secret-looking env name or value: hook_secret_input_forbidden', async () => {
    const before = snapshot(root);
    for (const env of [
      ['DEPLOY_TOKEN', 'x'],
      ['UPSTREAM', 'sk-ant-abcdefghijklmnopqrstuvwx'],
    ]) {
      const err = await refusal({
        action: 'update',
        name: 'prompt-style',
        changes: [{ path: ['env', env[0]!], value: env[1]! }],
      });
      expect(err).toMatchObject({
        code: 'hook_secret_input_forbidden',
        exit: 1,
        message: expect.stringMatching(
          /^hook executor env contains a forbidden secret-bearing input: env "[A-Z_a-z0-9]+" \(use --secret-env /,
        ) as unknown as string,
      });
    }
    expect(snapshot(root)).toEqual(before);
  });

  it('a target that already has errors blocks every change to it', async () => {
    const broken =
      readFileSync(workspaceConfig, 'utf8') +
      '\n[[hooks.declarations]]\nname = "typo"\nevent = "tool.pre_cal"\ncommand = "x"\n';
    writeFileSync(workspaceConfig, broken);
    for (const over of [
      { action: 'create' as const, name: 'new', changes: gate },
      { action: 'update' as const, name: 'prompt-style', changes: [{ path: ['timeout'], value: '1s' }] },
      { action: 'delete' as const, name: 'typo' },
      { action: 'disable' as const, name: 'prompt-style' },
    ]) {
      const err = await refusal(over);
      expect(err.code).toBe('hook_config_invalid');
      expect(err.details).toEqual([expect.stringContaining('hooks: invalid hook event "tool.pre_cal"')]);
    }
    expect(readFileSync(workspaceConfig, 'utf8')).toBe(broken);
  });
});

describe('--dry-run', () => {
  it('returns the diff and writes nothing', async () => {
    const before = snapshot(root);
    const result = await run({
      action: 'update',
      name: 'block-secret-file-edits',
      dryRun: true,
      changes: [{ path: ['timeout'], value: '9s' }],
    });
    expect(result.changed).toBe(true);
    expect(result.diff).toContain('-timeout = "3s"\n+timeout = "9s"\n');
    expect(result.diff).toMatch(/^--- .*workspace\/\.compozy\/config\.toml\n\+\+\+ /);
    expect(snapshot(root)).toEqual(before);
  });

  it('diffs a file that does not exist yet against /dev/null', async () => {
    const result = await changeDeclaration({
      action: 'create',
      name: 'x',
      changes: gate,
      scope: 'workspace',
      dryRun: true,
      env: {},
      loc: { ...loc, workspace: join(root, 'fresh') },
    });
    expect(result.diff).toMatch(/^--- \/dev\/null\n/);
    expect(existsSync(join(root, 'fresh'))).toBe(false);
  });
});

describe('files on disk', () => {
  it('a file system error while writing is one clear refusal: hook_write_failed', async () => {
    const workspace = join(root, 'not-a-folder');
    writeFileSync(workspace, 'a file where the workspace folder should be');
    const err = await changeDeclaration({
      action: 'create',
      name: 'x',
      changes: gate,
      scope: 'workspace',
      dryRun: false,
      env: {},
      loc: { ...loc, workspace },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HookctlError);
    expect(err).toMatchObject({ code: 'hook_write_failed', exit: 1 });
    expect((err as Error).message).toMatch(/^cannot write .*not-a-folder\/\.compozy\/config\.toml: E[A-Z]+ /);
  });

  it('keeps a symbolic link a link and changes the file it points to', async () => {
    const real = join(root, 'dotfiles/config.toml');
    mkdirSync(dirname(real), { recursive: true });
    renameSync(workspaceConfig, real);
    symlinkSync(real, workspaceConfig);
    await run({ action: 'disable', name: 'prompt-style' });
    expect(lstatSync(workspaceConfig).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toContain('enabled = false');
  });

  it('stray temporary files of a crashed writer are never read, and the next writer removes them', async () => {
    const stray = join(dirname(workspaceConfig), '.config.toml.999999999.deadbeef.tmp');
    writeFileSync(stray, '[[hooks.declarations]]\nname = "half-writ');
    const catalog = await loadCatalog(loc, { dialect: 'compozy' });
    expect(catalog.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(catalog.files).not.toContain(stray);
    await run({ action: 'disable', name: 'prompt-style' });
    expect(existsSync(stray)).toBe(false);
  });
});

describe('cosh hooks', () => {
  it('disable and enable keep the name in $COSH_HOME/states/hooks.json; the catalog shows it disabled', async () => {
    const result = await run({ action: 'disable', name: 'security-check' });
    expect(result).toMatchObject({
      scope: null,
      file: statesFile,
      changed: true,
      targets: [{ dialect: 'cosh', file: statesFile, changed: true }],
    });
    expect(JSON.parse(readFileSync(statesFile, 'utf8'))).toEqual({ disabled: ['security-check'] });
    const d = (await loadCatalog(loc, { dialect: 'cosh' })).declarations.find((x) => x.name === 'security-check');
    expect(d?.status).toBe('disabled');
    expect((await run({ action: 'disable', name: 'security-check' })).changed).toBe(false);
    await run({ action: 'enable', name: 'security-check' });
    expect(JSON.parse(readFileSync(statesFile, 'utf8'))).toEqual({ disabled: [] });
  });

  it('a name both dialects know changes in both', async () => {
    await run({ action: 'create', name: 'security-check', changes: gate });
    const result = await run({ action: 'disable', name: 'security-check' });
    expect(result.targets.map((t) => [t.dialect, t.changed])).toEqual([
      ['compozy', true],
      ['cosh', true],
    ]);
    expect(result.scope).toBe('workspace');
  });

  it('enable takes a name off the states file even when no cosh hook has it any more', async () => {
    mkdirSync(dirname(statesFile), { recursive: true });
    writeFileSync(statesFile, JSON.stringify({ disabled: ['gone'], other: 1 }));
    await run({ action: 'enable', name: 'gone' });
    expect(JSON.parse(readFileSync(statesFile, 'utf8'))).toEqual({ disabled: [], other: 1 });
  });

  it('--dry-run shows the states diff and writes nothing', async () => {
    const result = await run({ action: 'disable', name: 'context-loader', dryRun: true });
    expect(result.diff).toContain('+    "context-loader"');
    expect(existsSync(statesFile)).toBe(false);
  });

  it('update and delete refuse a name only a cosh hook has: it is immutable, not missing', async () => {
    for (const action of ['update', 'delete'] as const) {
      const err = await refusal({ action, name: 'security-check', changes: action === 'update' ? gate : undefined });
      expect(err).toMatchObject({ code: 'hook_source_immutable', exit: 1 });
      expect(err.message).toMatch(/^hook "security-check" source "cosh_[a-z]+" is immutable by tools$/);
    }
    // create is about compozy names only: the cosh hook does not stand in its way.
    expect((await run({ action: 'create', name: 'security-check', changes: gate })).changed).toBe(true);
    expect(await refusal({ action: 'delete', name: 'no-such-hook' })).toMatchObject({ code: 'hook_not_found' });
  });
});

describe('planTargets (the ownership rules)', () => {
  const base: OwnershipFacts = {
    scope: 'workspace',
    otherFile: 'home/config.toml',
    inTarget: false,
    inOther: false,
    cosh: false,
  };
  const plan = (action: Parameters<typeof planTargets>[0], facts: Partial<OwnershipFacts>) => {
    try {
      const p = planTargets(action, 'x', { ...base, ...facts });
      return [p.compozy ? 'compozy' : '', p.cosh ? 'cosh' : ''].filter(Boolean).join('+');
    } catch (err) {
      return (err as HookctlError).code;
    }
  };

  it.each<[Parameters<typeof planTargets>[0], Partial<OwnershipFacts>, string]>([
    ['create', {}, 'compozy'],
    ['create', { foreignSource: 'skill' }, 'hook_source_immutable'],
    ['create', { foreignSource: 'skill', inOther: true }, 'compozy'],
    ['create', { foreignSource: 'skill', inTarget: true }, 'compozy'],
    ['update', {}, 'hook_not_found'],
    ['update', { inTarget: true, foreignSource: 'extension' }, 'compozy'],
    ['update', { foreignSource: 'extension' }, 'hook_source_immutable'],
    ['update', { foreignSource: 'extension', inOther: true }, 'hook_not_found'],
    ['delete', { cosh: true }, 'hook_not_found'],
    ['delete', { otherDialectSource: 'cosh_config' }, 'hook_source_immutable'],
    ['update', { otherDialectSource: 'cosh_extension' }, 'hook_source_immutable'],
    ['update', { otherDialectSource: 'cosh_config', inTarget: true }, 'compozy'],
    ['delete', { otherDialectSource: 'cosh_config', inOther: true }, 'hook_not_found'],
    ['disable', { cosh: true }, 'cosh'],
    ['disable', { cosh: true, inTarget: true }, 'compozy+cosh'],
    ['enable', { cosh: true, foreignSource: 'agent_definition' }, 'cosh'],
    ['enable', { foreignSource: 'agent_definition' }, 'hook_source_immutable'],
  ])('%s with %j → %s', (action, facts, expected) => {
    expect(plan(action, facts)).toBe(expected);
  });
  it('a name found nowhere gets the closest known names; one in the other file gets --scope instead', () => {
    const message = (facts: Partial<OwnershipFacts>) => {
      try {
        planTargets('update', 'prompt-styl', { ...base, ...facts });
      } catch (err) {
        return (err as HookctlError).message;
      }
    };
    expect(message({ known: ['prompt-style', 'security-check'] })).toBe(
      'hook "prompt-styl" not found in target config overlay; did you mean "prompt-style"?',
    );
    expect(message({ known: ['security-check'] })).toBe('hook "prompt-styl" not found in target config overlay');
    expect(message({ known: ['prompt-style'], inOther: true })).toBe(
      'hook "prompt-styl" not found in target config overlay',
    );
  });
});
