// Audit of codex.md §1–§3 against the loader: the rules the first tests left unchecked. A `.git`
// file as the project marker, plugin order across --plugin-dir and installed copies, plugin
// enablement read from the user config only, manifest `hooks` shapes and their fallback, managed
// system hooks under allow_managed_hooks_only and enabled = false, which §2.3 gate wins when
// several apply, the §2.1 defaults, requirements.toml rejections, and the `hooks events` rows.
import { existsSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OrderedDeclaration } from '../../src/declarations/model.js';
import { codexCatalogEvents, codexEvent } from '../../src/dialects/codex/catalog.js';
import { selectCodexHandlers } from '../../src/dialects/codex/dispatch/select.js';
import { codexEventRows } from '../../src/dialects/codex/events.js';
import type { CodexHandlerInfo } from '../../src/dialects/codex/model.js';
import { loadCodexSources } from '../../src/dialects/codex/sources/load.js';
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
const statuses = (ds: OrderedDeclaration[]) => ds.map((d) => [d.command, d.status, d.why ?? null]);

describe('codex.md §1: where things are', () => {
  it('a .git file (not only a folder) marks the project root', async () => {
    const t2 = makeCodexTree({ git: false });
    writeFileSync(join(t2.projectRoot, '.git'), 'gitdir: /elsewhere/.git/worktrees/x\n');
    t2.write('proj/.codex/hooks.json', stop('root'));
    t2.write('home/.codex/config.toml', trustProject(t2.projectRoot));
    const cat = await loadCodexSources(t2.loc(), t2.env);
    expect(cat.context.projectRoot).toBe(t2.projectRoot);
    expect(cat.declarations.map((d) => [d.name, d.status])).toEqual([['project/.codex/hooks.json:Stop:1.1', 'active']]);
  });

  it('a .codex linked to $CODEX_HOME (or linked from it) is not a project layer', async () => {
    t.write('home/.codex/hooks.json', stop('home'));
    symlinkSync(t.codexHome, join(t.projectRoot, '.codex'));
    const cat = await load();
    expect(cat.declarations.map((d) => [d.name, d.source])).toEqual([['user/hooks.json:Stop:1.1', 'codex_user']]);
    const t2 = makeCodexTree();
    t2.write('proj/.codex/hooks.json', stop('real'));
    symlinkSync(join(t2.projectRoot, '.codex'), join(t2.base, 'linked-home'));
    const env = { ...t2.env, CODEX_HOME: join(t2.base, 'linked-home') };
    const cat2 = await loadCodexSources(t2.loc(), env);
    expect(cat2.declarations.map((d) => [d.name, d.source])).toEqual([['user/hooks.json:Stop:1.1', 'codex_user']]);
  });

  it('plugins: --plugin-dir in flag order, then installed copies in id order', async () => {
    for (const [dir, name] of [
      ['p2', 'second'],
      ['p1', 'first'],
    ] as const) {
      t.write(`${dir}/.codex-plugin/plugin.json`, JSON.stringify({ name }));
      t.write(`${dir}/hooks/hooks.json`, stop(name));
    }
    for (const id of ['b', 'a']) {
      const root = `home/.codex/plugins/cache/m/${id}/1.0.0`;
      t.write(`${root}/.codex-plugin/plugin.json`, JSON.stringify({ name: id }));
      t.write(`${root}/hooks/hooks.json`, stop(`installed ${id}`));
    }
    t.write('home/.codex/config.toml', '[plugins."b@m"]\nenabled = true\n[plugins."a@m"]\nenabled = true\n');
    const cat = await load([join(t.base, 'p2'), join(t.base, 'p1')]);
    expect(cat.declarations.map((d) => [d.order, d.command, x(d).plugin?.id])).toEqual([
      [1, 'second', 'second'],
      [2, 'first', 'first'],
      [3, 'installed a', 'a@m'],
      [4, 'installed b', 'b@m'],
    ]);
  });

  it('a plugin is enabled by the user config.toml only', async () => {
    const root = 'home/.codex/plugins/cache/m/a/1.0.0';
    t.write(`${root}/.codex-plugin/plugin.json`, JSON.stringify({ name: 'a' }));
    t.write(`${root}/hooks/hooks.json`, stop('a'));
    t.write('etc-codex/config.toml', '[plugins."a@m"]\nenabled = true\n');
    t.write('home/.codex/config.toml', trustProject(t.projectRoot));
    t.write('proj/.codex/config.toml', '[plugins."a@m"]\nenabled = true\n');
    const [d] = (await load()).declarations;
    expect(d).toMatchObject({ status: 'disabled', why: 'plugin "a@m" is not enabled' });
  });

  it('manifest hooks: one path string, one inline object, and the fallback when every entry escapes', async () => {
    t.write('one/.codex-plugin/plugin.json', JSON.stringify({ name: 'one', hooks: './h/x.json' }));
    t.write('one/h/x.json', stop('path'));
    t.write(
      'inl/.codex-plugin/plugin.json',
      JSON.stringify({
        name: 'inl',
        hooks: { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'inline' }] }] } },
      }),
    );
    t.write('esc/.codex-plugin/plugin.json', JSON.stringify({ name: 'esc', hooks: ['../out.json', '/abs.json'] }));
    t.write('esc/hooks/hooks.json', stop('fallback'));
    const cat = await load(['one', 'inl', 'esc'].map((d) => join(t.base, d)));
    expect(cat.declarations.map((d) => [d.name, x(d).key])).toEqual([
      ['plugin/one/h/x.json:Stop:1.1', 'one:h/x.json:stop:0:0'],
      ['plugin/inl/plugin.json#hooks[0]:Stop:1.1', 'inl:plugin.json#hooks[0]:stop:0:0'],
      ['plugin/esc/hooks/hooks.json:Stop:1.1', 'esc:hooks/hooks.json:stop:0:0'],
    ]);
    // Each escaping entry is reported (Codex ignores it); the fallback file still loads.
    expect(cat.diagnostics.filter((d) => d.code === 'path_escapes_root')).toHaveLength(2);
  });

  it('loading writes nothing: no plugin data folder, no state, nothing in CODEX_HOME', async () => {
    t.write('plug/.codex-plugin/plugin.json', JSON.stringify({ name: 'p' }));
    t.write('plug/hooks/hooks.json', stop('${PLUGIN_DATA}/x'));
    t.write('home/.codex/hooks.json', stop('user'));
    const before = readdirSync(t.codexHome).sort();
    await load([join(t.base, 'plug')]);
    expect(readdirSync(t.codexHome).sort()).toEqual(before);
    expect(existsSync(join(t.codexHome, 'plugins', 'data'))).toBe(false);
    expect(existsSync(t.stateDir)).toBe(false);
  });
});

describe('codex.md §1, §2.3: managed system hooks', () => {
  it('system hooks are managed: they survive allow_managed_hooks_only and ignore enabled = false', async () => {
    t.write('etc-codex/requirements.toml', 'allow_managed_hooks_only = true\n');
    const sys = t.write('etc-codex/hooks.json', stop('sys-json'));
    const sysToml = t.write('etc-codex/config.toml', tomlStop('sys-toml'));
    t.write(
      'home/.codex/config.toml',
      `[hooks.state."${sys}:stop:0:0"]\nenabled = false\n[hooks.state."${sysToml}:stop:0:0"]\nenabled = false\n`,
    );
    const ds = (await load()).declarations;
    expect(ds.map((d) => [d.command, d.status, x(d).trust, x(d).trusted_hash])).toEqual([
      ['sys-json', 'active', 'managed', null],
      ['sys-toml', 'active', 'managed', null],
    ]);
  });
});

describe('codex.md §2.3: when several gates apply, the first row wins', () => {
  it('[features] hooks = false turns off managed hooks too, and wins over every other gate', async () => {
    t.write('etc-codex/requirements.toml', `allow_managed_hooks_only = true\n${tomlStop('req')}`);
    const user = t.write('home/.codex/hooks.json', stop('user'));
    const cfg = t.write(
      'home/.codex/config.toml',
      `[features]\nhooks = false\n[hooks.state."${user}:stop:0:0"]\nenabled = false\n`,
    );
    t.write('proj/.codex/hooks.json', stop('project'));
    const off = `hooks are turned off: [features] hooks = false in ${cfg}`;
    expect(statuses((await load()).declarations)).toEqual([
      ['req', 'disabled', off],
      ['user', 'disabled', off],
      ['project', 'disabled', off],
    ]);
  });

  it('allow_managed_hooks_only wins over project trust, plugin enablement and hooks.state', async () => {
    const req = t.write('etc-codex/requirements.toml', 'allow_managed_hooks_only = true\n');
    const user = t.write('home/.codex/hooks.json', stop('user'));
    t.write('home/.codex/config.toml', `[hooks.state."${user}:stop:0:0"]\nenabled = false\n`);
    t.write('proj/.codex/hooks.json', stop('project'));
    const root = 'home/.codex/plugins/cache/m/a/1.0.0';
    t.write(`${root}/.codex-plugin/plugin.json`, JSON.stringify({ name: 'a' }));
    t.write(`${root}/hooks/hooks.json`, stop('plugin'));
    const only = `allow_managed_hooks_only is true in ${req}`;
    expect(statuses((await load()).declarations)).toEqual([
      ['user', 'blocked', only],
      ['project', 'blocked', only],
      ['plugin', 'blocked', only],
    ]);
  });

  it('project trust wins over hooks.state enabled = false', async () => {
    const file = t.write('proj/.codex/hooks.json', stop('project'));
    t.write('home/.codex/config.toml', `[hooks.state."${file}:stop:0:0"]\nenabled = false\n`);
    const [d] = (await load()).declarations;
    expect(d).toMatchObject({ status: 'blocked' });
    expect(d!.why).toMatch(/^project ".*" is not trusted/);
  });

  it('a plugin that is not enabled wins over hooks.state enabled = false', async () => {
    const root = 'home/.codex/plugins/cache/m/a/1.0.0';
    t.write(`${root}/.codex-plugin/plugin.json`, JSON.stringify({ name: 'a' }));
    t.write(`${root}/hooks/hooks.json`, stop('plugin'));
    t.write('home/.codex/config.toml', '[hooks.state."a@m:hooks/hooks.json:stop:0:0"]\nenabled = false\n');
    expect(statuses((await load()).declarations)).toEqual([['plugin', 'disabled', 'plugin "a@m" is not enabled']]);
  });

  it('a gated hook is never active, so it has no order', async () => {
    t.write('proj/.codex/hooks.json', stop('project'));
    t.write('home/.codex/hooks.json', stop('user'));
    expect((await load()).declarations.map((d) => [d.command, d.order])).toEqual([
      ['user', 1],
      ['project', null],
    ]);
  });
});

describe('codex.md §2.1: shape and defaults', () => {
  it('description may be null; command_windows is a known key; timeouts default to 600, SessionEnd and Interrupt to 1', async () => {
    t.write(
      'home/.codex/hooks.json',
      JSON.stringify({
        description: null,
        hooks: {
          PreToolUse: [{ hooks: [{ type: 'command', command: 'a', command_windows: 'a.cmd' }] }],
          SessionEnd: [{ hooks: [{ type: 'command', command: 'b' }] }],
          Interrupt: [{ hooks: [{ type: 'command', command: 'c', timeout: 0 }] }],
        },
      }),
    );
    const cat = await load();
    expect(cat.diagnostics.map((d) => d.code).sort()).toEqual([
      'codex_timeout_zero',
      'codex_untrusted',
      'codex_untrusted',
      'codex_untrusted',
    ]);
    expect(cat.declarations.map((d) => [d.command, d.status, x(d).timeout_s, d.timeout_ms])).toEqual([
      ['a', 'active', 600, 600000],
      ['b', 'active', 1, 1000],
      ['c', 'active', 1, 1000],
    ]);
  });

  it('in requirements.toml a type error is Codex failing to load the file', async () => {
    const req = t.write(
      'etc-codex/requirements.toml',
      '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "x"\nasync = "yes"\n',
    );
    const cat = await load();
    const [d] = cat.diagnostics.filter((d) => d.severity === 'error');
    expect(d).toMatchObject({
      code: 'codex_file_rejected',
      file: req,
      line: 5,
      message: 'Codex cannot load this file: hooks.Stop[0].hooks[0].async must be a boolean',
    });
    expect(cat.declarations.map((d) => d.status)).toEqual(['invalid']);
  });
});

describe('codex.md §3, §7: hooks events rows', () => {
  it('one row per catalog event, in catalog order, with the shared fields then the catalog entry', () => {
    const rows = codexEventRows();
    expect(rows.map((r) => r.event)).toEqual([
      'PreToolUse',
      'PermissionRequest',
      'PostToolUse',
      'PreCompact',
      'PostCompact',
      'SessionStart',
      'SessionEnd',
      'UserPromptSubmit',
      'SubagentStart',
      'SubagentStop',
      'Stop',
      'Interrupt',
    ]);
    for (const [i, r] of rows.entries()) {
      const e = codexCatalogEvents()[i]!;
      expect(Object.keys(r).slice(0, 7)).toEqual([
        'event',
        'dialect',
        'family',
        'sync_eligible',
        'deny',
        'payload',
        'patch',
      ]);
      expect(r).toMatchObject({
        ...e,
        event: e.name,
        dialect: 'codex',
        family: null,
        sync_eligible: null,
        patch: null,
      });
      expect(r.payload).toEqual(e.payload_fields);
      expect(r.deny).toBe(e.exit2 === 'deny' || e.exit2 === 'block' ? e.exit2 : null);
    }
    // The §3 table: exit 2 denies PreToolUse/PermissionRequest, blocks UserPromptSubmit,
    // SubagentStop and Stop; PostToolUse's exit 2 is feedback, not a deny.
    expect(Object.fromEntries(rows.map((r) => [r.event, r.deny]))).toEqual({
      PreToolUse: 'deny',
      PermissionRequest: 'deny',
      PostToolUse: null,
      PreCompact: null,
      PostCompact: null,
      SessionStart: null,
      SessionEnd: null,
      UserPromptSubmit: 'block',
      SubagentStart: null,
      SubagentStop: 'block',
      Stop: 'block',
      Interrupt: null,
    });
    expect(Object.fromEntries(rows.map((r) => [r.event, r.matcher_field]))).toEqual({
      PreToolUse: 'tool_name',
      PermissionRequest: 'tool_name',
      PostToolUse: 'tool_name',
      PreCompact: 'trigger',
      PostCompact: 'trigger',
      SessionStart: 'source',
      SessionEnd: 'reason',
      UserPromptSubmit: null,
      SubagentStart: 'agent_type',
      SubagentStop: 'agent_type',
      Stop: null,
      Interrupt: null,
    });
  });
});

describe('codex.md §2.6, §4, §7: hash, matcher and label details through the loader', () => {
  it('commandWindows (either spelling) is dropped from the hash; a JSON null statusMessage is unset', async () => {
    const hashOf = async (handler: Record<string, unknown>) => {
      t.write('home/.codex/hooks.json', codexHooksJson('Stop', handler));
      return x((await load()).declarations[0]!).current_hash;
    };
    const plain = await hashOf({ type: 'command', command: 'run' });
    expect(await hashOf({ type: 'command', command: 'run', commandWindows: 'run.cmd' })).toBe(plain);
    expect(await hashOf({ type: 'command', command: 'run', command_windows: 'run.cmd' })).toBe(plain);
    expect(await hashOf({ type: 'command', command: 'run', statusMessage: null })).toBe(plain);
  });

  it('an event without a matcher field runs its hooks whatever the matcher says', async () => {
    t.write('home/.codex/hooks.json', codexHooksJson('Stop', { type: 'command', command: 's' }, 'NeverMatches'));
    const [sel] = selectCodexHandlers(codexEvent('Stop')!, { session_id: 's' }, (await load()).declarations, true);
    expect(sel).toMatchObject({ selected: true });
    expect(sel!.matcher).toBeUndefined();
    // …while on an event with a matcher field the same matcher is tested.
    t.write('home/.codex/hooks.json', codexHooksJson('PreToolUse', { type: 'command', command: 'p' }, 'NeverMatches'));
    const [pre] = selectCodexHandlers(
      codexEvent('PreToolUse')!,
      { tool_name: 'Bash' },
      (await load()).declarations,
      true,
    );
    expect(pre).toMatchObject({ selected: false, matcher: { field: 'tool_name', matched: false } });
  });

  it('the list label is the command on one line, at most 80 characters', async () => {
    const long = `echo ${'x'.repeat(100)}`;
    t.write(
      'home/.codex/hooks.json',
      JSON.stringify({
        hooks: {
          Stop: [
            {
              hooks: [
                { type: 'command', command: long },
                { type: 'command', command: 'a\n  b' },
              ],
            },
          ],
        },
      }),
    );
    const [cut, joined] = (await load()).declarations.map((d) => x(d).label);
    expect([...cut!]).toHaveLength(80);
    expect(cut).toBe(`${long.slice(0, 79)}…`);
    expect(joined).toBe('a b');
  });
});

describe('codex.md §2.1, §2.6: a JSON number written as a float stays a float, as serde_json reads it', () => {
  it('"timeout": 10.0 is not a whole number for Codex: the file is rejected', async () => {
    const file = t.write(
      'home/.codex/hooks.json',
      '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"a","timeout":10.0}]}]}}',
    );
    const cat = await load();
    expect(cat.diagnostics.filter((d) => d.severity === 'error')).toEqual([
      expect.objectContaining({
        code: 'codex_invalid_timeout',
        file,
        message: 'timeout must be a whole number of seconds',
      }),
    ]);
    expect(cat.declarations.map((d) => d.status)).toEqual(['invalid']);
    // 1e1 is a float too; a plain 10 is fine.
    t.write(
      'home/.codex/hooks.json',
      '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"a","timeout":1e1}]}]}}',
    );
    expect((await load()).declarations.map((d) => d.status)).toEqual(['invalid']);
    t.write('home/.codex/hooks.json', '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"a","timeout":10}]}]}}');
    expect((await load()).declarations.map((d) => [d.status, x(d).timeout_s])).toEqual([['active', 10]]);
  });

  it('an mcp_tool input float hashes as Codex writes it (2000.0), and shows as a number', async () => {
    t.write(
      'home/.codex/hooks.json',
      '{"hooks":{"PreToolUse":[{"hooks":[{"type":"mcp_tool","server":"s","tool":"t","input":{"n":2000.0,"m":3}}]}]}}',
    );
    const [d] = (await load()).declarations;
    expect(x(d!).hash_input).toBe(
      '{"event_name":"pre_tool_use","hooks":[{"input":{"m":3,"n":2000.0},"server":"s","timeout":600,"tool":"t","type":"mcp_tool"}]}',
    );
    expect(x(d!).handler).toEqual({ type: 'mcp_tool', server: 's', tool: 't', input: { n: 2000, m: 3 } });
    // The same input in TOML hashes the same.
    const fromJson = x(d!).current_hash;
    t.write('home/.codex/hooks.json', '{}');
    t.write(
      'home/.codex/config.toml',
      '[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "mcp_tool"\nserver = "s"\ntool = "t"\ninput = { n = 2000.0, m = 3 }\n',
    );
    expect(x((await load()).declarations[0]!).current_hash).toBe(fromJson);
  });
});

describe('codex.md §1: an enabled plugin copy that hookctl cannot read says so', () => {
  it('no .codex-plugin/plugin.json: codex_plugin_not_installed names the copy', async () => {
    const root = t
      .write('home/.codex/plugins/cache/m/p/1.0.0/hooks/hooks.json', stop('x'))
      .replace(/\/hooks\/hooks\.json$/, '');
    t.write('home/.codex/config.toml', '[plugins."p@m"]\nenabled = true\n');
    const cat = await load();
    expect(cat.declarations).toEqual([]);
    expect(cat.diagnostics).toEqual([
      expect.objectContaining({
        code: 'codex_plugin_not_installed',
        severity: 'warning',
        line: 1,
        message: `plugin "p@m" is enabled but its copy ${root} has no .codex-plugin/plugin.json; Codex does not load it`,
      }),
    ]);
    t.write('home/.codex/plugins/cache/m/p/1.0.0/.claude-plugin/plugin.json', '{"name":"p"}');
    expect((await load()).diagnostics[0]!.message).toContain(
      'Codex falls back to its .claude-plugin/plugin.json, which hookctl does not read, so its hooks are not shown',
    );
  });

  it('a copy that is not enabled stays quiet', async () => {
    t.write('home/.codex/plugins/cache/m/p/1.0.0/hooks/hooks.json', stop('x'));
    expect((await load()).diagnostics).toEqual([]);
  });
});
