// Subagents, slash commands and skills in every project folder (claude.md §1, issue 27): agents and
// commands at any depth, the folders up to the git root and --additional-dir, nearest first.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { claudeExtra } from '../../src/dialects/claude/sources/declaration.js';
import { loadClaudeSources } from '../../src/dialects/claude/sources/load.js';
import { makeClaudeTree, type ClaudeTree } from '../support/claude-tree.js';

let t: ClaudeTree;
beforeEach(() => {
  t = makeClaudeTree();
});

/** Front matter with one command hook on `event`, and `head` lines before `hooks:`. */
const fm = (event: string, command: string, head = '', more = '') =>
  `---\n${head}hooks:\n  ${event}:\n    - hooks:\n        - type: command\n          command: ${command}\n${more}---\nbody\n`;

const rows = (cat: Awaited<ReturnType<typeof loadClaudeSources>>) =>
  cat.declarations.map((d) => [d.name, d.source, d.status, d.why ?? null, d.command]);

describe('subagents (§1)', () => {
  it('reads agents/ at any depth: .claude/agents/team/builder.md is the agent "builder"', async () => {
    t.write('ws/.claude/agents/team/builder.md', fm('Stop', 'b'));
    t.write('ws/.claude/agents/a/b/c/deep.md', fm('PreToolUse', 'd', 'name: deep-one\n'));
    const cat = await loadClaudeSources({ workspace: t.workspace }, t.env);
    expect(cat.diagnostics).toEqual([]);
    expect(cat.declarations.map((d) => [d.name, d.event, claudeExtra(d).agent])).toEqual([
      ['agent/project/deep-one:PreToolUse:1.1', 'PreToolUse', 'deep-one'],
      ['agent/project/builder:Stop:1.1', 'SubagentStop', 'builder'],
    ]);
  });

  it('reads every project folder up to the git root; the nearest definition wins', async () => {
    mkdirSync(join(t.root, 'repo/.git'), { recursive: true });
    t.write('repo/.claude/agents/reviewer.md', fm('Stop', 'root'));
    t.write('repo/mid/.claude/agents/other.md', fm('Stop', 'mid'));
    t.write('repo/mid/sub/.claude/agents/nested/reviewer.md', fm('Stop', 'near'));
    t.write('above/.claude/agents/x.md', fm('Stop', 'above-the-root'));
    const cat = await loadClaudeSources({ workspace: join(t.root, 'repo/mid/sub') }, t.env);
    expect(rows(cat)).toEqual([
      ['agent/project/reviewer:Stop:1.1', 'claude_agent', 'active', null, 'near'],
      ['agent/project/other:Stop:1.1', 'claude_agent', 'active', null, 'mid'],
      [
        'agent/project/reviewer:Stop:1.1',
        'claude_agent',
        'overridden',
        `shadowed by ${join(t.root, 'repo/mid/sub/.claude/agents/nested/reviewer.md')}`,
        'root',
      ],
    ]);
  });

  it('without a git root only the workspace is read', async () => {
    t.write('.claude/agents/up.md', fm('Stop', 'up'));
    t.write('ws/sub/.keep', '');
    const cat = await loadClaudeSources({ workspace: join(t.workspace, 'sub') }, t.env);
    expect(cat.declarations).toEqual([]);
  });

  it('two files of one agents/ tree with one name: the first path stays, the other is overridden, with a warning', async () => {
    t.write('ws/.claude/agents/b.md', fm('Stop', 'second', 'name: twin\n'));
    t.write('ws/.claude/agents/a/x.md', fm('Stop', 'first', 'name: twin\n'));
    const cat = await loadClaudeSources({ workspace: t.workspace }, t.env);
    expect(rows(cat).map((r) => [r[2], r[4]])).toEqual([
      ['active', 'first'],
      ['overridden', 'second'],
    ]);
    expect(cat.diagnostics.map((d) => [d.severity, d.code, d.file, d.message])).toEqual([
      [
        'warning',
        'claude_duplicate_agent_name',
        join(t.workspace, '.claude/agents/b.md'),
        `agent "twin" is defined in ${join(t.workspace, '.claude/agents/a/x.md')} and ${join(t.workspace, '.claude/agents/b.md')}; Claude Code loads only one of them`,
      ],
    ]);
  });

  it('an agent whose name holds ":" is not loaded: an error, and its hooks never run', async () => {
    t.write('ws/.claude/agents/bad.md', fm('Stop', 'x', 'name: team:builder\n'));
    const cat = await loadClaudeSources({ workspace: t.workspace }, t.env);
    expect(cat.declarations).toEqual([]);
    expect(cat.diagnostics.map((d) => [d.severity, d.code, d.message])).toEqual([
      [
        'error',
        'claude_agent_name_invalid',
        'agent name "team:builder" contains ":"; Claude Code does not load this file',
      ],
    ]);
  });
});

describe('slash commands (§1, 2.1.0)', () => {
  it('reads hooks: in commands/**/*.md as claude_command, named by the file whatever its name: says, once honoured', async () => {
    t.write('ws/.claude/commands/ops/deploy.md', fm('PreToolUse', 'dep', 'name: ignored\n', '          once: true\n'));
    t.write('home/.claude/commands/mine.md', fm('Stop', 'user-cmd'));
    const cat = await loadClaudeSources({ workspace: t.workspace }, t.env);
    expect(cat.diagnostics).toEqual([]);
    expect(rows(cat)).toEqual([
      ['command/project/deploy:PreToolUse:1.1', 'claude_command', 'active', null, 'dep'],
      ['command/user/mine:Stop:1.1', 'claude_command', 'active', null, 'user-cmd'],
    ]);
    expect(claudeExtra(cat.declarations[0]!)).toMatchObject({ skill: 'deploy', once: true });
    expect(cat.declarations[0]!.skill_source).toBe('project');
  });

  it('a skill beats a command of the same name and scope; plugin commands are <plugin>:<command>', async () => {
    t.write('ws/.claude/skills/deploy/SKILL.md', fm('Stop', 'skill'));
    t.write('ws/.claude/commands/deploy.md', fm('Stop', 'command'));
    t.write('plug/.claude-plugin/plugin.json', { name: 'p' });
    t.write('plug/commands/fmt.md', fm('Stop', 'plugin-cmd'));
    const cat = await loadClaudeSources({ workspace: t.workspace }, t.env, { pluginDirs: [join(t.root, 'plug')] });
    expect(rows(cat)).toEqual([
      ['skill/project/deploy:Stop:1.1', 'claude_skill', 'active', null, 'skill'],
      [
        'command/project/deploy:Stop:1.1',
        'claude_command',
        'overridden',
        `shadowed by ${join(t.workspace, '.claude/skills/deploy/SKILL.md')}`,
        'command',
      ],
      ['command/p/p:fmt:Stop:1.1', 'claude_command', 'active', null, 'plugin-cmd'],
    ]);
  });

  it('a manifest "commands" names the files and folders read instead of commands/', async () => {
    t.write('plug/.claude-plugin/plugin.json', { name: 'p', commands: ['./extra/one.md', './more'] });
    t.write('plug/commands/not-read.md', fm('Stop', 'no'));
    t.write('plug/extra/one.md', fm('Stop', 'one'));
    t.write('plug/more/deep/two.md', fm('Stop', 'two'));
    const cat = await loadClaudeSources({ workspace: t.workspace }, t.env, { pluginDirs: [join(t.root, 'plug')] });
    expect(cat.declarations.map((d) => d.command)).toEqual(['one', 'two']);
  });
});

describe('skills and commands walk up to the git root; --additional-dir adds all three', () => {
  it('reads the folders in order: workspace, parents to the git root, then each additional dir', async () => {
    mkdirSync(join(t.root, 'repo/.git'), { recursive: true });
    t.write('repo/.claude/skills/s/SKILL.md', fm('Stop', 'root-skill'));
    t.write('repo/sub/.claude/skills/s/SKILL.md', fm('Stop', 'near-skill'));
    t.write('repo/.claude/commands/c.md', fm('Stop', 'root-command'));
    t.write('extra/.claude/skills/e/SKILL.md', fm('Stop', 'extra-skill'));
    t.write('extra/.claude/commands/c.md', fm('Stop', 'extra-command'));
    t.write('extra/.claude/agents/e.md', fm('Stop', 'extra-agent'));
    const cat = await loadClaudeSources(
      { workspace: join(t.root, 'repo/sub'), additionalDirs: [join(t.root, 'extra')] },
      t.env,
    );
    expect(rows(cat).map((r) => [r[0], r[2], r[4]])).toEqual([
      ['skill/project/s:Stop:1.1', 'active', 'near-skill'],
      ['skill/project/s:Stop:1.1', 'overridden', 'root-skill'],
      ['skill/project/e:Stop:1.1', 'active', 'extra-skill'],
      ['command/project/c:Stop:1.1', 'active', 'root-command'],
      ['command/project/c:Stop:1.1', 'overridden', 'extra-command'],
      ['agent/project/e:Stop:1.1', 'active', 'extra-agent'],
    ]);
  });
});

describe('the rest of the revision', () => {
  it('strictPluginOnlyCustomization "skills" and "agents": user and project skills, commands and agents are blocked; plugin skills run', async () => {
    t.write('managed/managed-settings.json', { strictPluginOnlyCustomization: ['skills', 'agents'] });
    t.write('ws/.claude/skills/s/SKILL.md', fm('Stop', 'skill'));
    t.write('ws/.claude/commands/c.md', fm('Stop', 'command'));
    t.write('home/.claude/agents/a.md', fm('Stop', 'agent'));
    t.write('plug/.claude-plugin/plugin.json', { name: 'p' });
    t.write('plug/skills/ps/SKILL.md', fm('Stop', 'plugin-skill'));
    const cat = await loadClaudeSources({ workspace: t.workspace }, t.env, { pluginDirs: [join(t.root, 'plug')] });
    const file = join(t.managedDir, 'managed-settings.json');
    expect(rows(cat).map((r) => [r[4], r[2], r[3]])).toEqual([
      ['skill', 'blocked', `strictPluginOnlyCustomization blocks skills and commands outside plugins (${file})`],
      ['plugin-skill', 'active', null],
      ['command', 'blocked', `strictPluginOnlyCustomization blocks skills and commands outside plugins (${file})`],
      ['agent', 'blocked', `strictPluginOnlyCustomization blocks agents outside plugins (${file})`],
    ]);
    t.write('managed/managed-settings.json', { strictPluginOnlyCustomization: true });
    expect(rows(await loadClaudeSources({ workspace: t.workspace }, t.env)).map((r) => r[2])).toEqual([
      'blocked',
      'blocked',
      'blocked',
    ]);
  });

  it('--plugin-dir naming a folder of plugins loads each child with a manifest (2.1.265); before, the folder is the root', async () => {
    t.write('many/b/.claude-plugin/plugin.json', { name: 'b' });
    t.write('many/b/hooks/hooks.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'b' }] }] } });
    t.write('many/a/.claude-plugin/plugin.json', { name: 'a' });
    t.write('many/a/hooks/hooks.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'a' }] }] } });
    t.write('many/notes/readme.md', 'x');
    const load = () => loadClaudeSources({ workspace: t.workspace }, t.env, { pluginDirs: [join(t.root, 'many')] });
    expect((await load()).declarations.map((d) => d.name)).toEqual(['plugin/a:Stop:1.1', 'plugin/b:Stop:1.1']);
    const { useClaudeRelease } = await import('../../src/dialects/claude/releases.js');
    useClaudeRelease('2.1.264');
    try {
      expect((await load()).declarations).toEqual([]);
    } finally {
      useClaudeRelease(undefined);
    }
  });

  it('shell-form ${user_config.*} is refused from 2.1.207; before, accepted and skipped', async () => {
    const { useClaudeRelease } = await import('../../src/dialects/claude/releases.js');
    t.write('plug/.claude-plugin/plugin.json', { name: 'p' });
    t.write('plug/hooks/hooks.json', {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'run ${user_config.TOKEN}' }] }] },
    });
    const load = () => loadClaudeSources({ workspace: t.workspace }, t.env, { pluginDirs: [join(t.root, 'plug')] });
    expect((await load()).diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ['error', 'claude_user_config_shell_form'],
    ]);
    useClaudeRelease('2.1.206');
    try {
      const old = await load();
      expect(old.diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'claude_user_config_unavailable']]);
      expect(old.declarations.map((d) => [d.status, claudeExtra(d).runnable])).toEqual([['active', false]]);
    } finally {
      useClaudeRelease(undefined);
    }
  });
});

describe('plugin paths through symbolic links (2.1.257)', () => {
  it('a hook file linked from outside the root is path_escapes_root; before 2.1.257 it loads', async () => {
    const { symlinkSync } = await import('node:fs');
    const { useClaudeRelease } = await import('../../src/dialects/claude/releases.js');
    const outside = t.write('outside/hooks.json', {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x' }] }] },
    });
    t.write('plug/.claude-plugin/plugin.json', { name: 'p', hooks: './extra.json' });
    mkdirSync(join(t.root, 'plug/hooks'), { recursive: true });
    symlinkSync(outside, join(t.root, 'plug/hooks/hooks.json'));
    symlinkSync(outside, join(t.root, 'plug/extra.json'));
    const load = () => loadClaudeSources({ workspace: t.workspace }, t.env, { pluginDirs: [join(t.root, 'plug')] });
    const now = await load();
    expect(now.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['path_escapes_root', 'hooks file "hooks/hooks.json" is outside the plugin root'],
      ['path_escapes_root', 'hooks file "./extra.json" is outside the plugin root'],
    ]);
    expect(now.declarations).toEqual([]);
    useClaudeRelease('2.1.256');
    try {
      const old = await load();
      expect(old.diagnostics).toEqual([]);
      expect(old.declarations.map((d) => [d.name, d.status])).toEqual([
        ['plugin/p:Stop:1.1', 'active'],
        ['plugin/p/extra.json:Stop:1.1', 'active'],
      ]);
    } finally {
      useClaudeRelease(undefined);
    }
  });
});
