// `hooks info NAME` end to end (SPEC §6): every declaration of that name in both dialects, with
// all fields and where it is declared (file:line), and its last runs; an unknown name is exit 1.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDir, demoEnv, isolatedEnv, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const W = ['--workspace', join(demoDir, 'workspace'), '--additional-dir', join(demoDir, 'extra')];

interface InfoDeclaration {
  order: number | null;
  name: string | null;
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
  status: string;
  why: string | null;
  command: string;
  args: string[];
  env: string[];
  secret_env: string[];
  cwd: string;
  extension: string | null;
  description: string | null;
}

interface Info {
  name: string;
  declarations: InfoDeclaration[];
  runs: { hook_name: string; run_id: string; recorded_at: string }[];
}

const DECLARATION_FIELDS = [
  'order',
  'name',
  'event',
  'dialect',
  'source',
  'skill_source',
  'mode',
  'required',
  'priority',
  'timeout_ms',
  'executor_kind',
  'matcher',
  'metadata',
  'enabled',
  'location',
  'status',
  'why',
  'command',
  'args',
  'env',
  'secret_env',
  'cwd',
  'extension',
  'description',
];

/** A copy of the demo homes without any recorded sessions, so runs are only what a test writes. */
function demoCopy() {
  const base = tempDir('hookctl-info-');
  cpSync(demoDir, base, { recursive: true });
  rmSync(join(base, 'home', '.compozy', 'sessions'), { recursive: true, force: true });
  rmSync(join(base, 'home', '.copilot-shell', 'sessions'), { recursive: true, force: true });
  const env = isolatedEnv({
    compozyHome: join(base, 'home', '.compozy'),
    coshHome: join(base, 'home', '.copilot-shell'),
    systemRoot: join(base, 'system'),
  });
  return { base, env, W: ['--workspace', join(base, 'workspace'), '--additional-dir', join(base, 'extra')] };
}

function record(i: number, hook: string, session: string, extra: Record<string, unknown> = {}) {
  return {
    run_id: `run_${hook}_${String(i).padStart(2, '0')}`,
    dispatch_id: `d_${i}`,
    session_id: session,
    dialect: 'compozy',
    event: 'prompt.post_assemble',
    hook_name: hook,
    source: 'config',
    mode: 'sync',
    priority: 500,
    required: false,
    outcome: i % 3 === 0 ? 'failed' : 'applied',
    duration_ms: 10 + i,
    dispatch_depth: 1,
    exit_code: 0,
    ...(i % 3 === 0 ? { error: 'hook command failed: exit status 1' } : {}),
    recorded_at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
    ...extra,
  };
}

async function info(name: string, args: string[], env: Record<string, string>, cwd?: string): Promise<Info> {
  const r = await runCli(['hooks', 'info', name, ...args, '-o', 'json'], { env, cwd });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Info;
}

describe('hooks info', { timeout: 120_000 }, () => {
  it('shows every declaration of the name, overridden ones included, each with file:line', async () => {
    const out = await info('prompt-style', W, demoEnv());
    expect(Object.keys(out)).toEqual(['name', 'declarations', 'runs', 'runs_workspace', 'runs_without_workspace']);
    expect(out.name).toBe('prompt-style');
    expect(out.declarations.map((d) => [d.status, d.location.file, d.location.line, d.order])).toEqual([
      ['overridden', 'fixtures/demo/home/.compozy/config.toml', 15, null],
      ['active', 'fixtures/demo/workspace/.compozy/config.toml', 6, 1],
    ]);
    for (const d of out.declarations) expect(Object.keys(d)).toEqual(DECLARATION_FIELDS);
    const active = out.declarations[1]!;
    expect(active).toMatchObject({
      event: 'prompt.post_assemble',
      dialect: 'compozy',
      source: 'config',
      mode: 'sync',
      priority: 500,
      timeout_ms: 5000,
      executor_kind: 'subprocess',
      matcher: { input_class: 'user' },
      command: '/usr/bin/env',
      args: ['bash', './hooks/prompt-style.sh'],
      cwd: join(demoDir, 'workspace'),
      extension: null,
      why: null,
    });
    expect(out.declarations[0]!.why).toMatch(/replaced by the workspace declaration/);
  });

  it('human output names each declaration with file:line and its fields', async () => {
    const r = await runCli(['hooks', 'info', 'prompt-style', ...W], { env: demoEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^prompt-style {2}fixtures\/demo\/home\/\.compozy\/config\.toml:15$/m);
    expect(r.stdout).toMatch(/^prompt-style {2}fixtures\/demo\/workspace\/\.compozy\/config\.toml:6$/m);
    for (const field of [
      'status',
      'event',
      'dialect',
      'source',
      'order',
      'mode',
      'priority',
      'timeout',
      'executor',
      'command',
      'cwd',
      'matcher',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${field} +\\S`, 'm'));
    }
    expect(r.stdout).toMatch(/^ {2}command {5}\/usr\/bin\/env bash \.\/hooks\/prompt-style\.sh$/m);
    expect(r.stdout).toMatch(/^ {2}status {6}overridden: replaced by the workspace declaration/m);
    expect(r.stdout).toContain('Last runs');
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('lists env and secret_env by name only, never their values', async () => {
    const out = await info('notify-session-stopped', W, demoEnv());
    expect(out.declarations).toHaveLength(1);
    const d = out.declarations[0]!;
    expect(d).toMatchObject({
      status: 'disabled',
      enabled: false,
      env: ['WEBHOOK_URL'],
      secret_env: ['WEBHOOK_TOKEN'],
    });
    const human = await runCli(['hooks', 'info', 'notify-session-stopped', ...W], { env: demoEnv() });
    expect(human.stdout).toMatch(/^ {2}env {9}WEBHOOK_URL$/m);
    expect(human.stdout).toMatch(/^ {2}secret_env {2}WEBHOOK_TOKEN$/m);
    expect(human.stdout + JSON.stringify(out)).not.toContain('hooks.example.test');
    expect(human.stdout + JSON.stringify(out)).not.toContain('DEMO_WEBHOOK_TOKEN');
  });

  it('an extension hook runs in its extension root; a cosh name shows both dialect sources', async () => {
    const ext = await info('workspace-context', W, demoEnv());
    const root = join(demoDir, 'home', '.compozy', 'extensions', 'prompt-enhancer-demo');
    expect(ext.declarations.map((d) => [d.source, d.extension, d.cwd, d.command, d.args])).toEqual([
      ['extension', 'prompt-enhancer-demo', root, 'node', [join(root, 'hooks', 'workspace-context.mjs')]],
    ]);
    expect(ext.declarations[0]!.env).toEqual(['LOG_LEVEL']);
    const cosh = await info('shell-audit', W, demoEnv());
    expect(cosh.declarations.map((d) => [d.dialect, d.source, d.status, d.extension, d.location.file])).toEqual([
      [
        'cosh',
        'cosh_extension',
        'active',
        'demo-guard',
        'fixtures/demo/home/.copilot-shell/extensions/demo-guard/cosh-extension.json',
      ],
      [
        'cosh',
        'cosh_extension',
        'overridden',
        'demo-guard',
        'fixtures/demo/system/usr/share/anolisa/extensions/demo-guard/cosh-extension.json',
      ],
    ]);
  });

  it('no declaration of that name: `no hooks named "<name>" found`, exit 1, also as JSON', async () => {
    const [human, json, jsonFlag] = await Promise.all([
      runCli(['hooks', 'info', 'nope', ...W], { env: demoEnv() }),
      runCli(['hooks', 'info', 'nope', ...W, '-o', 'json'], { env: demoEnv() }),
      runCli(['hooks', 'info', 'nope', ...W, '--json'], { env: demoEnv() }),
    ]);
    expect(human).toMatchObject({ code: 1, stdout: '' });
    expect(human.stderr).toBe('hookctl: no hooks named "nope" found\n');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { code: 'hook_not_found', message: 'no hooks named "nope" found', exit: 1 },
    });
    expect(jsonFlag.stdout).toBe(json.stdout);
  });

  it('NAME is required: usage error, exit 2', async () => {
    const r = await runCli(['hooks', 'info', ...W], { env: demoEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n').length).toBeLessThan(4);
  });

  it('shows the last 10 runs of the hook, newest first (issue 16; across sessions: runs-over-time.test.ts)', async () => {
    const { base, env, W: w } = demoCopy();
    const workspace = join(base, 'workspace');
    const dir = join(env.COMPOZY_HOME, 'sessions', 'sess_info');
    mkdirSync(dir, { recursive: true });
    const lines: string[] = [];
    for (let i = 1; i <= 14; i++) {
      lines.push(JSON.stringify(record(i, 'prompt-style', 'sess_info', { workspace })));
      lines.push(
        JSON.stringify(record(i, 'workspace-context', 'sess_info', { source: 'extension', priority: 300, workspace })),
      );
    }
    writeFileSync(join(dir, 'hook-runs.jsonl'), lines.join('\n') + '\n');
    const out = await info('prompt-style', w, env);
    expect(out.runs.map((r) => r.run_id)).toEqual(
      Array.from({ length: 10 }, (_, k) => `run_prompt-style_${String(14 - k).padStart(2, '0')}`),
    );
    expect(out.runs.every((r) => r.hook_name === 'prompt-style')).toBe(true);
    const human = await runCli(['hooks', 'info', 'prompt-style', ...w], { env });
    expect(human.stdout).toMatch(/^Event\s+Outcome\s+Duration\s+Error\s+Recorded$/m);
    expect(human.stdout).toContain('hook command failed: exit status 1');
    expect(human.stdout).toContain('2025-01-01T00:00:14.000Z');
  });

  it('--session picks the session; a session without runs of the hook shows none', async () => {
    const { base, env, W: w } = demoCopy();
    for (const [session, hook] of [
      ['sess_a', 'prompt-style'],
      ['sess_b', 'workspace-context'],
    ] as const) {
      const dir = join(env.COMPOZY_HOME, 'sessions', session);
      mkdirSync(dir, { recursive: true });
      const line = JSON.stringify(record(1, hook, session, { workspace: join(base, 'workspace') }));
      writeFileSync(join(dir, 'hook-runs.jsonl'), line + '\n');
    }
    const a = await info('prompt-style', [...w, '--session', 'sess_a'], env);
    expect(a.runs.map((r) => r.run_id)).toEqual(['run_prompt-style_01']);
    const b = await info('prompt-style', [...w, '--session', 'sess_b'], env);
    expect(b.runs).toEqual([]);
    const human = await runCli(['hooks', 'info', 'prompt-style', ...w, '--session', 'sess_b'], { env });
    expect(human.stdout).toContain('(none recorded)');
  });

  it('-o jsonl prints the same object on one line', async () => {
    const json = await info('paste-guard', W, demoEnv());
    const r = await runCli(['hooks', 'info', 'paste-guard', ...W, '-o', 'jsonl'], { env: demoEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    // runs may differ if a demo session is being written meanwhile; the declarations may not
    expect((JSON.parse(r.stdout) as Info).declarations).toEqual(json.declarations);
    expect(json.declarations[0]).toMatchObject({ source: 'skill', skill_source: 'additional', order: 2 });
  });
});
