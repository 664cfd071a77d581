import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { claudeExtra } from '../../src/dialects/claude/sources/declaration.js';
import { loadClaudeSources } from '../../src/dialects/claude/sources/load.js';
import { makeClaudeTree, oneHook, type ClaudeTree } from '../support/claude-tree.js';

let t: ClaudeTree;
beforeEach(() => {
  t = makeClaudeTree();
});

const load = (pluginDirs: string[] = []) => loadClaudeSources({ workspace: t.workspace }, t.env, { pluginDirs });
const cmd = (command: string, extra: object = {}) => ({ type: 'command', command, ...extra });
const summary = async (pluginDirs: string[] = []) =>
  (await load(pluginDirs)).declarations.map((d) => [d.name, d.status, d.why ?? null]);

describe('claude sources and dispatch order', () => {
  it('reads managed, drop-ins, user, project, local, plugins, skills and agents in order', async () => {
    t.write('managed/managed-settings.json', oneHook('PreToolUse', cmd('m')));
    t.write('managed/managed-settings.d/10-a.json', oneHook('PreToolUse', cmd('d1')));
    t.write('managed/managed-settings.d/.hidden.json', oneHook('PreToolUse', cmd('hidden')));
    t.write('managed/managed-settings.d/notes.txt', 'x');
    t.write('home/.claude/settings.json', oneHook('PreToolUse', cmd('u')));
    t.write('ws/.claude/settings.json', oneHook('PreToolUse', cmd('p')));
    t.write('ws/.claude/settings.local.json', oneHook('PreToolUse', cmd('l')));
    t.write('home/.claude/plugins/cache/mkt/fmt/1.0.0/hooks/hooks.json', oneHook('PreToolUse', cmd('plug')));
    t.write('home/.claude/settings.json', { ...oneHook('PreToolUse', cmd('u')), enabledPlugins: { 'fmt@mkt': true } });
    t.write(
      'ws/.claude/skills/deploy/SKILL.md',
      '---\nname: deploy\nhooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n          command: s\n---\nbody\n',
    );
    t.write(
      'ws/.claude/agents/reviewer.md',
      '---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: a\n---\n',
    );
    const cat = await load();
    expect(cat.diagnostics).toEqual([]);
    expect(cat.declarations.map((d) => [d.name, d.event, d.order, d.source])).toEqual([
      ['managed:PreToolUse:1.1', 'PreToolUse', 1, 'claude_managed'],
      ['managed.d/10-a.json:PreToolUse:1.1', 'PreToolUse', 2, 'claude_managed'],
      ['user:PreToolUse:1.1', 'PreToolUse', 3, 'claude_user'],
      ['project:PreToolUse:1.1', 'PreToolUse', 4, 'claude_project'],
      ['local:PreToolUse:1.1', 'PreToolUse', 5, 'claude_local'],
      ['plugin/fmt@mkt:PreToolUse:1.1', 'PreToolUse', 6, 'claude_plugin'],
      ['skill/project/deploy:PreToolUse:1.1', 'PreToolUse', 7, 'claude_skill'],
      ['agent/project/reviewer:Stop:1.1', 'SubagentStop', 1, 'claude_agent'],
    ]);
    const plugin = claudeExtra(cat.declarations[5]!);
    expect(plugin.plugin).toMatchObject({ id: 'fmt@mkt', forceEnabled: false });
    expect(plugin.plugin!.dataDir).toBe(join(t.configDir, 'plugins/data/fmt-mkt'));
    expect(cat.declarations[6]!.skill_source).toBe('project');
    expect(claudeExtra(cat.declarations[7]!).agent).toBe('reviewer');
  });

  it('local settings: the git root copy and the workspace copy, root first; root hooks override the workspace copy', async () => {
    mkdirSync(join(t.root, 'repo/.git'), { recursive: true });
    t.write('repo/.claude/settings.local.json', oneHook('Stop', cmd('root')));
    t.write('repo/sub/.claude/settings.local.json', oneHook('Stop', cmd('ws')));
    t.write('repo/.claude/settings.json', oneHook('Stop', cmd('root-project-not-read')));
    const cat = await loadClaudeSources({ workspace: join(t.root, 'repo/sub') }, t.env);
    expect(cat.declarations.map((d) => [d.name, d.status, d.why ?? null])).toEqual([
      ['local:Stop:1.1', 'active', null],
      ['local.workspace:Stop:1.1', 'overridden', `the git root's settings.local.json sets "hooks"`],
    ]);
  });

  it('the root copy of settings.local.json wins per top-level key: env, enabledPlugins and lists are not merged in', async () => {
    mkdirSync(join(t.root, 'repo/.git'), { recursive: true });
    t.write('repo/.claude/settings.local.json', { env: { A: 'root' }, enabledPlugins: { 'a@m': true } });
    t.write('repo/sub/.claude/settings.local.json', {
      env: { B: 'ws' },
      enabledPlugins: { 'b@m': true },
      httpHookAllowedEnvVars: ['B'],
    });
    t.write('home/.claude/plugins/cache/m/a/1.0.0/hooks/hooks.json', oneHook('Stop', cmd('a')));
    t.write('home/.claude/plugins/cache/m/b/1.0.0/hooks/hooks.json', oneHook('Stop', cmd('b')));
    const cat = await loadClaudeSources({ workspace: join(t.root, 'repo/sub') }, t.env);
    expect(cat.context.settingsEnv).toEqual({ A: 'root' });
    expect(cat.context.httpHookAllowedEnvVars).toEqual(['B']);
    expect(cat.declarations.map((d) => [d.name, d.status])).toEqual([
      ['plugin/a@m:Stop:1.1', 'active'],
      ['plugin/b@m:Stop:1.1', 'disabled'],
    ]);
  });

  it('a git root at $HOME is not used: only the workspace copy', async () => {
    mkdirSync(join(t.home, '.git'), { recursive: true });
    t.write('home/.claude/settings.local.json', oneHook('Stop', cmd('home')));
    t.write('home/proj/.claude/settings.local.json', oneHook('Stop', cmd('ws')));
    const cat = await loadClaudeSources({ workspace: join(t.home, 'proj') }, t.env);
    expect(cat.declarations.map((d) => d.name)).toEqual(['local:Stop:1.1']);
    expect(cat.declarations[0]!.command).toBe('ws');
  });
});

describe('duplicates (§2.3)', () => {
  it('the same handler in two settings files runs once; in one file, both run; plugins stay separate', async () => {
    const h = cmd('same', { timeout: 5 });
    t.write('home/.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: '*', hooks: [h] }] },
      enabledPlugins: { 'p@m': true },
    });
    t.write('ws/.claude/settings.json', {
      hooks: { PreToolUse: [{ hooks: [{ timeout: 5, command: 'same', type: 'command' }, h] }] },
    });
    t.write('home/.claude/plugins/cache/m/p/1.0.0/hooks/hooks.json', oneHook('PreToolUse', h));
    expect(await summary()).toEqual([
      ['user:PreToolUse:1.1', 'active', null],
      ['project:PreToolUse:1.1', 'overridden', 'same handler as user:PreToolUse:1.1; Claude Code runs it once'],
      ['project:PreToolUse:1.2', 'overridden', 'same handler as user:PreToolUse:1.1; Claude Code runs it once'],
      ['plugin/p@m:PreToolUse:1.1', 'active', null],
    ]);
  });

  it('async handlers are never deduplicated (§5.9)', async () => {
    const hooks = { Stop: [{ hooks: [cmd('bg', { async: true }), cmd('wake', { asyncRewake: true })] }] };
    t.write('home/.claude/settings.json', { hooks });
    t.write('ws/.claude/settings.json', { hooks });
    expect((await summary()).map((r) => r[1])).toEqual(['active', 'active', 'active', 'active']);
  });

  it('two identical handlers in one file both run', async () => {
    t.write('ws/.claude/settings.json', { hooks: { Stop: [{ hooks: [cmd('x'), cmd('x')] }] } });
    expect((await summary()).map((r) => r[1])).toEqual(['active', 'active']);
  });
});

describe('gates (§2.4)', () => {
  it('disableAllHooks outside managed: only managed and force-enabled plugin hooks run', async () => {
    t.write('managed/managed-settings.json', { ...oneHook('Stop', cmd('m')), enabledPlugins: { 'forced@m': true } });
    t.write('home/.claude/settings.json', {
      ...oneHook('Stop', cmd('u')),
      disableAllHooks: true,
      enabledPlugins: { 'other@m': true },
    });
    t.write('home/.claude/plugins/cache/m/forced/1.0.0/hooks/hooks.json', oneHook('Stop', cmd('f')));
    t.write('home/.claude/plugins/cache/m/other/1.0.0/hooks/hooks.json', oneHook('Stop', cmd('o')));
    t.write(
      'ws/.claude/skills/s/SKILL.md',
      '---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: s\n---\n',
    );
    const cat = await load();
    const file = join(t.configDir, 'settings.json');
    expect(cat.declarations.map((d) => [d.name, d.status, d.why ?? null])).toEqual([
      ['managed:Stop:1.1', 'active', null],
      ['user:Stop:1.1', 'disabled', `disableAllHooks is true in ${file}`],
      ['plugin/forced@m:Stop:1.1', 'active', null],
      ['plugin/other@m:Stop:1.1', 'disabled', `disableAllHooks is true in ${file}`],
      ['skill/project/s:Stop:1.1', 'disabled', `disableAllHooks is true in ${file}`],
    ]);
    expect(cat.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['claude_hooks_disabled', `disableAllHooks is true in ${file}: non-managed hooks do not run`],
    ]);
  });

  it('a project false beats a user true; managed true disables everything', async () => {
    t.write('home/.claude/settings.json', { ...oneHook('Stop', cmd('u')), disableAllHooks: true });
    t.write('ws/.claude/settings.json', { disableAllHooks: false });
    expect((await summary()).map((r) => r[1])).toEqual(['active']);
    t.write('managed/managed-settings.json', { ...oneHook('Stop', cmd('m')), disableAllHooks: true });
    expect((await summary()).map((r) => r[1])).toEqual(['disabled', 'disabled']);
  });

  it('allowManagedHooksOnly blocks all but managed and force-enabled plugins (their skills too)', async () => {
    t.write('managed/managed-settings.json', { allowManagedHooksOnly: true, enabledPlugins: { 'forced@m': true } });
    t.write('home/.claude/settings.json', oneHook('Stop', cmd('u')));
    t.write(
      'home/.claude/plugins/cache/m/forced/1.0.0/skills/k/SKILL.md',
      '---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: k\n---\n',
    );
    t.write(
      'ws/.claude/agents/a.md',
      '---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: a\n---\n',
    );
    const why = `allowManagedHooksOnly is true in ${join(t.managedDir, 'managed-settings.json')}`;
    expect(await summary()).toEqual([
      ['user:Stop:1.1', 'blocked', why],
      ['skill/forced@m/forced:k:Stop:1.1', 'active', null],
      ['agent/project/a:Stop:1.1', 'blocked', why],
    ]);
  });

  it('strictPluginOnlyCustomization ["hooks"] blocks settings hooks only; elsewhere it is ignored with a warning', async () => {
    t.write('managed/managed-settings.d/strict.json', { strictPluginOnlyCustomization: ['hooks', 'mcp'] });
    t.write('ws/.claude/settings.json', { ...oneHook('Stop', cmd('p')), strictPluginOnlyCustomization: false });
    t.write(
      'ws/.claude/skills/s/SKILL.md',
      '---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: s\n---\n',
    );
    const cat = await load();
    expect(cat.declarations.map((d) => [d.name, d.status])).toEqual([
      ['project:Stop:1.1', 'blocked'],
      ['skill/project/s:Stop:1.1', 'active'],
    ]);
    expect(cat.declarations[0]!.why).toBe(
      `strictPluginOnlyCustomization blocks hooks from settings files (${join(t.managedDir, 'managed-settings.d/strict.json')})`,
    );
    expect(cat.diagnostics.map((d) => [d.code, d.message, d.line])).toEqual([
      [
        'claude_managed_only_setting',
        'strictPluginOnlyCustomization is read only from managed settings; ignored here',
        14,
      ],
    ]);
  });

  it('allowedHttpHookUrls: union of every file, whole URL, * wildcard, host case and trailing dot', async () => {
    t.write('home/.claude/settings.json', {
      allowedHttpHookUrls: ['https://hooks.example.com/*'],
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'http', url: 'https://HOOKS.example.com./a' },
              { type: 'http', url: 'https://evil.test/https://hooks.example.com/' },
              { type: 'http', url: 'http://127.0.0.1:9/x' },
            ],
          },
        ],
      },
    });
    t.write('ws/.claude/settings.json', { allowedHttpHookUrls: ['http://127.0.0.1:*/x'] });
    const cat = await load();
    expect(cat.declarations.map((d) => d.status)).toEqual(['active', 'blocked', 'active']);
    expect(cat.declarations[1]!.why).toBe('url matches no allowedHttpHookUrls pattern');
    expect(cat.diagnostics.map((d) => d.code)).toEqual(['claude_url_not_allowed']);
    expect(cat.context.allowedHttpHookUrls).toEqual(['http://127.0.0.1:*/x', 'https://hooks.example.com/*']);
    t.write('ws/.claude/settings.json', { allowedHttpHookUrls: [] });
    expect((await load()).declarations.map((d) => d.status)).toEqual(['active', 'blocked', 'blocked']);
  });

  it('enabledPlugins merges per key managed > local > project > user, and defaultEnabled applies when no file names it', async () => {
    t.write('home/.claude/settings.json', { enabledPlugins: { 'a@m': true, 'b@m': true } });
    t.write('ws/.claude/settings.json', { enabledPlugins: { 'a@m': false } });
    for (const n of ['a', 'b', 'c', 'd'])
      t.write(`home/.claude/plugins/cache/m/${n}/1.0.0/hooks/hooks.json`, oneHook('Stop', cmd(n)));
    t.write('home/.claude/plugins/cache/m/c/1.0.0/.claude-plugin/plugin.json', { name: 'c', defaultEnabled: true });
    expect(await summary()).toEqual([
      ['plugin/a@m:Stop:1.1', 'disabled', 'plugin "a@m" is not enabled'],
      ['plugin/b@m:Stop:1.1', 'active', null],
      ['plugin/c@m:Stop:1.1', 'active', null],
      ['plugin/d@m:Stop:1.1', 'disabled', 'plugin "d@m" is not enabled'],
    ]);
  });
});

describe('plugins', () => {
  it('the highest semver version wins; non-semver names rank below', async () => {
    t.write('home/.claude/settings.json', { enabledPlugins: { 'p@m': true } });
    for (const v of ['1.2.0', '1.10.0', '1.10.0-rc.1', 'latest']) {
      t.write(`home/.claude/plugins/cache/m/p/${v}/hooks/hooks.json`, oneHook('Stop', cmd(v)));
    }
    const cat = await load();
    expect(cat.declarations.map((d) => d.command)).toEqual(['1.10.0']);
  });

  it('--plugin-dir is always active, named by its manifest, and shadows the installed plugin of that name', async () => {
    t.write('home/.claude/settings.json', { enabledPlugins: { 'fmt@m': true } });
    t.write('home/.claude/plugins/cache/m/fmt/1.0.0/hooks/hooks.json', oneHook('Stop', cmd('installed')));
    const dev = join(t.root, 'dev-fmt');
    t.write('dev-fmt/.claude-plugin/plugin.json', { name: 'fmt' });
    t.write('dev-fmt/hooks/hooks.json', oneHook('Stop', cmd('dev')));
    expect(await summary([dev])).toEqual([
      ['plugin/fmt:Stop:1.1', 'active', null],
      ['plugin/fmt@m:Stop:1.1', 'overridden', `shadowed by ${dev}`],
    ]);
  });

  it('a missing --plugin-dir is a usage error', async () => {
    await expect(load([join(t.root, 'nope')])).rejects.toMatchObject({ exit: 2, code: 'usage_error' });
  });

  it('plugin.json adds hook files and inline hooks; one error loads none of the plugin', async () => {
    const dev = join(t.root, 'p');
    t.write('p/hooks/hooks.json', {
      description: 'd',
      hooks: { Stop: [{ hooks: [cmd('${CLAUDE_PLUGIN_ROOT}/a.sh')] }] },
    });
    t.write('p/extra/more.json', oneHook('Stop', cmd('more')));
    t.write('p/.claude-plugin/plugin.json', { name: 'p', hooks: ['./extra/more.json'] });
    expect((await summary([dev])).map((r) => r[0])).toEqual(['plugin/p:Stop:1.1', 'plugin/p/extra/more.json:Stop:1.1']);
    t.write('p/.claude-plugin/plugin.json', { name: 'p', hooks: { hooks: { Stop: [{ hooks: [cmd('inline')] }] } } });
    expect((await summary([dev])).map((r) => r[0])).toEqual(['plugin/p:Stop:1.1', 'plugin/p/plugin.json:Stop:1.1']);
    t.write('p/.claude-plugin/plugin.json', {
      name: 'p',
      hooks: ['./hooks/hooks.json', '../outside.json', './gone.json'],
    });
    const cat = await load([dev]);
    // none runs: each is invalid, with the plugin's errors that stop it (SPEC §7.2)
    expect(cat.declarations.map((d) => [d.name, d.status, d.why])).toEqual([
      [
        'plugin/p:Stop:1.1',
        'invalid',
        'Duplicate hooks file detected: manifest.hooks should only reference additional hook files',
      ],
    ]);
    expect(cat.declarations[0]!.diagnostics).toEqual(cat.diagnostics.filter((d) => d.severity === 'error'));
    expect(cat.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        'claude_plugin_duplicate_hooks_file',
        'Duplicate hooks file detected: manifest.hooks should only reference additional hook files',
      ],
      ['path_escapes_root', 'hooks file "../outside.json" is outside the plugin root'],
      ['claude_plugin_hooks_file_missing', 'plugin "p" lists hooks file "./gone.json", which does not exist'],
    ]);
  });

  it('a hooks.json without "hooks" fails the plugin; not-installed and plugin-agent warnings', async () => {
    const dev = join(t.root, 'p');
    t.write('p/hooks/hooks.json', { Stop: [] });
    t.write('p/agents/helper.md', '---\nname: helper\nhooks:\n  Stop: []\n---\n');
    t.write('home/.claude/settings.json', { enabledPlugins: { 'ghost@m': true } });
    const cat = await load([dev]);
    expect(cat.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        'claude_plugin_not_installed',
        `enabledPlugins enables "ghost@m", but no copy is installed under ${join(t.configDir, 'plugins/cache')}`,
      ],
      ['claude_plugin_hooks_missing', 'hooks/hooks.json has no "hooks" object; Claude Code fails to load plugin "p"'],
      ['claude_plugin_agent_hooks_ignored', 'hooks in plugin subagent "helper" are ignored by Claude Code'],
    ]);
  });
});

describe('skills and agents', () => {
  it('a project skill shadows a user skill of the same name; plugin skills are <plugin>:<skill>', async () => {
    t.write('ws/.claude/skills/a/SKILL.md', '---\nname: shared\n---\nno hooks\n');
    t.write(
      'home/.claude/skills/b/SKILL.md',
      '---\nname: shared\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: u\n---\n',
    );
    const cat = await load();
    expect(cat.declarations.map((d) => [d.name, d.status, d.why])).toEqual([
      ['skill/user/shared:Stop:1.1', 'overridden', `shadowed by ${join(t.workspace, '.claude/skills/a/SKILL.md')}`],
    ]);
  });

  it('once is honoured in skills only', async () => {
    t.write(
      'ws/.claude/skills/s/SKILL.md',
      '---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: s\n          once: true\n---\n',
    );
    t.write('ws/.claude/settings.json', oneHook('Stop', cmd('p', { once: true })));
    const cat = await load();
    expect(cat.declarations.map((d) => claudeExtra(d).once)).toEqual([false, true]);
    expect(cat.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['claude_once_ignored', 9, 13]]);
  });
});

describe('context', () => {
  it('settings env merges per key managed > local > project > user; SessionEnd budget from settings only', async () => {
    t.write('home/.claude/settings.json', {
      env: { A: 'user', B: 'user' },
      ...oneHook('SessionEnd', cmd('x', { timeout: 20 })),
    });
    t.write('ws/.claude/settings.json', { env: { A: 'project' } });
    t.write('managed/managed-settings.json', { env: { C: 'managed' } });
    const cat = await load();
    expect(cat.context.settingsEnv).toEqual({ A: 'project', B: 'user', C: 'managed' });
    expect(cat.context.sessionEndMaxTimeoutS).toBe(20);
    expect(cat.context.stateDir).toBe(t.stateDir);
  });

  it('effective timeouts and labels', async () => {
    t.write('ws/.claude/settings.json', {
      hooks: {
        UserPromptSubmit: [{ hooks: [cmd('a'), { type: 'prompt', prompt: 'line one\nline two' }] }],
        SessionEnd: [{ hooks: [cmd('b')] }],
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [cmd('c', { args: ['x', 'y'], timeout: 2.5 }), { type: 'mcp_tool', server: 's', tool: 't' }],
          },
        ],
      },
    });
    const cat = await load();
    expect(
      cat.declarations.map((d) => [d.timeout_ms, claudeExtra(d).label, claudeExtra(d).runnable, d.matcher]),
    ).toEqual([
      [30000, 'a', true, {}],
      [30000, 'line one', false, {}],
      [1500, 'b', true, {}],
      [2500, 'c x y', true, { tool_name: 'Bash' }],
      [600000, 's/t', false, { tool_name: 'Bash' }],
    ]);
  });
});
