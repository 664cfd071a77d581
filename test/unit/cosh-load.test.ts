import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectCoshFileKind, loadCoshSources, validateCoshFile } from '../../src/dialects/cosh/load.js';
import type { Declaration } from '../../src/declarations/model.js';
import { repoRoot } from '../support/cli.js';
import { resolveLocations, type Locations } from '../../src/paths.js';

let root: string;
let loc: Locations;
let files: {
  system: string;
  user: string;
  workspace: string;
  userExt: string;
  localExt: string;
  shareExt: string;
  states: string;
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hookctl-cosh-load-'));
  loc = resolveLocations({
    packageRoot: repoRoot,
    workspace: join(root, 'ws'),
    env: { HOME: join(root, 'home'), COSH_HOME: join(root, 'cosh'), COSH_SYSTEM_ROOT: join(root, 'sys') },
  });
  files = {
    system: join(root, 'sys/etc/copilot-shell/config.toml'),
    user: join(root, 'cosh/config.toml'),
    workspace: join(root, 'ws/.copilot-shell/config.toml'),
    userExt: join(root, 'cosh/extensions'),
    localExt: join(root, 'sys/usr/local/share/anolisa/extensions'),
    shareExt: join(root, 'sys/usr/share/anolisa/extensions'),
    states: join(root, 'cosh/states/hooks.json'),
  };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string | Buffer): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
function hook(event: string, name: string, extra = ''): string {
  return `[[hooks.${event}]]\nname = "${name}"\ncommand = "echo ${name}"\n${extra}\n`;
}
function extension(dir: string, name: string, hooks: Record<string, unknown>): string {
  const file = join(dir, 'cosh-extension.json');
  write(file, JSON.stringify({ name, version: '1.0.0', hooks }, null, 2));
  return file;
}
function stopGroup(...names: string[]) {
  return [{ hooks: names.map((n) => ({ type: 'command', name: n, command: `echo ${n}` })) }];
}
const load = () => loadCoshSources(loc, {});
const summary = (ds: Declaration[]) => ds.map((d) => `${d.event}:${d.name}:${d.status}`);

describe('cosh config layers', () => {
  it('lets a higher layer that declares an event replace the lower lists for that event only', async () => {
    write(files.system, hook('PreToolUse', 'sys-pre') + hook('Stop', 'sys-stop'));
    write(files.user, hook('PreToolUse', 'user-pre-1') + hook('PreToolUse', 'user-pre-2'));
    write(files.workspace, hook('SessionStart', 'ws-start'));
    const r = await load();
    expect(r.diagnostics).toEqual([]);
    expect(summary(r.declarations)).toEqual([
      'PreToolUse:sys-pre:overridden',
      'Stop:sys-stop:active',
      'PreToolUse:user-pre-1:active',
      'PreToolUse:user-pre-2:active',
      'SessionStart:ws-start:active',
    ]);
    expect(r.declarations[0]!.why).toBe(`hooks.PreToolUse is replaced by ${files.user}`);
    expect(r.files).toEqual([files.system, files.user, files.workspace]);
  });

  it('lets an empty list in a higher layer clear an event', async () => {
    write(files.user, hook('Stop', 'user-stop'));
    write(files.workspace, '[hooks]\nStop = []\n');
    expect(summary((await load()).declarations)).toEqual(['Stop:user-stop:overridden']);
  });

  it('drops the config hooks of every layer when enabled = false, with a warning; extension hooks still run', async () => {
    write(files.system, hook('Stop', 'sys-stop'));
    write(files.user, '# user\n[hooks]\nenabled = false\n\n' + hook('PreToolUse', 'user-pre'));
    extension(join(files.userExt, 'ext'), 'ext', { Stop: stopGroup('ext-stop') });
    const r = await load();
    expect(summary(r.declarations)).toEqual([
      'Stop:sys-stop:disabled',
      'PreToolUse:user-pre:disabled',
      'Stop:ext-stop:active',
    ]);
    expect(r.declarations[0]).toMatchObject({ enabled: false, why: `[hooks] enabled = false in ${files.user}` });
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'hooks_disabled',
        file: files.user,
        line: 3,
        source: 'cosh_config',
      }),
    ]);
  });

  it('lets the highest layer that sets enabled win', async () => {
    write(files.system, '[hooks]\nenabled = false\n' + hook('Stop', 'a'));
    write(files.workspace, '[hooks]\nenabled = true\n');
    let r = await load();
    expect(summary(r.declarations)).toEqual(['Stop:a:active']);
    expect(r.diagnostics).toEqual([]);

    write(files.system, '[hooks]\nenabled = true\n' + hook('Stop', 'a'));
    write(files.user, '[hooks]\nenabled = false\n');
    write(files.workspace, '# sets nothing\n');
    r = await load();
    expect(summary(r.declarations)).toEqual(['Stop:a:disabled']);
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'hooks_disabled', file: files.user })]);
  });

  it('keeps a nameless hook as skipped with name null, and warns', async () => {
    write(files.user, '[[hooks.Stop]]\ncommand = "true"\n');
    const r = await load();
    expect(r.declarations).toEqual([
      expect.objectContaining({ name: null, status: 'skipped', why: 'hook has no name' }),
    ]);
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'nameless_hook', file: files.user, line: 1 })]);
  });

  it('builds the full declaration of a config hook', async () => {
    write(
      files.workspace,
      '\n[[hooks.PreToolUse]]\nname = "guard"\ncommand = "my-guard --strict"\ntimeout = 1500\nmatcher = "^shell$"\nenv = { POLICY = "strict" }\n',
    );
    const [d] = (await load()).declarations;
    expect(d).toEqual({
      dialect: 'cosh',
      name: 'guard',
      event: 'PreToolUse',
      source: 'cosh_config',
      mode: 'sync',
      required: false,
      priority: 0,
      timeout_ms: 1500,
      enabled: true,
      metadata: {},
      matcher: { tool_name: '^shell$' },
      executor_kind: 'subprocess',
      command: 'my-guard --strict',
      args: [],
      env: { POLICY: 'strict' },
      secret_env: {},
      cwd: loc.workspace,
      location: { file: files.workspace, line: 2 },
      status: 'active',
    });
  });

  it('reports a binary or broken layer as a diagnostic and keeps loading the others', async () => {
    write(files.system, Buffer.from([0x5b, 0x00, 0x01, 0x02]));
    write(files.user, '[[hooks.Stop]\n');
    write(files.workspace, hook('Stop', 'ok'));
    const r = await load();
    expect(r.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ['binary_file', files.system, 1],
      ['toml_parse_error', files.user, 1],
    ]);
    expect(summary(r.declarations)).toEqual(['Stop:ok:active']);
  });
});

describe('cosh extensions', () => {
  it('runs extension hooks after config hooks, extensions by name, then group and hook order', async () => {
    write(files.user, hook('Stop', 'config-stop'));
    extension(join(files.userExt, 'zeta-dir'), 'zeta', { Stop: stopGroup('z1', 'z2') });
    extension(join(files.shareExt, 'alpha-dir'), 'alpha', { Stop: [...stopGroup('a1'), ...stopGroup('a2')] });
    const r = await load();
    expect(summary(r.declarations)).toEqual([
      'Stop:config-stop:active',
      'Stop:a1:active',
      'Stop:a2:active',
      'Stop:z1:active',
      'Stop:z2:active',
    ]);
    expect(r.declarations[1]).toMatchObject({
      source: 'cosh_extension',
      extension: 'alpha',
      metadata: { extension: 'alpha', extension_version: '1.0.0' },
    });
  });

  it('lets a user extension override system ones of the same name, first found in user, /usr/local/share, /usr/share', async () => {
    const user = extension(join(files.userExt, 'sec'), 'sec', { Stop: stopGroup('user-hook') });
    extension(join(files.localExt, 'sec-local'), 'sec', { Stop: stopGroup('local-hook') });
    extension(join(files.shareExt, 'sec'), 'sec', { Stop: stopGroup('share-hook') });
    const local = extension(join(files.localExt, 'other'), 'other', { Stop: stopGroup('other-local') });
    extension(join(files.shareExt, 'other'), 'other', { Stop: stopGroup('other-share') });
    const r = await load();
    expect(summary(r.declarations)).toEqual([
      'Stop:other-local:active',
      'Stop:other-share:overridden',
      'Stop:user-hook:active',
      'Stop:local-hook:overridden',
      'Stop:share-hook:overridden',
    ]);
    expect(r.declarations[1]!.why).toBe(`extension "other" is overridden by ${local}`);
    expect(r.declarations[3]!.why).toBe(`extension "sec" is overridden by ${user}`);
  });

  it('follows symlinked extension folders and ignores folders without a manifest', async () => {
    const real = join(root, 'elsewhere/linked');
    extension(real, 'linked', { Stop: stopGroup('via-link') });
    mkdirSync(files.userExt, { recursive: true });
    symlinkSync(real, join(files.userExt, 'linked'));
    mkdirSync(join(files.userExt, 'empty-dir'));
    write(join(files.userExt, 'stray-file.json'), '{}');
    const r = await load();
    expect(summary(r.declarations)).toEqual(['Stop:via-link:active']);
    expect(r.files).toEqual([join(files.userExt, 'linked/cosh-extension.json')]);
  });

  it('contributes no hooks from an extension without a valid name', async () => {
    extension(join(files.userExt, 'bad'), 'Bad Name', { Stop: stopGroup('h') });
    const r = await load();
    expect(r.declarations).toEqual([]);
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'invalid_extension_name', line: 2 })]);
  });
});

describe('cosh states', () => {
  it('disables every cosh hook whose name $COSH_HOME/states/hooks.json lists', async () => {
    write(files.user, hook('Stop', 'noisy') + hook('Stop', 'kept'));
    extension(join(files.userExt, 'e'), 'e', { PreToolUse: stopGroup('noisy') });
    write(files.states, JSON.stringify({ disabled: ['noisy'] }));
    const r = await load();
    expect(summary(r.declarations)).toEqual(['Stop:noisy:disabled', 'Stop:kept:active', 'PreToolUse:noisy:disabled']);
    expect(r.declarations[0]).toMatchObject({ enabled: false, why: `disabled in ${files.states}` });
  });

  it('disables the hooks of an extension listed in states/extensions.json', async () => {
    extension(join(files.userExt, 'e'), 'e', { Stop: stopGroup('h') });
    write(join(root, 'cosh/states/extensions.json'), '{"disabled": ["e"]}');
    expect(summary((await load()).declarations)).toEqual(['Stop:h:disabled']);
  });

  it('warns about a broken states file and applies nothing from it', async () => {
    write(files.user, hook('Stop', 'h'));
    write(files.states, '{"disabled": "h"}');
    const r = await load();
    expect(summary(r.declarations)).toEqual(['Stop:h:active']);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'cosh_states_invalid', file: files.states }),
    ]);
  });
});

describe('hooks validate FILE', () => {
  const fixture = (p: string) => fileURLToPath(new URL(`../fixtures/cosh/${p}`, import.meta.url));

  it('tells cosh files from CompozyOS ones by name and content', () => {
    expect(detectCoshFileKind('/x/cosh-extension.json', '')).toBe('cosh_extension');
    expect(detectCoshFileKind('/x/ext.json', '{"name":"a","hooks":{"Stop":[]}}')).toBe('cosh_extension');
    expect(
      detectCoshFileKind('/x/extension.json', '{"extension":{"name":"a"},"resources":{"hooks":[]}}'),
    ).toBeUndefined();
    expect(detectCoshFileKind('/x/config.toml', '[[hooks.PreToolUse]]\nname = "a"\n')).toBe('cosh_config');
    expect(detectCoshFileKind('/x/config.toml', '[hooks]\nenabled = false\n')).toBe('cosh_config');
    expect(detectCoshFileKind('/x/config.toml', '[[hooks.Typo]]\n')).toBe('cosh_config');
    expect(
      detectCoshFileKind('/x/config.toml', '[[hooks.declarations]]\nname = "a"\nevent = "tool.pre_call"\n'),
    ).toBeUndefined();
    expect(detectCoshFileKind('/x/config.toml', '[model]\nname = "x"\n')).toBeUndefined();
  });

  it('validates a config file on its own', async () => {
    const r = await validateCoshFile(fixture('config/config.toml'), loc, {});
    expect(r.kind).toBe('cosh_config');
    // The example's scripts are not installed here: each hook that would fail says so (issue 28).
    expect(r.diagnostics.map((d) => [d.code, d.hook, d.line])).toEqual([
      ['command_not_found', 'security-check', 8],
      ['command_not_found', 'context-loader', 19],
    ]);
    expect(r.declarations.map((d) => d.name)).toEqual(['security-check', 'audit', 'context-loader']);
  });

  it('validates a manifest on its own', async () => {
    const r = await validateCoshFile(fixture('extensions/tokenless/cosh-extension.json'), loc, {});
    expect(r.kind).toBe('cosh_extension');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unknown_key']);
    expect(r.declarations.map((d) => d.name)).toEqual([
      'tokenless-tool-ready',
      'tokenless-rewrite',
      'tokenless-compress-schema',
    ]);
  });

  it('warns when the one file sets enabled = false', async () => {
    write(files.user, '[hooks]\nenabled = false\n' + hook('Stop', 'h'));
    const r = await validateCoshFile(files.user, loc, {});
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'hooks_disabled', line: 2 })]);
  });

  it('reports a missing file as a diagnostic', async () => {
    const r = await validateCoshFile(join(root, 'nope/config.toml'), loc, {});
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'file_not_found' })]);
  });
});
