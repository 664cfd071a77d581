// The codex sources (codex.md §1, §2.3–§2.6): layers and their dispatch order, names and keys,
// project trust, plugins, managed hooks, gates and statuses, the trust view, and the shortcut
// taken when nothing of Codex exists.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OrderedDeclaration } from '../../src/declarations/model.js';
import { codexDialect } from '../../src/dialects/codex/index.js';
import { codexLocations } from '../../src/dialects/codex/locations.js';
import type { CodexHandlerInfo } from '../../src/dialects/codex/model.js';
import { activeVersion, compareVersions } from '../../src/dialects/codex/sources/plugins.js';
import { loadCodexSources } from '../../src/dialects/codex/sources/load.js';
import { nothingToRead } from '../../src/dialects/codex/sources/presence.js';
import { codexHooksJson, makeCodexTree, trustProject, type CodexTree } from '../support/codex-tree.js';

let t: CodexTree;
beforeEach(() => {
  t = makeCodexTree();
});

const load = (pluginDirs: string[] = []) => loadCodexSources(t.loc(pluginDirs), t.env);
const x = (d: OrderedDeclaration) => d.extra as unknown as CodexHandlerInfo;
const stop = (command: string) => codexHooksJson('Stop', { type: 'command', command });
const tomlStop = (command: string) =>
  `[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "${command}"\n`;

describe('codex layers and dispatch order (codex.md §1)', () => {
  it('managed, system, user, project root … workspace, hooks.json before config.toml, then plugins', async () => {
    t.write('etc-codex/requirements.toml', tomlStop('req'));
    t.write('etc-codex/hooks.json', stop('sys-json'));
    t.write('etc-codex/config.toml', tomlStop('sys-toml'));
    t.write('home/.codex/hooks.json', stop('user-json'));
    t.write('home/.codex/config.toml', trustProject(t.projectRoot) + tomlStop('user-toml'));
    t.write('proj/.codex/hooks.json', stop('root'));
    t.write('proj/ws/.codex/config.toml', tomlStop('ws'));
    t.write('plug/.codex-plugin/plugin.json', JSON.stringify({ name: 'flagged' }));
    t.write('plug/hooks/hooks.json', stop('plugin'));
    const cat = await load([join(t.base, 'plug')]);
    expect(cat.declarations.map((d) => [d.order, d.name, d.command, d.source])).toEqual([
      [1, 'managed/requirements.toml:Stop:1.1', 'req', 'codex_managed'],
      [2, 'system/hooks.json:Stop:1.1', 'sys-json', 'codex_system'],
      [3, 'system/config.toml:Stop:1.1', 'sys-toml', 'codex_system'],
      [4, 'user/hooks.json:Stop:1.1', 'user-json', 'codex_user'],
      [5, 'user/config.toml:Stop:1.1', 'user-toml', 'codex_user'],
      [6, 'project/.codex/hooks.json:Stop:1.1', 'root', 'codex_project'],
      [7, 'project/ws/.codex/config.toml:Stop:1.1', 'ws', 'codex_project'],
      [8, 'plugin/flagged/hooks/hooks.json:Stop:1.1', 'plugin', 'codex_plugin'],
    ]);
    expect(cat.declarations.map((d) => x(d).trust)).toEqual([
      'managed',
      'managed',
      'managed',
      'untrusted',
      'untrusted',
      'untrusted',
      'untrusted',
      'untrusted',
    ]);
  });

  it('events go in catalog order within a file, groups and handlers as written; order counts per event', async () => {
    t.write(
      'home/.codex/hooks.json',
      JSON.stringify({
        hooks: {
          Stop: [{ hooks: [{ type: 'command', command: 's' }] }],
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'command', command: 'a' },
                { type: 'command', command: 'b' },
              ],
            },
            { hooks: [{ type: 'command', command: 'c' }] },
          ],
        },
      }),
    );
    const cat = await load();
    expect(cat.declarations.map((d) => [d.name, d.order])).toEqual([
      ['user/hooks.json:PreToolUse:1.1', 1],
      ['user/hooks.json:PreToolUse:1.2', 2],
      ['user/hooks.json:PreToolUse:2.1', 3],
      ['user/hooks.json:Stop:1.1', 1],
    ]);
    const file = join(t.codexHome, 'hooks.json');
    expect(cat.declarations.map((d) => x(d).key)).toEqual([
      `${file}:pre_tool_use:0:0`,
      `${file}:pre_tool_use:0:1`,
      `${file}:pre_tool_use:1:0`,
      `${file}:stop:0:0`,
    ]);
    expect(cat.declarations[0]).toMatchObject({ matcher: { tool_name: 'Bash' }, cwd: t.workspace, priority: null });
    expect(cat.declarations[2]!.matcher).toEqual({});
  });

  it('positions count skipped handlers too', async () => {
    t.write(
      'home/.codex/hooks.json',
      JSON.stringify({
        hooks: {
          Stop: [
            {
              hooks: [
                { type: 'prompt', prompt: 'p' },
                { type: 'command', command: 'b' },
              ],
            },
          ],
        },
      }),
    );
    const [skipped, ok] = (await load()).declarations;
    expect(skipped).toMatchObject({ status: 'invalid', order: null });
    expect(ok).toMatchObject({ name: 'user/hooks.json:Stop:1.2', order: 1 });
    expect(x(ok!).key.endsWith(':stop:0:1')).toBe(true);
  });

  it('a symlinked CODEX_HOME keys by its real path, as Codex canonicalizes it', async () => {
    t.write('real-home/hooks.json', stop('x'));
    symlinkSync(join(t.base, 'real-home'), join(t.base, 'linked-home'));
    const env = { ...t.env, CODEX_HOME: join(t.base, 'linked-home') };
    const [d] = (await loadCodexSources(t.loc(), env)).declarations;
    expect(x(d!).key).toBe(`${join(t.base, 'real-home', 'hooks.json')}:stop:0:0`);
    expect(d!.location.file).toBe(join(t.base, 'linked-home', 'hooks.json'));
  });

  it('a .codex that is $CODEX_HOME is not a project layer', async () => {
    const env = { ...t.env, CODEX_HOME: join(t.projectRoot, '.codex') };
    t.write('proj/.codex/hooks.json', stop('home'));
    const cat = await loadCodexSources(t.loc(), env);
    expect(cat.declarations.map((d) => [d.name, d.source])).toEqual([['user/hooks.json:Stop:1.1', 'codex_user']]);
  });

  it('without .git the workspace alone is the project', async () => {
    const t2 = makeCodexTree({ git: false });
    t2.write('proj/.codex/hooks.json', stop('above'));
    t2.write('proj/ws/.codex/hooks.json', stop('here'));
    t2.write('home/.codex/config.toml', trustProject(t2.workspace));
    const cat = await loadCodexSources(t2.loc(), t2.env);
    expect(cat.declarations.map((d) => d.name)).toEqual(['project/.codex/hooks.json:Stop:1.1']);
    expect(cat.context.projectRoot).toBe(t2.workspace);
  });
});

describe('codex project trust (codex.md §1)', () => {
  const why = (root: string) =>
    `project "${root}" is not trusted (projects."${root}".trust_level in ${join(t.codexHome, 'config.toml')})`;

  it('no entry: every project layer is blocked, naming the project root', async () => {
    t.write('proj/.codex/hooks.json', stop('a'));
    t.write('proj/ws/.codex/hooks.json', stop('b'));
    const cat = await load();
    expect(cat.declarations.map((d) => [d.status, d.why, d.order])).toEqual([
      ['blocked', why(t.projectRoot), null],
      ['blocked', why(t.projectRoot), null],
    ]);
  });

  it('an entry for the root covers every layer; a deeper "untrusted" entry blocks only its own', async () => {
    t.write('proj/.codex/hooks.json', stop('a'));
    t.write('proj/ws/.codex/hooks.json', stop('b'));
    t.write(
      'home/.codex/config.toml',
      `${trustProject(t.projectRoot)}[projects."${t.workspace}"]\ntrust_level = "untrusted"\n`,
    );
    const cat = await load();
    expect(cat.declarations.map((d) => [d.status, d.why ?? null])).toEqual([
      // active, and not trusted yet: its why says Codex skips it (list --all, info)
      [
        'active',
        expect.stringMatching(/^hook is not trusted; Codex skips it until it is trusted \(current hash sha256:/),
      ],
      ['blocked', why(t.workspace)],
    ]);
  });

  it('a deeper trusted entry covers only its folder', async () => {
    t.write('proj/.codex/hooks.json', stop('a'));
    t.write('proj/ws/.codex/hooks.json', stop('b'));
    t.write('home/.codex/config.toml', trustProject(t.workspace));
    expect((await load()).declarations.map((d) => d.status)).toEqual(['blocked', 'active']);
  });

  it('a path matches by its real path too', async () => {
    const link = join(t.base, 'link');
    symlinkSync(t.projectRoot, link);
    t.write('proj/.codex/hooks.json', stop('a'));
    t.write('home/.codex/config.toml', trustProject(link));
    expect((await load()).declarations.map((d) => d.status)).toEqual(['active']);
  });
});

describe('codex plugins (codex.md §1)', () => {
  const install = (market: string, name: string, version: string, manifest: object = { name }) => {
    const root = `home/.codex/plugins/cache/${market}/${name}/${version}`;
    t.write(`${root}/.codex-plugin/plugin.json`, JSON.stringify(manifest));
    return root;
  };

  it('versions: local wins, else the highest semver, text order otherwise', () => {
    expect(activeVersion(['1.2.0', 'local', '9.0.0'])).toBe('local');
    expect(activeVersion(['1.10.0', '1.9.0', '1.10.0-beta'])).toBe('1.10.0');
    expect(activeVersion(['abc', 'abd'])).toBe('abd');
    expect(compareVersions('1.0.0-alpha', '1.0.0')).toBeLessThan(0);
  });

  it('an installed plugin: enabled from the user config, id order, env, data dir, ${PLUGIN_ROOT} replaced after hashing', async () => {
    const zroot = install('m', 'z', '1.0.0');
    t.write(`${zroot}/hooks/hooks.json`, stop('z'));
    const old = install('m', 'a', '1.0.0');
    t.write(`${old}/hooks/hooks.json`, stop('old'));
    const root = install('m', 'a', '2.0.0');
    t.write(`${root}/hooks/hooks.json`, stop('${PLUGIN_ROOT}/run.sh ${CLAUDE_PLUGIN_DATA}'));
    t.write('home/.codex/config.toml', '[plugins."a@m"]\nenabled = true\n');
    const cat = await load();
    const [a, z] = cat.declarations;
    const abs = join(t.base, root);
    const data = join(t.codexHome, 'plugins', 'data', 'a-m');
    expect(a).toMatchObject({
      name: 'plugin/a@m/hooks/hooks.json:Stop:1.1',
      status: 'active',
      command: `${abs}/run.sh ${data}`,
      env: { PLUGIN_ROOT: abs, CLAUDE_PLUGIN_ROOT: abs, PLUGIN_DATA: data, CLAUDE_PLUGIN_DATA: data },
    });
    expect(x(a!)).toMatchObject({
      key: 'a@m:hooks/hooks.json:stop:0:0',
      plugin: { id: 'a@m', root: abs, dataDir: data },
    });
    expect(x(a!).hash_input).toContain('"command":"${PLUGIN_ROOT}/run.sh ${CLAUDE_PLUGIN_DATA}"');
    expect(z).toMatchObject({ status: 'disabled', why: 'plugin "z@m" is not enabled', enabled: false });
  });

  it('a plugin that is not enabled reports nothing of its broken files; its hooks are disabled', async () => {
    const root = install('m', 'off', '1.0.0');
    t.write(`${root}/hooks/hooks.json`, codexHooksJson('Stop', { type: 'command', command: ' ' }));
    const cat = await load();
    expect(cat.diagnostics).toEqual([]);
    expect(cat.declarations[0]).toMatchObject({ status: 'disabled', why: 'plugin "off@m" is not enabled' });
  });

  it('manifest hooks: paths and inline objects in manifest order; a blank name is the folder name', async () => {
    t.write(
      'my plug/.codex-plugin/plugin.json',
      JSON.stringify({
        name: ' ',
        hooks: ['./extra/h.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'inline' }] }] } }],
      }),
    );
    t.write('my plug/extra/h.json', stop('file'));
    t.write('my plug/hooks/hooks.json', stop('default is not read'));
    const cat = await load([join(t.base, 'my plug')]);
    expect(cat.declarations.map((d) => [d.name, x(d).key, d.location.file])).toEqual([
      ['plugin/my plug/extra/h.json:Stop:1.1', 'my plug:extra/h.json:stop:0:0', join(t.base, 'my plug/extra/h.json')],
      [
        'plugin/my plug/plugin.json#hooks[0]:Stop:1.1',
        'my plug:plugin.json#hooks[0]:stop:0:0',
        join(t.base, 'my plug/.codex-plugin/plugin.json'),
      ],
    ]);
    expect(x(cat.declarations[0]!).plugin!.dataDir).toBe(join(t.codexHome, 'plugins', 'data', 'my-plug'));
  });

  it('a missing --plugin-dir is a usage error', async () => {
    await expect(load([join(t.base, 'nowhere')])).rejects.toMatchObject({ exit: 2, code: 'usage_error' });
  });
});

describe('codex managed hooks, gates and statuses (codex.md §2.3)', () => {
  it('requirements.toml: key source is an absolute managed_dir; managed hooks ignore enabled = false', async () => {
    t.write('etc-codex/requirements.toml', `[hooks]\nmanaged_dir = "/opt/hooks"\n${tomlStop('req')}`);
    t.write('home/.codex/config.toml', '[hooks.state."/opt/hooks:stop:0:0"]\nenabled = false\n');
    const [d] = (await load()).declarations;
    expect(d).toMatchObject({ status: 'active', source: 'codex_managed' });
    expect(x(d!)).toMatchObject({ key: '/opt/hooks:stop:0:0', trust: 'managed', trusted_hash: null });
  });

  it('a relative managed_dir keys by the requirements file', async () => {
    const req = t.write('etc-codex/requirements.toml', `[hooks]\nmanaged_dir = "rel"\n${tomlStop('req')}`);
    expect(x((await load()).declarations[0]!).key).toBe(`${req}:stop:0:0`);
  });

  it('allow_managed_hooks_only blocks every non-managed hook', async () => {
    const req = t.write('etc-codex/requirements.toml', `allow_managed_hooks_only = true\n${tomlStop('req')}`);
    t.write('home/.codex/hooks.json', stop('user'));
    expect((await load()).declarations.map((d) => [d.status, d.why ?? null])).toEqual([
      ['active', null],
      ['blocked', `allow_managed_hooks_only is true in ${req}`],
    ]);
  });

  it('[features] hooks = false in requirements.toml wins over a later true', async () => {
    const req = t.write('etc-codex/requirements.toml', '[features]\nhooks = false\n');
    t.write('home/.codex/config.toml', '[features]\nhooks = true\n');
    t.write('home/.codex/hooks.json', stop('user'));
    expect((await load()).declarations[0]!.why).toBe(`hooks are turned off: [features] hooks = false in ${req}`);
  });

  it('the highest config layer decides; hooks beats codex_hooks in one file', async () => {
    t.write('etc-codex/config.toml', '[features]\nhooks = false\n');
    t.write('home/.codex/config.toml', '[features]\nhooks = true\ncodex_hooks = false\n');
    t.write('home/.codex/hooks.json', stop('user'));
    expect((await load()).declarations[0]!.status).toBe('active');
  });

  it('hooks.state enabled = false disables a non-managed hook; trusted_hash decides the trust', async () => {
    const file = t.write('home/.codex/hooks.json', stop('user'));
    const first = x((await load()).declarations[0]!);
    t.write(
      'home/.codex/config.toml',
      `[hooks.state."${file}:stop:0:0"]\nenabled = false\ntrusted_hash = "${first.current_hash}"\n`,
    );
    const [d] = (await load()).declarations;
    expect(d).toMatchObject({
      status: 'disabled',
      why: `disabled by hooks.state."${file}:stop:0:0" in ${join(t.codexHome, 'config.toml')}`,
    });
    expect(x(d!)).toMatchObject({ trust: 'trusted', trusted_hash: first.current_hash });
  });

  it('[hooks.state] of a project config.toml is ignored', async () => {
    const file = t.write('proj/.codex/hooks.json', stop('p'));
    t.write('home/.codex/config.toml', trustProject(t.projectRoot));
    t.write('proj/.codex/config.toml', `[hooks.state."${file}:stop:0:0"]\nenabled = false\ntrusted_hash = "x"\n`);
    const [d] = (await load()).declarations;
    expect(d!.status).toBe('active');
    expect(x(d!).trust).toBe('untrusted');
  });

  it('the extra carries what dispatch needs', async () => {
    t.write(
      'home/.codex/hooks.json',
      codexHooksJson(
        'PostToolUse',
        { type: 'command', command: 'x', async: true, statusMessage: 'm', additionalContextLimit: 9 },
        'Edit',
      ),
    );
    const [d] = (await load()).declarations;
    expect(d).toMatchObject({ mode: 'async', timeout_ms: 600000, executor_kind: 'command' });
    expect(x(d!)).toMatchObject({
      origin: 'user/hooks.json',
      file_kind: 'hooks_json',
      handler_type: 'command',
      group_matcher: 'Edit',
      group_index: 0,
      handler_index: 0,
      timeout_s: 600,
      async: true,
      status_message: 'm',
      context_limit: 9,
      runnable: true,
      label: 'x',
    });
    const mcp = codexHooksJson('PreToolUse', { type: 'mcp_tool', server: 's', tool: 't' });
    t.write('home/.codex/hooks.json', mcp);
    expect(x((await load()).declarations[0]!)).toMatchObject({
      runnable: false,
      unrunnable_why: 'mcp_tool hooks run only inside Codex',
      label: 's/t',
    });
  });
});

describe('codex: an active hook that will not run says why (never silent)', () => {
  it('untrusted, modified, an mcp_tool handler; a trusted or managed hook has no why', async () => {
    t.write('home/.codex/hooks.json', stop('guard'));
    const [fresh] = (await load()).declarations;
    expect(fresh).toMatchObject({
      status: 'active',
      why: `hook is not trusted; Codex skips it until it is trusted (current hash ${x(fresh!).current_hash})`,
    });
    const key = x(fresh!).key;
    t.write('home/.codex/config.toml', `[hooks.state."${key}"]\ntrusted_hash = "sha256:${'0'.repeat(64)}"\n`);
    expect((await load()).declarations[0]!.why).toBe(
      `hook changed since it was trusted; Codex skips it (trusted sha256:${'0'.repeat(64)}, current ${x(fresh!).current_hash})`,
    );
    t.write('home/.codex/config.toml', `[hooks.state."${key}"]\ntrusted_hash = "${x(fresh!).current_hash}"\n`);
    expect((await load()).declarations[0]!.why).toBeUndefined();
    t.write('etc-codex/hooks.json', codexHooksJson('PreToolUse', { type: 'mcp_tool', server: 's', tool: 't' }));
    const managed = (await load()).declarations.find((d) => d.source === 'codex_system')!;
    expect(managed.why).toBe('mcp_tool hooks run only inside Codex; hooks fire skips it');
  });
});

describe('codex: nothing to read', () => {
  const viaDialect = () => codexDialect.loadCatalog(t.loc() as never, t.env);

  it('with no Codex folder the dialect returns exactly what the loader returns', async () => {
    expect(nothingToRead(codexLocations(t.loc(), t.env))).toBe(true);
    expect(await viaDialect()).toEqual(await load());
  });

  it.each(['home/.codex', 'etc-codex', 'proj/.codex', 'proj/ws/.codex'])('an existing %s is read', (dir) => {
    mkdirSync(join(t.base, dir), { recursive: true });
    expect(nothingToRead(codexLocations(t.loc(), t.env))).toBe(false);
  });

  it('a --plugin-dir always goes to the loader', () => {
    expect(nothingToRead(codexLocations(t.loc(['/nowhere']), t.env))).toBe(false);
  });
});
