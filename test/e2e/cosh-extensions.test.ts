// cosh-extension.json end to end (SPEC §1, §4.3, §4.4): user over system by manifest name,
// run order, `${...}` variables, and the three real extension shapes of the ANOLISA repository
// (copies in test/fixtures/e2e-cosh/real-world) as list, validate, info and fire see them.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { coshTree, E2E_COSH, removeCoshTrees, writeText, type CoshTree } from '../fixtures/e2e-cosh/setup.js';

afterAll(removeCoshTrees);

const EXTENSIONS_TREE = join(E2E_COSH, 'extensions-tree');
const REAL_WORLD_TREE = join(E2E_COSH, 'real-world');

interface ListEntry {
  order: number | null;
  name: string | null;
  event: string;
  source: string;
  matcher: Record<string, string>;
  metadata: Record<string, string>;
  timeout_ms: number;
  location: { file: string; line: number };
  status?: string;
  why?: string | null;
}

interface InfoJson {
  name: string;
  declarations: (ListEntry & {
    command: string;
    env: string[];
    description: string | null;
    extension: string | null;
  })[];
}

async function listJson(tree: CoshTree, ...flags: string[]): Promise<ListEntry[]> {
  const r = await tree.cli(['hooks', 'list', '--dialect', 'cosh', '-o', 'json', ...flags]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ListEntry[];
}

async function infoJson(tree: CoshTree, name: string): Promise<InfoJson> {
  const r = await tree.cli(['hooks', 'info', name, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as InfoJson;
}

describe.concurrent('cosh extensions', () => {
  it('runs config hooks, then extensions by manifest name, group order, hook order; a user extension overrides system ones of its name', async () => {
    const tree = coshTree({}, EXTENSIONS_TREE);
    const r = await tree.cli(['hooks', 'fire', 'PreToolUse', '-o', 'json'], {
      input: JSON.stringify({ tool_name: 'run_shell_command' }),
    });
    expect(r.code, r.stderr).toBe(0); // every system copy of probe/gamma would have blocked
    expect(tree.ran()).toEqual([
      'cfg',
      'alpha-1',
      'alpha-2',
      'alpha-3',
      'beta',
      'gamma-local',
      'probe-user',
      'sys-only',
    ]);
    const runs = (JSON.parse(r.stdout) as { runs: { hook_name: string; source: string }[] }).runs;
    expect(runs.map((x) => x.hook_name)).toEqual([
      'cfg-hook',
      'alpha-1',
      'alpha-2',
      'alpha-3',
      'beta-hook',
      'gamma-hook',
      'probe-hook',
      'probe-vars',
      'sys-only-hook',
    ]);
    expect(runs.map((x) => x.source)).toEqual(['cosh_config', ...Array(8).fill('cosh_extension')]);

    // Events only a system copy declares are overridden too: the whole extension is replaced.
    const stop = await tree.cli(['hooks', 'fire', 'Stop'], { input: '{}' });
    expect(stop.code).toBe(0);
    expect(stop.stdout).toContain('No hooks ran.');

    // The group matcher is inherited by each of its hooks.
    await tree.cli(['hooks', 'fire', 'PreToolUse'], { input: JSON.stringify({ tool_name: 'read_file' }) });
    expect(tree.ran().slice(8)).toEqual(['cfg', 'alpha-3', 'beta', 'gamma-local', 'sys-only']);
  });

  it('lists overridden copies with --all, and the winner with its version (0.0.0 when absent)', async () => {
    const tree = coshTree({}, EXTENSIONS_TREE);
    const active = await listJson(tree);
    expect(
      active.map((d) => [d.name, d.order, d.metadata.extension ?? null, d.metadata.extension_version ?? null]),
    ).toEqual([
      ['cfg-hook', 1, null, null],
      ['alpha-1', 2, 'alpha', '0.3.0'],
      ['alpha-2', 3, 'alpha', '0.3.0'],
      ['alpha-3', 4, 'alpha', '0.3.0'],
      ['beta-hook', 5, 'beta', '0.0.0'],
      ['gamma-hook', 6, 'gamma', '3.0.0'],
      ['probe-hook', 7, 'probe', '2.0.0'],
      ['probe-vars', 8, 'probe', '2.0.0'],
      ['sys-only-hook', 9, 'sys-only', '0.1.0'],
    ]);
    expect(active.find((d) => d.name === 'alpha-1')!.matcher).toEqual({ tool_name: 'shell' });
    expect(active.find((d) => d.name === 'alpha-3')!.matcher).toEqual({});

    const overridden = (await listJson(tree, '--all')).filter((d) => d.status === 'overridden');
    expect(overridden.map((d) => [d.name, d.event, d.metadata.extension_version, d.location.file]).sort()).toEqual([
      ['gamma-hook', 'PreToolUse', '2.0.0', 'system/usr/share/anolisa/extensions/gamma/cosh-extension.json'],
      ['probe-hook', 'PreToolUse', '1.0.0', 'system/usr/share/anolisa/extensions/probe/cosh-extension.json'],
      ['probe-hook', 'PreToolUse', '1.5.0', 'system/usr/local/share/anolisa/extensions/probe/cosh-extension.json'],
      ['probe-stop', 'Stop', '1.0.0', 'system/usr/share/anolisa/extensions/probe/cosh-extension.json'],
    ]);
    for (const d of overridden) {
      expect(d.order).toBeNull();
      expect(d.why).toContain(
        d.name === 'gamma-hook'
          ? join('usr', 'local', 'share', 'anolisa', 'extensions', 'gamma')
          : join('.copilot-shell', 'extensions', 'probe'),
      );
    }
    const human = await tree.cli(['hooks', 'list', '--all', '--dialect', 'cosh']);
    expect(human.stdout).toMatch(/probe-hook\s+PreToolUse\s+cosh_extension.*overridden/);

    const validate = await tree.cli(['hooks', 'validate']);
    expect(validate.code, validate.stdout).toBe(0);
    expect(validate.stdout).toContain('0 errors, 0 warnings');
  });

  it('expands ${extensionPath}, ${workspacePath} and ${/} in commands and env values, and nothing else', async () => {
    const tree = coshTree({}, EXTENSIONS_TREE);
    const ext = join(tree.coshHome, 'extensions', 'probe');
    const r = await tree.cli(['hooks', 'fire', 'PreToolUse', '-o', 'json'], {
      input: JSON.stringify({ tool_name: 'shell' }),
    });
    expect(r.code, r.stderr).toBe(0);
    const context = (JSON.parse(r.stdout) as { additional_context: string }).additional_context;
    expect(context.split('\n')).toEqual([
      `script=${join(ext, 'hooks', 'vars.sh')}`,
      `workspace=${tree.workspace}`,
      'unknown=${unknownVariable}',
      `EXT_DIR=${ext}`,
      'SEP=/',
      `WS_DIR=${tree.workspace}`,
      'LEFT=${HOME}',
    ]);
    const info = await infoJson(tree, 'probe-vars');
    expect(info.declarations).toHaveLength(1);
    expect(info.declarations[0]!.command).toBe(`sh ${ext}/hooks/vars.sh "${tree.workspace}" '\${unknownVariable}'`);
    expect(info.declarations[0]!.env).toEqual(['EXT_DIR', 'SEP', 'WS_DIR', 'LEFT']);
    const probe = await infoJson(tree, 'probe-hook');
    expect(probe.declarations.map((d) => [d.status, d.metadata.extension_version])).toEqual([
      ['active', '2.0.0'],
      ['overridden', '1.5.0'],
      ['overridden', '1.0.0'],
    ]);
    expect(probe.declarations[0]!.description).toBe('Marks that the user copy ran.');
  });
});

describe.concurrent('broken cosh extensions', () => {
  it('an unknown event in a manifest fails validate (exit 1) and makes fire refuse (exit 2) before running anything', async () => {
    const tree = coshTree({}, EXTENSIONS_TREE);
    const manifest = join(tree.coshHome, 'extensions', 'typo', 'cosh-extension.json');
    writeText(
      manifest,
      JSON.stringify(
        { name: 'typo', hooks: { PreToolUsee: [{ hooks: [{ type: 'command', name: 't', command: 'true' }] }] } },
        null,
        2,
      ),
    );
    const validate = await tree.cli(['hooks', 'validate']);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain('unknown cosh event "PreToolUsee"');
    const fire = await tree.cli(['hooks', 'fire', 'PreToolUse'], { input: '{"tool_name":"shell"}' });
    expect(fire.code).toBe(2);
    expect(fire.stderr).toContain(
      `${join('home', '.copilot-shell', 'extensions', 'typo', 'cosh-extension.json')}:4: unknown cosh event "PreToolUsee"`,
    );
    expect(tree.ran()).toEqual([]);
    // list still shows the valid hooks, warning about the rest on stderr.
    const list = await tree.cli(['hooks', 'list', '--dialect', 'cosh']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('probe-hook');
    expect(list.stderr).toContain('1 declaration error');
  });
});

describe.concurrent('the real cosh extensions (agent-sec-core, tokenless, os-skills)', () => {
  it('validate: clean but for the unknown fail_open key, which warns; each file alone too', async () => {
    const tree = coshTree({}, REAL_WORLD_TREE);
    const all = await tree.cli(['hooks', 'validate', '-o', 'json']);
    expect(all.code, all.stdout).toBe(0);
    const report = JSON.parse(all.stdout) as {
      files: string[];
      errors: number;
      diagnostics: { severity: string; code: string; message: string; file: string }[];
    };
    expect(report.errors).toBe(0);
    expect(report.files).toEqual(
      ['agent-sec-core', 'os-skills', 'tokenless'].map(
        (e) => `home/.copilot-shell/extensions/${e}/cosh-extension.json`,
      ),
    );
    expect(report.diagnostics.map((d) => [d.severity, d.code, d.file])).toEqual([
      ['warning', 'unknown_key', 'home/.copilot-shell/extensions/tokenless/cosh-extension.json'],
    ]);
    expect(report.diagnostics[0]!.message).toContain('fail_open');

    const files = ['agent-sec-core', 'tokenless', 'os-skills'].map((e) =>
      join(tree.coshHome, 'extensions', e, 'cosh-extension.json'),
    );
    const one = await tree.cli(['hooks', 'validate', ...files]);
    expect(one.code, one.stdout).toBe(0);
    expect(one.stdout).toContain('3 files, 0 errors, 1 warning');
  });

  it('list: agent-sec-core has 4 PreToolUse hooks in order, observability-hook on several events, ${extensionPath} expanded; os-skills has none', async () => {
    const tree = coshTree({}, REAL_WORLD_TREE);
    const entries = await listJson(tree);
    const pre = entries.filter((d) => d.event === 'PreToolUse');
    expect(pre.map((d) => [d.order, d.name, d.metadata.extension, d.matcher])).toEqual([
      [1, 'skill-ledger', 'agent-sec-core', { tool_name: 'skill' }],
      [2, 'code-scanner', 'agent-sec-core', { tool_name: 'run_shell_command' }],
      [3, 'sandbox-guard', 'agent-sec-core', {}],
      [4, 'observability-hook', 'agent-sec-core', {}],
      [5, 'tokenless-tool-ready', 'tokenless', {}],
      [6, 'tokenless-rewrite', 'tokenless', { tool_name: '^(Bash|run_shell_command|terminal|Shell|exec|process)$' }],
    ]);
    expect(pre.find((d) => d.name === 'sandbox-guard')!.timeout_ms).toBe(5000); // the default
    expect(pre.find((d) => d.name === 'tokenless-tool-ready')!.timeout_ms).toBe(10000);
    expect(
      entries
        .filter((d) => d.name === 'observability-hook')
        .map((d) => d.event)
        .sort(),
    ).toEqual([
      'AfterModel',
      'BeforeModel',
      'PostToolUse',
      'PostToolUseFailure',
      'PreToolUse',
      'Stop',
      'UserPromptSubmit',
    ]);
    expect(entries.filter((d) => d.event === 'UserPromptSubmit').map((d) => d.name)).toEqual([
      'prompt-scanner',
      'pii-checker',
      'observability-hook',
    ]);
    expect(entries.some((d) => d.metadata.extension === 'anolisa-os-skills')).toBe(false);
    expect(entries.every((d) => d.source === 'cosh_extension')).toBe(true);

    const obs = await infoJson(tree, 'observability-hook');
    expect(obs.declarations).toHaveLength(7);
    const ext = join(tree.coshHome, 'extensions', 'agent-sec-core');
    for (const d of obs.declarations) {
      expect(d.command).toBe(`python3 ${ext}/hooks/observability_hook.py`);
      expect(d.description).toBe('Records cosh hook observability metrics.');
    }
    const rewrite = await infoJson(tree, 'tokenless-rewrite');
    expect(rewrite.declarations[0]!.env).toEqual(['TOKENLESS_AGENT_ID']);
    expect(rewrite.declarations[0]!.command).toBe(
      `python3 ${join(tree.coshHome, 'extensions', 'tokenless')}/hooks/rewrite_hook.py`,
    );
  });

  it("tokenless' empty matcher matches every tool; firing hooks whose scripts are not shipped fails each cleanly with no effect", async () => {
    const tree = coshTree({}, REAL_WORLD_TREE);
    const plan = async (tool: string) => {
      const r = await tree.cli(['hooks', 'fire', 'PreToolUse', '--dry-run', '-o', 'json'], {
        input: JSON.stringify({ tool_name: tool }),
      });
      expect(r.code, r.stderr).toBe(0);
      return Object.fromEntries(
        (JSON.parse(r.stdout) as { plan: { name: string; matched: boolean }[] }).plan.map((p) => [p.name, p.matched]),
      );
    };
    expect(await plan('some_unheard_of_tool')).toEqual({
      'skill-ledger': false,
      'code-scanner': false,
      'sandbox-guard': true,
      'observability-hook': true,
      'tokenless-tool-ready': true,
      'tokenless-rewrite': false,
    });
    expect(await plan('run_shell_command')).toMatchObject({ 'code-scanner': true, 'tokenless-rewrite': true });

    const r = await tree.cli(['hooks', 'fire', 'PreToolUse', '-o', 'json', '--session', 'real'], {
      input: JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command: 'ls' } }),
    });
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as {
      verdict: string;
      runs: { hook_name: string; outcome: string; error: string }[];
    };
    expect(result.verdict).toBe('pass');
    expect(result.runs.map((x) => [x.hook_name, x.outcome])).toEqual([
      ['code-scanner', 'failed'],
      ['sandbox-guard', 'failed'],
      ['observability-hook', 'failed'],
      ['tokenless-tool-ready', 'failed'],
      ['tokenless-rewrite', 'failed'],
    ]);
    for (const x of result.runs) expect(x.error).toMatch(/^hook command failed: exit status \d+/);
  });
});
