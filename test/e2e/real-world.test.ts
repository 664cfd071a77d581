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
    expect(found.sort()).toEqual(Object.keys(PER_FILE).sort());
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
