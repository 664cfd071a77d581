// Real declaration files from the runtimes' public repositories, read by the built CLI: each file
// alone through `hooks validate FILE`, and all of them as a home, listed hook by hook.
// The files are not copied into the project: this conformance check runs only when
// HOOKCTL_REAL_WORLD_DIR names a folder of them (`npm run test:real-world` points it at
// ../shared/real-world); otherwise it is skipped.
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, repoRoot, runCli, limited } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const RW = process.env.HOOKCTL_REAL_WORLD_DIR;
const rw = (...p: string[]) => resolve(repoRoot, RW ?? '.', ...p);
/** How hookctl shows these paths: relative to the cwd (the repo) when inside it, else absolute. */
const SHOWN = rw().startsWith(repoRoot + sep) ? relative(repoRoot, rw()) : rw();

const realWorldEnv = () =>
  isolatedEnv({
    compozyHome: rw('compozy'),
    coshHome: rw('cosh'),
    systemRoot: tempDir('hookctl-rw-sys-'),
  });
const workspace = () => ['--workspace', tempDir('hookctl-rw-ws-')];

interface JsonDiagnostic {
  severity: string;
  code: string;
  message: string;
  file: string;
  line: number;
}

interface Entry {
  order: number | null;
  name: string;
  event: string;
  dialect: string;
  source: string;
  skill_source: string | null;
  mode: string;
  required: boolean;
  priority: number;
  timeout_ms: number;
  executor_kind: string;
  matcher: Record<string, string | boolean>;
  metadata: Record<string, string>;
  enabled: boolean;
  location: { file: string; line: number };
}

interface InfoDeclaration extends Entry {
  command: string;
  args: string[];
  env: string[];
  cwd: string;
  extension: string | null;
  description: string | null;
}

/** Each file alone: [severity, code, line, message] of every diagnostic. */
const PER_FILE: Record<string, [string, string, number, string][]> = {
  'compozy/extensions/prompt-enhancer/extension.toml': [],
  'compozy/extensions/secret-guard/extension.toml': [
    [
      'warning',
      'command_not_found',
      18,
      `hooks: hook "secret-guard-hook" command "${rw('compozy/extensions/secret-guard/bin/secret-guard')}" does not exist in extension root "${rw('compozy/extensions/secret-guard')}"; firing it will fail`,
    ],
  ],
  'compozy/skills/hooks-only/SKILL.md': [],
  'compozy/skills/combined/SKILL.md': [],
  'compozy/skills/compozy/SKILL.md': [],
  'compozy/skills/invalid-hook/SKILL.md': [['error', 'invalid_event', 7, 'hooks: invalid hook event "foo.bar"']],
  'compozy/skills/invalid-hook-command/SKILL.md': [['error', 'command_required', 7, 'command is required']],
  'compozy/skills/malformed-compozy/SKILL.md': [
    ['warning', 'compozy_metadata_not_a_map', 5, 'metadata.compozy must be a map; the skill contributes no hooks'],
  ],
  'compozy/agents/code_implementer/AGENT.md': [],
  'compozy/agents/pr-release-reviewer/AGENT.md': [],
  'compozy/agents/reviewer/AGENT.md': [],
  'cosh/extensions/agent-sec-core/cosh-extension.json': [],
  'cosh/extensions/tokenless/cosh-extension.json': [],
  'cosh/extensions/os-skills/cosh-extension.json': [],
};

/**
 * Claude Code files (claude/<owner>__<repo>/, each a configuration Claude Code loads), each alone:
 * the lines of each diagnostic code. None is an error: what the docs do not name is a warning at
 * most (unknown keys, a timeout over an hour), and the unquoted `argument-hint: [...] [...]` of
 * ralph-impl is read on Claude Code's second pass (claude.md §2.1.1).
 */
// The corpus keeps the declaration files, not the scripts they run: a hook whose script is
// missing is claude_command_not_found (issue 28), as it would be in a checkout without them.
const CLAUDE_PER_FILE: Record<string, Record<string, number[]>> = {
  'claude/1Password__agent-hooks/.claude/settings.json': { claude_command_not_found: [9] },
  'claude/affaan-m__everything-claude-code/.claude-plugin/plugin.json': {},
  'claude/affaan-m__everything-claude-code/hooks/hooks.json': {
    claude_unknown_key: [
      13, 14, 24, 25, 35, 36, 48, 49, 60, 61, 72, 73, 83, 84, 95, 96, 108, 109, 121, 122, 136, 137, 149, 150, 161, 162,
      172, 173, 183, 184, 195, 196, 207, 208, 220, 221, 232, 233, 244, 245, 257, 258, 271, 272, 282, 283, 295, 296, 308,
      309, 321, 322, 334, 335, 349, 350,
    ],
  },
  'claude/anthropics__claude-plugins-official/plugins/explanatory-output-style/.claude-plugin/plugin.json': {},
  'claude/anthropics__claude-plugins-official/plugins/explanatory-output-style/hooks/hooks.json': {},
  'claude/anthropics__claude-plugins-official/plugins/hookify/.claude-plugin/plugin.json': {},
  'claude/anthropics__claude-plugins-official/plugins/hookify/hooks/hooks.json': {},
  'claude/anthropics__claude-plugins-official/plugins/learning-output-style/.claude-plugin/plugin.json': {},
  'claude/anthropics__claude-plugins-official/plugins/learning-output-style/hooks/hooks.json': {},
  'claude/anthropics__claude-plugins-official/plugins/ralph-loop/.claude-plugin/plugin.json': {},
  'claude/anthropics__claude-plugins-official/plugins/ralph-loop/hooks/hooks.json': {},
  'claude/anthropics__claude-plugins-official/plugins/security-guidance/.claude-plugin/plugin.json': {},
  'claude/anthropics__claude-plugins-official/plugins/security-guidance/hooks/hooks.json': {
    claude_unknown_key: [42, 43, 50, 51, 58, 59, 66, 67, 74, 75, 88, 89],
  },
  'claude/backnotprop__plannotator/apps/hook/.claude-plugin/plugin.json': {},
  'claude/backnotprop__plannotator/apps/hook/hooks/hooks.json': { claude_timeout_looks_like_ms: [10] },
  'claude/cdubiel08__ralph-hero/plugin/ralph-hero/.claude-plugin/plugin.json': {},
  'claude/cdubiel08__ralph-hero/plugin/ralph-hero/hooks/hooks.json': {
    claude_unknown_key: [4, 5],
    claude_command_not_found: [13, 21, 32, 36, 40, 49, 53, 62, 71, 80, 84, 93, 104, 108, 117, 126, 135, 139, 148],
  },
  'claude/cdubiel08__ralph-hero/plugin/ralph-hero/skills/ralph-impl/SKILL.md': {
    claude_frontmatter_requoted: [4],
    claude_command_not_found: [11, 16, 18, 22, 26, 28, 33, 37, 41, 43],
  },
  'claude/cdubiel08__ralph-hero/plugin/ralph-hero/skills/ralph-review/SKILL.md': {
    claude_command_not_found: [11, 16, 20, 24, 29, 33, 35],
  },
  'claude/cdubiel08__ralph-hero/plugin/ralph-hero/skills/setup/SKILL.md': { claude_command_not_found: [10] },
  'claude/cdubiel08__ralph-hero/plugin/ralph-hero/skills/team/SKILL.md': {
    claude_command_not_found: [28, 33, 37, 39, 43, 47, 49, 53, 57],
  },
  'claude/karanb192__claude-code-hooks/plugins/block-dangerous-commands/.claude-plugin/plugin.json': {},
  'claude/karanb192__claude-code-hooks/plugins/block-dangerous-commands/hooks/hooks.json': {},
  'claude/karanb192__claude-code-hooks/plugins/config-watch/.claude-plugin/plugin.json': {},
  'claude/karanb192__claude-code-hooks/plugins/config-watch/hooks/hooks.json': {},
  'claude/karanb192__claude-code-hooks/plugins/instructions-audit/.claude-plugin/plugin.json': {},
  'claude/karanb192__claude-code-hooks/plugins/instructions-audit/hooks/hooks.json': {},
  'claude/karanb192__claude-code-hooks/plugins/notify-permission/.claude-plugin/plugin.json': {},
  'claude/karanb192__claude-code-hooks/plugins/notify-permission/hooks/hooks.json': {},
  'claude/karanb192__claude-code-hooks/plugins/protect-secrets/.claude-plugin/plugin.json': {},
  'claude/karanb192__claude-code-hooks/plugins/protect-secrets/hooks/hooks.json': {},
  'claude/karanb192__claude-code-hooks/plugins/standup-autopilot/.claude-plugin/plugin.json': {},
  'claude/karanb192__claude-code-hooks/plugins/standup-autopilot/hooks/hooks.json': {},
  'claude/mksglu__context-mode/.claude-plugin/hooks/hooks.json': {},
  'claude/mksglu__context-mode/.claude-plugin/plugin.json': {},
  'claude/mksglu__context-mode/hooks/hooks.json': {},
  'claude/obra__superpowers/.claude-plugin/plugin.json': {},
  'claude/obra__superpowers/hooks/hooks.json': { claude_command_not_found: [9] },
  'claude/obra__superpowers/skills/using-superpowers/SKILL.md': {},
  'claude/ruvnet__claude-flow/.claude/settings.json': { claude_unknown_key: [44, 54, 64, 74] },
  'claude/severity1__claude-code-prompt-improver/.claude-plugin/plugin.json': {},
  'claude/severity1__claude-code-prompt-improver/hooks/hooks.json': { claude_unknown_key: [5, 10, 17] },
  'claude/thedotmack__claude-mem/plugin/.claude-plugin/plugin.json': {},
  'claude/thedotmack__claude-mem/plugin/hooks/hooks.json': {},
  'claude/affaan-m__everything-claude-code/.claude-plugin/marketplace.json': {},
  'claude/backnotprop__plannotator/.claude-plugin/marketplace.json': {},
  'claude/cdubiel08__ralph-hero/.claude-plugin/marketplace.json': {},
  'claude/karanb192__claude-code-hooks/.claude-plugin/marketplace.json': {},
  'claude/mksglu__context-mode/.claude-plugin/marketplace.json': {},
  'claude/obra__superpowers/.claude-plugin/marketplace.json': {},
  'claude/thedotmack__claude-mem/.claude-plugin/marketplace.json': {},
};

describe.skipIf(!RW)('real-world files, each named on the command line', { timeout: 180_000 }, () => {
  it('every file gives what the runtimes expect: valid ones are clean, broken ones name their problem', async () => {
    const files = Object.keys(PER_FILE);
    const env = realWorldEnv();
    const results = await limited(
      files.map((f) => () => runCli(['hooks', 'validate', rw(f), ...workspace(), '-o', 'json'], { env })),
    );
    results.forEach((r, i) => {
      const file = files[i]!;
      const expected = PER_FILE[file]!;
      expect(r.stderr, file).toBe('');
      expect(r.code, file).toBe(expected.some(([severity]) => severity === 'error') ? 1 : 0);
      const report = JSON.parse(r.stdout) as { files: string[]; diagnostics: JsonDiagnostic[] };
      expect(report.files, file).toEqual([`${SHOWN}/${file}`]);
      expect(
        report.diagnostics.map((d) => [d.severity, d.code, d.line, d.message]),
        file,
      ).toEqual(expected);
      for (const d of report.diagnostics) expect(d.file).toBe(`${SHOWN}/${file}`);
    });
  });

  it('the copies are the files the runtimes ship (none is missing from the table)', async () => {
    const { readdirSync } = await import('node:fs');
    const found: string[] = [];
    const walk = (dir: string, rel: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(dir, e.name), `${rel}${e.name}/`);
        else if (rel !== '') found.push(`${rel}${e.name}`);
      }
    };
    walk(rw(), '');
    // claude/ folders also hold each repository's licence and SOURCE.md, which declare nothing.
    const declarations = found.filter((f) => !/^claude\/.*\/(SOURCE\.md|LICENSE[^/]*)$/.test(f));
    expect(declarations.sort()).toEqual([...Object.keys(PER_FILE), ...Object.keys(CLAUDE_PER_FILE)].sort());
  });
});

describe.skipIf(!RW)('real-world files as a home', { timeout: 180_000 }, () => {
  it('validate reports exactly the broken skills and the missing binary, exit 1', async () => {
    const r = await runCli(['hooks', 'validate', ...workspace(), '-o', 'json'], { env: realWorldEnv() });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      files: string[];
      errors: number;
      warnings: number;
      diagnostics: JsonDiagnostic[];
    };
    expect(report.files.length).toBe(14);
    expect([report.errors, report.warnings]).toEqual([2, 2]);
    expect(report.diagnostics.map((d) => [d.file.slice(SHOWN.length + 1), d.line, d.code])).toEqual([
      ['compozy/extensions/secret-guard/extension.toml', 18, 'command_not_found'],
      ['compozy/skills/invalid-hook-command/SKILL.md', 7, 'command_required'],
      ['compozy/skills/invalid-hook/SKILL.md', 7, 'invalid_event'],
      ['compozy/skills/malformed-compozy/SKILL.md', 5, 'compozy_metadata_not_a_map'],
    ]);
  });

  it('list shows every valid hook exactly, in dispatch order', async () => {
    const r = await runCli(['hooks', 'list', ...workspace(), '-o', 'json'], { env: realWorldEnv() });
    expect(r.code).toBe(0);
    // the two broken skills are warned about, not listed
    expect(r.stderr).toContain('2 declaration errors');
    const entries = JSON.parse(r.stdout) as Entry[];
    const compozy = entries.filter((e) => e.dialect === 'compozy');
    expect(compozy).toEqual([
      {
        order: 1,
        name: 'hooks-only',
        event: 'session.post_create',
        dialect: 'compozy',
        source: 'skill',
        skill_source: 'user',
        mode: 'async',
        required: false,
        priority: 0,
        timeout_ms: 5000,
        executor_kind: 'subprocess',
        matcher: {},
        metadata: {},
        enabled: true,
        location: { file: `${SHOWN}/compozy/skills/hooks-only/SKILL.md`, line: 7 },
      },
      {
        order: 1,
        name: 'combined',
        event: 'session.post_stop',
        dialect: 'compozy',
        source: 'skill',
        skill_source: 'user',
        mode: 'async',
        required: false,
        priority: 0,
        timeout_ms: 30000,
        executor_kind: 'subprocess',
        matcher: {},
        metadata: {},
        enabled: true,
        location: { file: `${SHOWN}/compozy/skills/combined/SKILL.md`, line: 14 },
      },
      {
        order: 1,
        name: 'secret-guard-hook',
        event: 'input.pre_submit',
        dialect: 'compozy',
        source: 'extension',
        skill_source: null,
        mode: 'sync',
        required: false,
        priority: 300,
        timeout_ms: 5000,
        executor_kind: 'subprocess',
        matcher: {},
        metadata: { extension: 'secret-guard' },
        enabled: true,
        location: { file: `${SHOWN}/compozy/extensions/secret-guard/extension.toml`, line: 13 },
      },
      {
        order: 1,
        name: 'workspace-context',
        event: 'prompt.post_assemble',
        dialect: 'compozy',
        source: 'extension',
        skill_source: null,
        mode: 'sync',
        required: false,
        priority: 300,
        timeout_ms: 5000,
        executor_kind: 'subprocess',
        matcher: {},
        metadata: { extension: 'prompt-enhancer' },
        enabled: true,
        location: { file: `${SHOWN}/compozy/extensions/prompt-enhancer/extension.toml`, line: 13 },
      },
    ]);
    const cosh = entries.filter((e) => e.dialect === 'cosh');
    const row = (e: Entry) => [
      e.event,
      e.order,
      e.name,
      e.source,
      e.mode,
      e.priority,
      e.timeout_ms,
      e.matcher,
      e.metadata.extension,
      e.location.line,
    ];
    const sec = 'agent-sec-core';
    expect(cosh.map(row)).toEqual([
      ['PreToolUse', 1, 'skill-ledger', 'cosh_extension', 'sync', 0, 5000, { tool_name: 'skill' }, sec, 9],
      ['PreToolUse', 2, 'code-scanner', 'cosh_extension', 'sync', 0, 5000, { tool_name: 'run_shell_command' }, sec, 20],
      ['PreToolUse', 3, 'sandbox-guard', 'cosh_extension', 'sync', 0, 5000, {}, sec, 31],
      ['PreToolUse', 4, 'observability-hook', 'cosh_extension', 'sync', 0, 5000, {}, sec, 40],
      // tokenless: an empty matcher matches every tool
      ['PreToolUse', 5, 'tokenless-tool-ready', 'cosh_extension', 'sync', 0, 10000, {}, 'tokenless', 11],
      [
        'PreToolUse',
        6,
        'tokenless-rewrite',
        'cosh_extension',
        'sync',
        0,
        5000,
        { tool_name: '^(Bash|run_shell_command|terminal|Shell|exec|process)$' },
        'tokenless',
        24,
      ],
      ['PostToolUse', 1, 'observability-hook', 'cosh_extension', 'sync', 0, 5000, {}, sec, 110],
      ['PostToolUse', 2, 'tokenless-compress-response', 'cosh_extension', 'sync', 0, 10000, {}, 'tokenless', 38],
      ['PostToolUseFailure', 1, 'sandbox-failure-handler', 'cosh_extension', 'sync', 0, 5000, {}, sec, 123],
      ['PostToolUseFailure', 2, 'observability-hook', 'cosh_extension', 'sync', 0, 5000, {}, sec, 132],
      ['UserPromptSubmit', 1, 'prompt-scanner', 'cosh_extension', 'sync', 0, 10000, {}, sec, 53],
      ['UserPromptSubmit', 2, 'pii-checker', 'cosh_extension', 'sync', 0, 10000, {}, sec, 60],
      ['UserPromptSubmit', 3, 'observability-hook', 'cosh_extension', 'sync', 0, 5000, {}, sec, 71],
      ['Stop', 1, 'observability-hook', 'cosh_extension', 'sync', 0, 5000, {}, sec, 145],
      ['BeforeModel', 1, 'observability-hook', 'cosh_extension', 'sync', 0, 5000, {}, sec, 84],
      ['BeforeModel', 2, 'tokenless-compress-schema', 'cosh_extension', 'sync', 0, 10000, {}, 'tokenless', 52],
      ['AfterModel', 1, 'observability-hook', 'cosh_extension', 'sync', 0, 5000, {}, sec, 97],
    ]);
    for (const e of cosh)
      expect(e.location.file).toMatch(
        new RegExp(
          `^${SHOWN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/cosh/extensions/(agent-sec-core|tokenless)/cosh-extension\\.json$`,
        ),
      );
    // os-skills ships skills only: no hook from it
    expect(entries.some((e) => e.metadata.extension === 'anolisa-os-skills')).toBe(false);
  });

  it('info shows command, args and working directory as the runtimes would run them', async () => {
    const env = realWorldEnv();
    const w = workspace();
    const [prompt, guard, hooksOnly, combined, observability, rewrite, scanner] = await limited(
      [
        'workspace-context',
        'secret-guard-hook',
        'hooks-only',
        'combined',
        'observability-hook',
        'tokenless-rewrite',
        'code-scanner',
      ].map((name) => async () => {
        const r = await runCli(['hooks', 'info', name, ...w, '-o', 'json'], { env });
        expect(r.code, `${name}: ${r.stdout}${r.stderr}`).toBe(0);
        return (JSON.parse(r.stdout) as { declarations: InfoDeclaration[] }).declarations;
      }),
    );
    const pe = rw('compozy/extensions/prompt-enhancer');
    expect(prompt!.map((d) => [d.command, d.args, d.cwd, d.extension, d.env])).toEqual([
      ['node', ['dist/index.js', 'hook', 'prompt_post_assemble'], pe, 'prompt-enhancer', []],
    ]);
    const sg = rw('compozy/extensions/secret-guard');
    expect(guard!.map((d) => [d.command, d.args, d.cwd])).toEqual([
      [join(sg, 'bin', 'secret-guard'), ['hook', 'input_pre_submit'], sg],
    ]);
    const ws = w[1]!;
    expect(hooksOnly!.map((d) => [d.command, d.args, d.env, d.cwd, d.timeout_ms, d.mode])).toEqual([
      ['/bin/sh', ['-c', 'echo ready'], ['HOOK_ENV'], ws, 5000, 'async'],
    ]);
    expect(combined!.map((d) => [d.command, d.args, d.env, d.timeout_ms])).toEqual([
      ['/usr/bin/env', ['bash', '-lc', 'echo cleanup'], ['PHASE'], 30000],
    ]);
    const sec = rw('cosh/extensions/agent-sec-core');
    expect(observability!.map((d) => d.event)).toEqual([
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'UserPromptSubmit',
      'Stop',
      'BeforeModel',
      'AfterModel',
    ]);
    for (const d of observability!) {
      // ${extensionPath} expanded
      expect(d.command).toBe(`python3 ${sec}/hooks/observability_hook.py`);
      expect(d.description).toBe('Records cosh hook observability metrics.');
    }
    expect(rewrite!.map((d) => [d.env, d.command])).toEqual([
      [['TOKENLESS_AGENT_ID'], `python3 ${rw('cosh/extensions/tokenless')}/hooks/rewrite_hook.py`],
    ]);
    expect(scanner!.map((d) => d.description)).toEqual(['Scans tool code for security vulnerabilities']);
  });
});

describe.skipIf(!RW)('real-world Claude Code files', { timeout: 180_000 }, () => {
  const R = (...p: string[]) => rw('claude', ...p);
  /** Every plugin root (a folder with .claude-plugin/plugin.json), as --plugin-dir flags. */
  const PLUGINS = [
    'affaan-m__everything-claude-code',
    'anthropics__claude-plugins-official/plugins/explanatory-output-style',
    'anthropics__claude-plugins-official/plugins/hookify',
    'anthropics__claude-plugins-official/plugins/learning-output-style',
    'anthropics__claude-plugins-official/plugins/ralph-loop',
    'anthropics__claude-plugins-official/plugins/security-guidance',
    'backnotprop__plannotator/apps/hook',
    'cdubiel08__ralph-hero/plugin/ralph-hero',
    'karanb192__claude-code-hooks/plugins/block-dangerous-commands',
    'karanb192__claude-code-hooks/plugins/config-watch',
    'karanb192__claude-code-hooks/plugins/instructions-audit',
    'karanb192__claude-code-hooks/plugins/notify-permission',
    'karanb192__claude-code-hooks/plugins/protect-secrets',
    'karanb192__claude-code-hooks/plugins/standup-autopilot',
    'mksglu__context-mode',
    'obra__superpowers',
    'severity1__claude-code-prompt-improver',
    'thedotmack__claude-mem/plugin',
  ];
  const pluginFlags = () => PLUGINS.flatMap((p) => ['--plugin-dir', R(p)]);
  const claudeEnv = () => ({ ...realWorldEnv(), CLAUDE_CONFIG_DIR: tempDir('hookctl-rw-claude-') });

  it('each file alone: no error, and only the warnings the docs leave open', async () => {
    const files = Object.keys(CLAUDE_PER_FILE);
    const env = claudeEnv();
    const results = await limited(
      files.map((f) => () => runCli(['hooks', 'validate', rw(f), ...workspace(), '-o', 'json'], { env })),
    );
    results.forEach((r, i) => {
      const file = files[i]!;
      expect([r.code, r.stderr], file).toEqual([0, '']);
      const report = JSON.parse(r.stdout) as { diagnostics: JsonDiagnostic[] };
      const byCode: Record<string, number[]> = {};
      for (const d of report.diagnostics) {
        expect(d.severity, `${file}: ${d.code} ${d.message}`).toBe('warning');
        (byCode[d.code] ??= []).push(d.line);
      }
      expect(byCode, file).toEqual(CLAUDE_PER_FILE[file]);
    });
  });

  it("every plugin at once: no error, and every hook listed, the skills' hooks too", async () => {
    const env = claudeEnv();
    const w = workspace();
    const v = await runCli(['hooks', 'validate', '--dialect', 'claude', ...w, ...pluginFlags(), '-o', 'json'], { env });
    expect(v.code, v.stdout).toBe(0);
    expect((JSON.parse(v.stdout) as { errors: number }).errors).toBe(0);
    const r = await runCli(['hooks', 'list', '--dialect', 'claude', ...w, ...pluginFlags(), '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const entries = JSON.parse(r.stdout) as (Entry & { if: string | null })[];
    const count: Record<string, number> = {};
    for (const e of entries) count[e.name.split(':')[0]!] = (count[e.name.split(':')[0]!] ?? 0) + 1;
    expect(count).toEqual({
      'plugin/ecc': 28,
      'plugin/explanatory-output-style': 1,
      'plugin/hookify': 4,
      'plugin/learning-output-style': 1,
      'plugin/ralph-loop': 1,
      'plugin/security-guidance': 9,
      'plugin/plannotator': 1,
      'plugin/ralph-hero': 19,
      'skill/ralph-hero/ralph-hero': 27,
      'plugin/block-dangerous-commands': 1,
      'plugin/config-watch': 1,
      'plugin/instructions-audit': 3,
      'plugin/notify-permission': 1,
      'plugin/protect-secrets': 1,
      'plugin/standup-autopilot': 3,
      'plugin/context-mode': 13,
      'plugin/superpowers': 1,
      'plugin/prompt-improver': 2,
      'plugin/claude-mem': 7,
    });
    // ralph-impl's hooks load although strict YAML rejects its front matter (§2.1.1).
    expect(entries.filter((e) => e.name.startsWith('skill/ralph-hero/ralph-hero:ralph-impl:')).length).toBeGreaterThan(
      0,
    );
    // security-guidance reviews git commit and git push (PostToolUse) with the legacy ":*" form (§4.2).
    const guards = entries.filter((e) => e.name.startsWith('plugin/security-guidance:') && e.if !== null);
    expect(guards.map((e) => e.if)).toEqual(expect.arrayContaining(['Bash(git commit:*)']));
    const dry = await runCli(
      ['hooks', 'fire', 'PostToolUse', '--dialect', 'claude', '--dry-run', ...w, ...pluginFlags(), '-o', 'json'],
      { env, input: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'git   commit -m wip' } }) },
    );
    const plan = (JSON.parse(dry.stdout) as { plan: { name: string; if: { rule: string; verdict: string } | null }[] })
      .plan;
    const commit = plan.filter((p) => p.if?.rule === 'Bash(git commit:*)');
    expect(commit.length).toBeGreaterThan(0);
    for (const p of commit) expect(p.if!.verdict, p.name).toBe('match');
  });

  it('the settings files of 1Password and claude-flow list every hook', async () => {
    const env = claudeEnv();
    for (const [repo, n] of [
      ['1Password__agent-hooks', 1],
      ['ruvnet__claude-flow', 11],
    ] as const) {
      const r = await runCli(['hooks', 'list', '--dialect', 'claude', '--workspace', R(repo), '-o', 'json'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(
        (JSON.parse(r.stdout) as Entry[]).filter((e) => e.source === 'claude_project'),
        repo,
      ).toHaveLength(n);
    }
  });
});
