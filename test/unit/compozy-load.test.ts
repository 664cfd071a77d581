import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCompozySources, validateCompozyFile } from '../../src/dialects/compozy/sources/load.js';
import type { Diagnostic } from '../../src/declarations/diagnostics.js';
import { orderDeclarations } from '../../src/dialects/compozy/rules/ordering.js';
import type { Locations } from '../../src/paths.js';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/compozy');

function locationsFor(root: string, over: Partial<Locations> = {}): Locations {
  return {
    compozyHome: join(root, 'home'),
    coshHome: join(root, 'cosh'),
    coshSystemRoot: join(root, 'system'),
    workspace: join(root, 'workspace'),
    additionalDirs: [],
    bundledSkillsDir: join(root, 'bundled'),
    pluginDirs: [],
    stateDir: join(root, 'state'),
    ...over,
  };
}

const codes = (ds: Diagnostic[]) => ds.map((d) => d.code);

describe('loadCompozySources over the fixture tree', () => {
  const loc = locationsFor(FIXTURES);

  it('reads every source, applies the overlay and the marketplace allowlist, and orders them', async () => {
    const { declarations, diagnostics, files } = await loadCompozySources(loc, { PATH: '/usr/bin' });
    const ordered = orderDeclarations(declarations);
    expect(ordered.map((d) => [d.event, d.order, d.name, d.source, d.skill_source ?? null, d.status])).toEqual([
      ['input.pre_submit', 1, 'guard-hook', 'extension', null, 'active'],
      ['prompt.post_assemble', 1, 'context-hook', 'extension', null, 'active'],
      ['prompt.post_assemble', 2, 'plan-context', 'agent_definition', null, 'active'],
      ['session.post_create', 1, 'global-only', 'config', null, 'active'],
      ['session.post_create', 2, 'notify', 'skill', 'user', 'active'],
      ['session.post_stop', 1, 'json-hook', 'extension', null, 'active'],
      ['session.post_stop', 2, 'ws-skill#2', 'skill', 'workspace', 'active'],
      ['session.post_stop', 3, 'welcome', 'skill', 'bundled', 'active'],
      ['session.post_stop', 4, 'approved-skill', 'skill', 'marketplace', 'active'],
      ['session.post_stop', null, 'unapproved-skill', 'skill', 'marketplace', 'blocked'],
      ['session.post_stop', 5, 'ws-skill#1', 'skill', 'workspace', 'active'],
      ['task.run.pre_claim', 1, 'ws-gate', 'config', null, 'active'],
      ['tool.pre_call', 1, 'audit', 'config', null, 'active'],
      ['tool.pre_call', null, 'audit', 'config', null, 'overridden'],
    ]);
    expect(diagnostics.map((d) => [d.severity, d.code, d.file.slice(FIXTURES.length)])).toEqual([
      ['warning', 'command_not_found', '/home/extensions/guard/extension.toml'],
      ['warning', 'compozy_metadata_not_a_map', '/home/skills/broken-compozy/SKILL.md'],
    ]);
    expect(files).toContain(join(FIXTURES, 'workspace/.compozy/agents/planner/AGENT.md'));
    expect(files).not.toContain(join(FIXTURES, 'home/agents/planner/AGENT.md'));
    expect(files).toHaveLength(14);
  });

  it('resolves each declaration as the runtime would', async () => {
    const { declarations } = await loadCompozySources(loc, { PATH: '/usr/bin' });
    const byName = (name: string, status = 'active') =>
      declarations.find((d) => d.name === name && d.status === status)!;
    expect(byName('audit')).toMatchObject({
      priority: 650,
      timeout_ms: 3000,
      mode: 'sync',
      matcher: { tool_id: '*', tool_read_only: false },
      command: '/usr/bin/env',
      args: ['bash', './hooks/audit.sh'],
      env: { POLICY: 'strict' },
      cwd: join(FIXTURES, 'workspace'),
      location: { file: join(FIXTURES, 'workspace/.compozy/config.toml'), line: 1 },
    });
    expect(byName('audit', 'overridden').why).toContain('workspace/.compozy/config.toml:1');
    expect(byName('ws-gate')).toMatchObject({
      required: true,
      matcher: { workspace_id: 'ws_checkout', workflow_id: 'release-*' },
    });
    expect(byName('context-hook')).toMatchObject({
      command: 'node',
      args: ['dist/index.js', 'hook', 'prompt_post_assemble'],
      cwd: join(FIXTURES, 'home/extensions/prompt-helper'),
      metadata: { extension: 'prompt-helper' },
      extension: 'prompt-helper',
      location: { line: 13 },
    });
    expect(byName('guard-hook').command).toBe(join(FIXTURES, 'home/extensions/guard/bin/guard'));
    expect(byName('json-hook')).toMatchObject({
      command: join(FIXTURES, 'home/extensions/json-ext/run.sh'),
      args: [`--root=${join(FIXTURES, 'home/extensions/json-ext')}`],
      location: { line: 5 },
    });
    expect(byName('plan-context')).toMatchObject({
      mode: 'sync',
      timeout_ms: 5000,
      matcher: { input_class: 'user', agent_name: 'planner' },
      location: { file: join(FIXTURES, 'workspace/.compozy/agents/planner/AGENT.md'), line: 9 },
    });
    expect(byName('notify')).toMatchObject({
      timeout_ms: 2000,
      args: ['-c', 'echo hello'],
      env: { GREETING: 'hello' },
      cwd: join(FIXTURES, 'workspace'),
    });
  });
});

describe('loadCompozySources over temporary trees', () => {
  let root: string;
  let loc: Locations;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'hookctl-compozy-'));
    loc = locationsFor(root, { additionalDirs: [join(root, 'extra')] });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function write(rel: string, text: string | Buffer): Promise<string> {
    const file = join(root, rel);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    return file;
  }

  const load = (env: NodeJS.ProcessEnv = {}) => loadCompozySources(loc, env);

  it('an empty world is empty', async () => {
    expect(await load()).toEqual({ declarations: [], diagnostics: [], files: [] });
  });

  it('a repeated name within one file: the later replaces the earlier, with a warning', async () => {
    await write(
      'home/config.toml',
      '[[hooks.declarations]]\nname = "dup"\nevent = "tool.pre_call"\ncommand = "a"\n\n[[hooks.declarations]]\nname = "dup"\nevent = "tool.pre_call"\ncommand = "b"\n',
    );
    const { declarations, diagnostics } = await load();
    expect(declarations.map((d) => [d.command, d.status])).toEqual([
      ['a', 'overridden'],
      ['b', 'active'],
    ]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'duplicate_hook_name',
        line: 6,
        hook: 'dup',
        source: 'config',
      }),
    ]);
    expect(diagnostics[0]!.message).toBe(
      'hooks: duplicate hook name "dup": the declaration at line 6 replaces the one at line 1',
    );
  });

  it('a TOML syntax error is one diagnostic with line and column; other files are still read', async () => {
    await write('home/config.toml', '[[hooks.declarations]]\nname = "a"\nevent = = "x"\n');
    await write(
      'workspace/.compozy/config.toml',
      '[[hooks.declarations]]\nname = "ok"\nevent = "tool.pre_call"\ncommand = "x"\n',
    );
    const { declarations, diagnostics } = await load();
    expect(declarations.map((d) => d.name)).toEqual(['ok']);
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'toml_parse_error', line: 3, column: 9, file: join(root, 'home/config.toml') }),
    ]);
  });

  it('binary and unreadable files are diagnostics, never throws', async () => {
    await write('home/config.toml', Buffer.from([0x5b, 0x00, 0x01, 0x02]));
    await mkdir(join(root, 'workspace/.compozy/config.toml'), { recursive: true });
    await write('home/skills/bin-skill/SKILL.md', Buffer.from('---\nname: x\n\u0000---\n'));
    await write(
      'home/skills/ok/SKILL.md',
      '---\nname: ok\nmetadata:\n  compozy:\n    hooks:\n      - event: session.post_stop\n        command: /bin/true\n---\n',
    );
    const { declarations, diagnostics } = await load();
    expect(declarations.map((d) => d.name)).toEqual(['ok']);
    expect(codes(diagnostics).sort()).toEqual(['binary_file', 'binary_file', 'file_unreadable']);
  });

  it('10,000 config declarations load without anything quadratic', async () => {
    let text = '';
    for (let i = 0; i < 10_000; i++) {
      text += `[[hooks.declarations]]\nname = "h${i}"\nevent = "tool.pre_call"\ncommand = "/bin/true"\nargs = ["a", "b"]\n\n[hooks.declarations.matcher]\ntool_id = "x*"\n\n`;
    }
    text += '[[hooks.declarations]]\nname = "last"\nevent = "tool.pre_call"\ncommand = "x"\nmode = "wrong"\n';
    await write('home/config.toml', text);
    const start = performance.now();
    const { declarations, diagnostics } = await load();
    const ordered = orderDeclarations(declarations);
    const elapsed = performance.now() - start;
    // the broken one is kept, as invalid and with no order (SPEC §7.2)
    expect(ordered).toHaveLength(10_001);
    expect(ordered.filter((d) => d.status === 'invalid').map((d) => [d.name, d.order])).toEqual([['last', null]]);
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'invalid_mode', line: 90_005 })]);
    expect(ordered[0]!.location.line).toBe(1);
    expect(elapsed).toBeLessThan(3000);
  });

  it('other tables of config.toml are not ours; wrong section types are', async () => {
    await write(
      'home/config.toml',
      '[daemon]\nx = 1\n[hooks]\nasync_workers = 4\n[providers.codex]\ncommand = "codex"\n',
    );
    expect(await load()).toMatchObject({ declarations: [], diagnostics: [] });
    await write('home/config.toml', 'hooks = "nope"\n');
    expect(codes((await load()).diagnostics)).toEqual(['invalid_section']);
    await write('home/config.toml', '[hooks]\ndeclarations = { name = "x" }\n');
    expect((await load()).diagnostics).toEqual([expect.objectContaining({ code: 'invalid_section', line: 2 })]);
  });

  describe('extensions', () => {
    const manifest = (command: string, extra = '') =>
      `[extension]\nname = "ext"\nversion = "0.1.0"\n[[resources.hooks]]\nname = "h"\nevent = "tool.pre_call"\ncommand = ${JSON.stringify(command)}\n${extra}`;

    it('extension.toml is preferred over extension.json', async () => {
      await write('home/extensions/e/extension.toml', manifest('/bin/from-toml'));
      await write(
        'home/extensions/e/extension.json',
        '{"extension":{"name":"ext","version":"0.1.0"},"resources":{"hooks":[{"name":"h","event":"tool.pre_call","command":"/bin/from-json"}]}}',
      );
      const { declarations, files } = await load();
      expect(declarations.map((d) => d.command)).toEqual(['/bin/from-toml']);
      expect(files).toEqual([join(root, 'home/extensions/e/extension.toml')]);
    });

    it('an absolute command stays; a bare name stays for PATH; a relative one resolves inside the root', async () => {
      await write('home/extensions/a/extension.toml', manifest('/usr/bin/env'));
      await write('home/extensions/b/extension.toml', manifest('node'));
      await write('home/extensions/c/extension.toml', manifest('./bin/tool'));
      await write('home/extensions/c/bin/tool', '#!/bin/sh\n');
      await write('home/extensions/d/extension.toml', manifest('bin/tool'));
      await write('home/extensions/d/bin/tool', '#!/bin/sh\n');
      const { declarations, diagnostics } = await load();
      expect(diagnostics).toEqual([]);
      expect(declarations.map((d) => [d.command, d.cwd])).toEqual([
        ['/usr/bin/env', join(root, 'home/extensions/a')],
        ['node', join(root, 'home/extensions/b')],
        [join(root, 'home/extensions/c/bin/tool'), join(root, 'home/extensions/c')],
        [join(root, 'home/extensions/d/bin/tool'), join(root, 'home/extensions/d')],
      ]);
    });

    it('a command escaping the root by .. is refused', async () => {
      await write('home/extensions/e/extension.toml', manifest('../other/tool'));
      const { declarations, diagnostics } = await load();
      // kept only to be shown, as invalid (SPEC §7.2)
      expect(declarations.map((d) => d.status)).toEqual(['invalid']);
      const extRoot = join(root, 'home/extensions/e');
      expect(diagnostics).toEqual([
        expect.objectContaining({
          code: 'path_escapes_root',
          line: 7,
          message: `path "../other/tool" escapes extension root "${extRoot}"`,
        }),
      ]);
    });

    it('a command escaping the root through a symbolic link is refused', async () => {
      await write('outside/tool', '#!/bin/sh\n');
      await write('home/extensions/e/extension.toml', manifest('./bin/tool'));
      await symlink(join(root, 'outside'), join(root, 'home/extensions/e/bin'));
      await write('home/extensions/f/extension.toml', manifest('./link'));
      await symlink(join(root, 'outside/tool'), join(root, 'home/extensions/f/link'));
      const { declarations, diagnostics } = await load();
      expect(declarations.map((d) => d.status)).toEqual(['invalid', 'invalid']);
      expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
        ['path_escapes_root', `path "./bin/tool" escapes extension root "${join(root, 'home/extensions/e')}"`],
        ['path_escapes_root', `path "./link" escapes extension root "${join(root, 'home/extensions/f')}"`],
      ]);
    });

    it('a link that stays inside the root is fine, even when the root itself is reached through a link', async () => {
      await write('real-ext/extension.toml', manifest('./bin/tool'));
      await write('real-ext/tools/tool', '#!/bin/sh\n');
      await symlink(join(root, 'real-ext/tools'), join(root, 'real-ext/bin'));
      await mkdir(join(root, 'home/extensions'), { recursive: true });
      await symlink(join(root, 'real-ext'), join(root, 'home/extensions/linked'));
      const { declarations, diagnostics } = await load();
      expect(diagnostics).toEqual([]);
      expect(declarations.map((d) => d.command)).toEqual([join(root, 'home/extensions/linked/bin/tool')]);
    });

    it('{{config_dir}} commands are checked after expansion; {{env:...}} too', async () => {
      await write('home/extensions/e/extension.toml', manifest('{{config_dir}}/../escape'));
      await write('home/extensions/f/extension.toml', manifest('{{config_dir}}/run'));
      await write('home/extensions/f/run', '#!/bin/sh\n');
      await write('home/extensions/g/extension.toml', manifest('{{env:TOOL}}'));
      const { declarations, diagnostics } = await load({ TOOL: '/usr/bin/tool' });
      const valid = declarations.filter((d) => d.status !== 'invalid');
      expect(valid.map((d) => d.command)).toEqual([join(root, 'home/extensions/f/run')]);
      expect(diagnostics.map((d) => d.message)).toEqual([
        `path "${join(root, 'home/extensions/e')}/../escape" escapes extension root "${join(root, 'home/extensions/e')}"`,
        `path "/usr/bin/tool" escapes extension root "${join(root, 'home/extensions/g')}"`,
      ]);
    });

    it('a relative command that does not exist is only a warning', async () => {
      await write('home/extensions/e/extension.toml', manifest('./bin/missing'));
      const { declarations, diagnostics } = await load();
      expect(declarations).toHaveLength(1);
      expect(diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'command_not_found']]);
    });

    it('template errors name the field', async () => {
      await write(
        'home/extensions/e/extension.toml',
        manifest('x', 'args = ["{{env:GITHUB_TOKEN}}"]\nenv = { A = "{{config_dir" }\n'),
      );
      const { diagnostics } = await load();
      expect(diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
        ['env_template_secret', 8, 'env template "GITHUB_TOKEN" must use secret_env'],
        ['invalid_env_template', 9, 'invalid env template "{{config_dir"'],
      ]);
    });

    it('a manifest without a name keeps none of its hooks', async () => {
      await write(
        'home/extensions/e/extension.toml',
        '[extension]\nversion = "1.0.0"\n[[resources.hooks]]\nname = "h"\nevent = "tool.pre_call"\ncommand = "x"\n',
      );
      const { declarations, diagnostics } = await load();
      expect(declarations).toEqual([]);
      expect(codes(diagnostics)).toEqual(['extension_name_required']);
    });

    it('a JSON syntax error has line and column', async () => {
      await write(
        'home/extensions/e/extension.json',
        '{\n  "extension": {"name": "e", "version": "1.0.0"},\n  "resources": {"hooks": [,]}\n}\n',
      );
      const { diagnostics } = await load();
      expect(diagnostics).toEqual([expect.objectContaining({ code: 'json_parse_error', line: 3 })]);
      expect(diagnostics[0]!.column).toBeGreaterThan(1);
    });

    it('extension.json hooks have key lines', async () => {
      await write(
        'home/extensions/e/extension.json',
        '{\n  "extension": {"name": "e", "version": "1.0.0"},\n  "resources": {\n    "hooks": [\n      {\n        "name": "h",\n        "event": "tool.pre_call",\n        "command": "x",\n        "mode": "eager"\n      }\n    ]\n  }\n}\n',
      );
      const { diagnostics } = await load();
      expect(diagnostics).toEqual([
        expect.objectContaining({
          code: 'invalid_mode',
          line: 9,
          column: 9,
          message: 'hooks: invalid hook mode "eager"',
        }),
      ]);
    });
  });

  describe('agents', () => {
    const agent = (name: string, hook: string) =>
      `---\nname: ${name}\nhooks:\n  - name: ${hook}\n    event: prompt.post_assemble\n    command: /bin/true\n---\nbody\n`;

    it('the first AGENT.md per agent name wins: workspace, then additional dirs, then home', async () => {
      await write('home/agents/a/AGENT.md', agent('a', 'from-home'));
      await write('extra/.compozy/agents/a/AGENT.md', agent('a', 'from-extra'));
      await write('extra/.compozy/agents/b/AGENT.md', agent('b', 'b-from-extra'));
      await write('home/agents/b/AGENT.md', agent('b', 'b-from-home'));
      await write('workspace/.compozy/agents/a/AGENT.md', agent('a', 'from-workspace'));
      await write('home/agents/c/AGENT.md', agent('c', 'c-from-home'));
      const { declarations } = await load();
      expect(declarations.map((d) => d.name).sort()).toEqual(['b-from-extra', 'c-from-home', 'from-workspace']);
    });

    it('name must equal the folder; hook errors are prefixed agent.hooks[<i>]', async () => {
      await write(
        'home/agents/reviewer/AGENT.md',
        '---\nname: other\nhooks:\n  - name: ok\n    event: prompt.post_assemble\n    command: /bin/true\n  - name: bad\n    event: context.pre_compact\n    command: /bin/true\n---\n',
      );
      const { declarations, diagnostics } = await load();
      expect(declarations.map((d) => [d.name, d.status])).toEqual([
        ['ok', 'active'],
        ['bad', 'invalid'],
      ]);
      expect(diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
        ['agent_name_mismatch', 2, 'agent name "other" must match its folder name "reviewer"'],
        [
          'matcher_field_not_allowed',
          7,
          'agent.hooks[1]: hooks: matcher fields [agent_name] are not valid for event "context.pre_compact"',
        ],
      ]);
    });

    it('YAML errors carry file line numbers; a front matter that is not a map is a diagnostic', async () => {
      await write('home/agents/a/AGENT.md', '---\nname: a\nhooks:\n  - name: x\n   bad: indent\n---\n');
      await write('home/agents/b/AGENT.md', '---\njust a string\n---\n');
      await write('home/agents/c/AGENT.md', '---\nname: c\n');
      const { diagnostics } = await load();
      expect(diagnostics.map((d) => [d.code, d.file.slice(root.length), d.line])).toEqual([
        ['yaml_parse_error', '/home/agents/a/AGENT.md', 5],
        ['frontmatter_not_a_map', '/home/agents/b/AGENT.md', 2],
        ['frontmatter_unterminated', '/home/agents/c/AGENT.md', 1],
      ]);
    });

    it('a TOML front matter is accepted', async () => {
      await write(
        'home/agents/t/AGENT.md',
        '+++\nname = "t"\n\n[[hooks]]\nname = "toml-hook"\nevent = "prompt.post_assemble"\ncommand = "/bin/true"\n+++\nbody\n',
      );
      const { declarations, diagnostics } = await load();
      expect(diagnostics).toEqual([]);
      expect(declarations).toEqual([
        expect.objectContaining({
          name: 'toml-hook',
          matcher: { agent_name: 't' },
          location: expect.objectContaining({ line: 4 }),
        }),
      ]);
    });
  });

  describe('skills', () => {
    const skill = (name: string, hooks = 1) =>
      `---\nname: ${name}\nmetadata:\n  compozy:\n    hooks:\n${'      - event: session.post_stop\n        command: /bin/true\n'.repeat(hooks)}---\nbody\n`;

    it('skill sources: bundled, user, additional, workspace; several hooks are numbered', async () => {
      await write('bundled/b/SKILL.md', skill('b'));
      await write('home/skills/u/SKILL.md', skill('u', 2));
      await write('extra/.compozy/skills/x/SKILL.md', skill('x'));
      await write('workspace/.compozy/skills/w/SKILL.md', skill('w'));
      const { declarations } = await load();
      expect(orderDeclarations(declarations).map((d) => [d.name, d.skill_source])).toEqual([
        ['b', 'bundled'],
        ['u#1', 'user'],
        ['u#2', 'user'],
        ['x', 'additional'],
        ['w', 'workspace'],
      ]);
    });

    it.each([
      ['slug', '["market"]', 'active'],
      ['registry:slug', '["acme:market"]', 'active'],
      ['hash', '["sha256:abcd"]', 'active'],
      ['another registry', '["other:market"]', 'blocked'],
      ['nothing', '[]', 'blocked'],
    ])('marketplace allowlist by %s', async (_what, allowlist, status) => {
      await write('home/config.toml', `[skills]\nallowed_marketplace_hooks = ${allowlist}\n`);
      await write('home/skills/market/SKILL.md', skill('market'));
      await write('home/skills/market/.compozy-meta.json', '{"registry":"acme","slug":"market","hash":"sha256:abcd"}');
      const { declarations, diagnostics } = await load();
      expect(diagnostics).toEqual([]);
      expect(declarations.map((d) => [d.skill_source, d.status])).toEqual([['marketplace', status]]);
      if (status === 'blocked') expect(declarations[0]!.why).toContain('skills.allowed_marketplace_hooks');
    });

    it('the allowlist is read from the global config only; a broken sidecar keeps hooks blocked', async () => {
      await write('workspace/.compozy/config.toml', '[skills]\nallowed_marketplace_hooks = ["market", "broken"]\n');
      await write('home/skills/market/SKILL.md', skill('market'));
      await write('home/skills/market/.compozy-meta.json', '{"registry":"acme","slug":"market"}');
      await write('home/skills/broken/SKILL.md', skill('broken'));
      await write('home/skills/broken/.compozy-meta.json', '{not json');
      const { declarations, diagnostics } = await load();
      expect(declarations.map((d) => [d.name, d.status])).toEqual([
        ['broken', 'blocked'],
        ['market', 'blocked'],
      ]);
      expect(codes(diagnostics)).toEqual(['marketplace_sidecar_invalid']);
    });

    it('a global allowlist that is not a list of strings warns', async () => {
      await write('home/config.toml', '[skills]\nallowed_marketplace_hooks = "market"\n');
      expect((await load()).diagnostics).toEqual([
        expect.objectContaining({ code: 'invalid_marketplace_allowlist', severity: 'warning', line: 2 }),
      ]);
    });

    it('name is required when hooks are declared; metadata.compozy.hooks must be a list', async () => {
      await write(
        'home/skills/a/SKILL.md',
        '---\nmetadata:\n  compozy:\n    hooks:\n      - event: session.post_stop\n        command: x\n---\n',
      );
      await write('home/skills/b/SKILL.md', '---\nname: b\nmetadata:\n  compozy:\n    hooks: nope\n---\n');
      const { declarations, diagnostics } = await load();
      expect(declarations).toEqual([]);
      expect(diagnostics.map((d) => [d.code, d.line])).toEqual([
        ['skill_name_required', 2],
        ['invalid_section', 5],
      ]);
    });

    it('skills that cannot declare hooks are not parsed at all; one with no front matter is refused', async () => {
      await write('home/skills/plain/SKILL.md', '---\nname: plain\ndescription: [unclosed\n---\n');
      await write('home/skills/none/SKILL.md', 'no front matter at all\n');
      const { declarations, diagnostics, files } = await load();
      expect(declarations).toEqual([]);
      expect(diagnostics.map((d) => [d.file.endsWith('none/SKILL.md'), d.code, d.severity])).toEqual([
        [true, 'frontmatter_missing', 'error'],
      ]);
      expect(files).toHaveLength(2);
    });

    it('loads 4,000 SKILL.md files well under a second', async () => {
      const dir = join(root, 'home/skills');
      await Promise.all(
        Array.from({ length: 4000 }, (_, i) =>
          write(
            `home/skills/s${i}/SKILL.md`,
            i % 10 === 0
              ? skill(`s${i}`)
              : `---\nname: s${i}\ndescription: Skill number ${i} does things.\n---\n\n# Skill ${i}\n\n${'Some body text. '.repeat(40)}\n`,
          ),
        ),
      );
      expect(dir).toBeTruthy();
      await load(); // warm the file cache and the modules
      const start = performance.now();
      const { declarations, files } = await load();
      const elapsed = performance.now() - start;
      expect(files).toHaveLength(4000);
      expect(declarations).toHaveLength(400);
      expect(elapsed).toBeLessThan(1500); // ~150 ms alone; generous for a loaded CI machine
    });
  });
});

describe('validateCompozyFile', () => {
  let root: string;
  let loc: Locations;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'hookctl-validate-'));
    loc = locationsFor(root);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function write(rel: string, text: string): Promise<string> {
    const file = join(root, rel);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    return file;
  }

  it('tells the kind by name and content', async () => {
    const cfg = await write(
      'any/config.toml',
      '[[hooks.declarations]]\nname = "a"\nevent = "tool.pre_call"\ncommand = "x"\n',
    );
    expect((await validateCompozyFile(cfg, loc, {})).declarations.map((d) => d.source)).toEqual(['config']);
    const custom = await write(
      'any/my-hooks.toml',
      '[[hooks.declarations]]\nname = "b"\nevent = "tool.pre_call"\ncommand = "x"\n',
    );
    expect((await validateCompozyFile(custom, loc, {})).declarations.map((d) => d.name)).toEqual(['b']);
    const ext = await write(
      'e1/extension.json',
      '{"extension":{"name":"e1","version":"1.0.0"},"resources":{"hooks":[{"name":"c","event":"tool.pre_call","command":"node"}]}}',
    );
    expect((await validateCompozyFile(ext, loc, {})).declarations.map((d) => [d.name, d.cwd])).toEqual([
      ['c', join(root, 'e1')],
    ]);
  });

  it('AGENT.md takes its agent from the parent folder', async () => {
    const file = await write('agents/planner/AGENT.md', '---\nname: reviewer\n---\n');
    expect(codes((await validateCompozyFile(file, loc, {})).diagnostics)).toEqual(['agent_name_mismatch']);
  });

  it('a SKILL.md is parsed thoroughly and a marketplace one is checked against the global allowlist', async () => {
    const bad = await write('s/plain/SKILL.md', '---\nname: plain\ndescription: [unclosed\n---\n');
    expect(codes((await validateCompozyFile(bad, loc, {})).diagnostics)).toEqual(['yaml_parse_error']);
    const market = await write(
      'home/skills/m/SKILL.md',
      '---\nname: m\nmetadata:\n  compozy:\n    hooks:\n      - event: session.post_stop\n        command: x\n---\n',
    );
    await write('home/skills/m/.compozy-meta.json', '{"slug":"m"}');
    expect((await validateCompozyFile(market, loc, {})).declarations.map((d) => [d.skill_source, d.status])).toEqual([
      ['marketplace', 'blocked'],
    ]);
    await write('home/config.toml', '[skills]\nallowed_marketplace_hooks = ["m"]\n');
    expect((await validateCompozyFile(market, loc, {})).declarations.map((d) => d.status)).toEqual(['active']);
    const ws = await write(
      'workspace/.compozy/skills/w/SKILL.md',
      '---\nname: w\nmetadata:\n  compozy:\n    hooks:\n      - event: session.post_stop\n        command: x\n---\n',
    );
    expect((await validateCompozyFile(ws, loc, {})).declarations.map((d) => d.skill_source)).toEqual(['workspace']);
  });

  it('an unknown kind and a missing file are diagnostics', async () => {
    const notes = await write('notes.txt', 'hello');
    expect((await validateCompozyFile(notes, loc, {})).diagnostics).toEqual([
      expect.objectContaining({
        code: 'unknown_file_kind',
        severity: 'error',
        line: 1,
        message:
          'cannot tell what kind of declaration file "notes.txt" is (expected config.toml, extension.toml, extension.json, AGENT.md or SKILL.md)',
      }),
    ]);
    expect(codes((await validateCompozyFile(join(root, 'gone/config.toml'), loc, {})).diagnostics)).toEqual([
      'file_unreadable',
    ]);
  });
});
