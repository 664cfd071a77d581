// `hooks list` end to end (SPEC §2.3, §6): the built CLI on fixtures/demo shows every source of
// both dialects in dispatch order, filters, `--all` with status and why, the table columns and
// the exact JSON fields.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDir, demoEnv, isolatedEnv, repoRoot, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const W = ['--workspace', join(demoDir, 'workspace'), '--additional-dir', join(demoDir, 'extra')];

interface ListEntry {
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
  status?: string;
  why?: string | null;
}

const LIST_FIELDS = [
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
];

async function list(args: string[] = [], env = demoEnv()): Promise<ListEntry[]> {
  const r = await runCli(['hooks', 'list', ...W, '-o', 'json', ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as ListEntry[];
}

/** Names per event, in the order listed. */
function namesByEvent(entries: ListEntry[]): Record<string, (string | null)[]> {
  const out: Record<string, (string | null)[]> = {};
  for (const e of entries) (out[e.event] ??= []).push(e.name);
  return out;
}

describe('hooks list on the demo', { timeout: 120_000 }, () => {
  it('shows every source of both dialects, each event in dispatch order (source, then priority, then skill source, then name)', async () => {
    const entries = await list();
    expect(namesByEvent(entries)).toEqual({
      // config before skill
      'session.post_create': ['session-audit', 'session-journal#1'],
      'session.post_stop': ['session-journal#2'],
      // equal skill priority: user before additional
      'input.pre_submit': ['input-tidy', 'paste-guard'],
      // config, extension, then the two agent definitions by name
      'prompt.post_assemble': ['prompt-style', 'workspace-context', 'add-plan-context', 'add-review-context'],
      'tool.pre_call': ['block-secret-file-edits'],
      'tool.post_call': ['tool-logger'],
      // cosh: config hooks, then extension hooks
      PreToolUse: ['security-check', 'shell-audit'],
      UserPromptSubmit: ['prompt-guard'],
      SessionStart: ['context-loader'],
      Stop: ['stop-reminder'],
    });
    // `order` is the 1-based position within the event.
    for (const names of Object.values(namesByEvent(entries))) expect(names.length).toBeGreaterThan(0);
    const byEvent = new Map<string, number[]>();
    for (const e of entries) byEvent.set(e.event, [...(byEvent.get(e.event) ?? []), e.order!]);
    for (const orders of byEvent.values()) expect(orders).toEqual(orders.map((_, i) => i + 1));
  });

  it('covers every on-disk source and skill source, with their default priorities', async () => {
    const entries = await list();
    const sources = entries.map((e) => `${e.source}${e.skill_source ? `/${e.skill_source}` : ''}:${e.priority}`);
    expect(new Set(sources)).toEqual(
      new Set([
        'config:500',
        'config:700',
        'extension:300',
        'agent_definition:100',
        'skill/user:0',
        'skill/marketplace:0',
        'skill/additional:0',
        'skill/workspace:0',
        'cosh_config:0',
        'cosh_extension:0',
      ]),
    );
    expect(new Set(entries.map((e) => e.dialect))).toEqual(new Set(['compozy', 'cosh']));
  });

  it('JSON objects carry exactly the fields SPEC §6 names, in that order', async () => {
    const entries = await list();
    for (const e of entries) {
      expect(Object.keys(e)).toEqual(LIST_FIELDS);
      expect(Object.keys(e.location)).toEqual(['file', 'line']);
    }
    const gate = entries.find((e) => e.name === 'block-secret-file-edits')!;
    expect(gate).toEqual({
      order: 1,
      name: 'block-secret-file-edits',
      event: 'tool.pre_call',
      dialect: 'compozy',
      source: 'config',
      skill_source: null,
      mode: 'sync',
      required: true,
      priority: 700,
      timeout_ms: 3000,
      executor_kind: 'subprocess',
      matcher: { tool_id: '*', tool_read_only: false },
      metadata: {},
      enabled: true,
      // relative to the current directory (the repository root) because it is inside it
      location: { file: 'fixtures/demo/workspace/.compozy/config.toml', line: 20 },
    });
    const agentHook = entries.find((e) => e.name === 'add-review-context')!;
    expect(agentHook.matcher).toEqual({ input_class: 'user', agent_name: 'reviewer' });
    expect(agentHook.location).toEqual({ file: 'fixtures/demo/home/.compozy/agents/reviewer/AGENT.md', line: 7 });
    const extensionHook = entries.find((e) => e.name === 'workspace-context')!;
    expect(extensionHook.metadata).toEqual({ extension: 'prompt-enhancer-demo' });
    // a declared timeout of 0 (or none) shows the executor default
    expect(entries.find((e) => e.name === 'input-tidy')!.timeout_ms).toBeGreaterThan(0);
  });

  it('location.file is absolute when the file is outside the current directory', async () => {
    const elsewhere = tempDir('hookctl-cwd-');
    const r = await runCli(['hooks', 'list', ...W, '-o', 'json'], { env: demoEnv(), cwd: elsewhere });
    expect(r.code, r.stderr).toBe(0);
    const gate = (JSON.parse(r.stdout) as ListEntry[]).find((e) => e.name === 'block-secret-file-edits')!;
    expect(gate.location.file).toBe(join(demoDir, 'workspace', '.compozy', 'config.toml'));
  });

  it('-o jsonl prints the same objects one per line', async () => {
    const entries = await list();
    const r = await runCli(['hooks', 'list', ...W, '-o', 'jsonl'], { env: demoEnv() });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(entries);
  });

  it('human output is a table with the columns Order, Name, Event, Source, Mode, Priority', async () => {
    const r = await runCli(['hooks', 'list', ...W], { env: demoEnv() });
    expect(r.code).toBe(0);
    const [head, ...rows] = r.stdout.trimEnd().split('\n');
    expect(head!.split(/\s{2,}/)).toEqual(['Order', 'Name', 'Event', 'Source', 'Mode', 'Priority']);
    expect(rows).toHaveLength((await list()).length);
    const gate = rows.find((l) => l.includes('block-secret-file-edits'))!;
    expect(gate.split(/\s{2,}/)).toEqual([
      '1',
      'block-secret-file-edits',
      'tool.pre_call',
      'config',
      'sync, required',
      '700',
    ]);
    const skill = rows.find((l) => l.includes('paste-guard'))!;
    expect(skill.split(/\s{2,}/)).toEqual(['2', 'paste-guard', 'input.pre_submit', 'skill/additional', 'sync', '0']);
    // piped: no colour
    expect(r.stdout).not.toContain('\u001b[');
    // what is declared but left out is counted, never hidden silently
    expect(r.stderr).toBe(
      'hookctl: note: 5 declared hooks are not active (1 disabled, 3 overridden, 1 blocked); hooks list --all shows why\n',
    );
    const all = await runCli(['hooks', 'list', ...W, '--all'], { env: demoEnv() });
    expect(all.stderr).toBe('');
  });
});

describe('hooks list filters', { timeout: 120_000 }, () => {
  it('--event takes an exact name or a path.Match pattern', async () => {
    const names = async (args: string[]) => (await list(args)).map((e) => e.name);
    const [exact, tool, sessionPost, cosh, partial] = await Promise.all([
      names(['--event', 'tool.pre_call']),
      names(['--event', 'tool.*']),
      names(['--event', 'session.post_*']),
      names(['--event', '*Tool*']),
      runCli(['hooks', 'list', ...W, '-o', 'json', '--event', 'tool'], { env: demoEnv() }),
    ]);
    expect(exact).toEqual(['block-secret-file-edits']);
    expect(tool).toEqual(['block-secret-file-edits', 'tool-logger']);
    expect(sessionPost).toEqual(['session-audit', 'session-journal#1', 'session-journal#2']);
    expect(cosh).toEqual(['security-check', 'shell-audit']);
    // A pattern no known event matches still runs, with a warning naming the closest (SPEC §7.1).
    expect(partial.code).toBe(0);
    expect(JSON.parse(partial.stdout)).toEqual([]);
    expect(partial.stderr).toMatch(/^hookctl: warning: no known event matches "tool"; did you mean "tool\./);
  });

  it('--source, --mode, --agent and --dialect keep only what they name', async () => {
    const names = async (args: string[]) => (await list(args)).map((e) => e.name);
    const [all, skills, agents, coshExt, asyncOnes, reviewer, planner, nobody, cosh, compozy] = await Promise.all([
      list([]),
      names(['--source', 'skill']),
      names(['--source', 'agent_definition']),
      names(['--source', 'cosh_extension']),
      names(['--mode', 'async']),
      names(['--agent', 'reviewer']),
      names(['--agent', 'planner']),
      names(['--agent', 'nobody']),
      list(['--dialect', 'cosh']),
      list(['--dialect', 'compozy']),
    ]);
    expect(skills).toEqual(['session-journal#1', 'session-journal#2', 'input-tidy', 'paste-guard', 'tool-logger']);
    expect(agents).toEqual(['add-plan-context', 'add-review-context']);
    expect(coshExt).toEqual(['shell-audit', 'prompt-guard']);
    expect(asyncOnes).toEqual(['session-audit', 'session-journal#1', 'session-journal#2', 'tool-logger']);
    // --agent: the hooks that would run for that agent (SPEC §7.2): no agent_name matcher, or one
    // whose pattern matches the name.
    const unscoped = (also: string[]) =>
      all.filter((e) => e.matcher.agent_name === undefined || also.includes(e.name!)).map((e) => e.name);
    expect(unscoped([]).length).toBeGreaterThan(5);
    expect(reviewer).toEqual(unscoped(['add-review-context']));
    expect(planner).toEqual(unscoped(['add-plan-context']));
    expect(nobody).toEqual(unscoped([]));
    expect(cosh.map((e) => e.name)).toEqual([
      'security-check',
      'shell-audit',
      'prompt-guard',
      'context-loader',
      'stop-reminder',
    ]);
    expect(new Set(cosh.map((e) => e.dialect))).toEqual(new Set(['cosh']));
    expect(compozy.length).toBe(11);
    expect(compozy.every((e) => e.dialect === 'compozy')).toBe(true);
  });

  it('filters combine (AND)', async () => {
    const [one, none, syncSkills] = await Promise.all([
      list(['--event', 'prompt.*', '--source', 'agent_definition', '--agent', 'planner']),
      list(['--dialect', 'cosh', '--source', 'config']),
      list(['--mode', 'sync', '--source', 'skill']),
    ]);
    expect(one.map((e) => e.name)).toEqual(['add-plan-context']);
    expect(none).toEqual([]);
    expect(syncSkills.map((e) => e.name)).toEqual(['input-tidy', 'paste-guard']);
  });

  it('a filter value that is not one of the choices is a usage error (exit 2)', async () => {
    const cases = [
      ['--mode', 'blocking'],
      ['--source', 'nowhere'],
      ['--dialect', 'openclaw'],
    ];
    const results = await Promise.all(
      cases.map((args) => runCli(['hooks', 'list', ...W, ...args], { env: demoEnv() })),
    );
    results.forEach((r, i) => {
      expect(r.code, cases[i]!.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n').length).toBeLessThan(4);
    });
  });
});

describe('hooks list --all', { timeout: 120_000 }, () => {
  it('adds disabled, overridden and blocked hooks with status and why; active ones say active', async () => {
    const all = await list(['--all']);
    for (const e of all) expect(Object.keys(e)).toEqual([...LIST_FIELDS, 'status', 'why']);
    const hidden = all.filter((e) => e.status !== 'active');
    expect(hidden.map((e) => [e.name, e.event, e.status, e.order])).toEqual([
      ['notify-session-stopped', 'session.post_stop', 'disabled', null],
      ['prompt-style', 'prompt.post_assemble', 'overridden', null],
      ['auto-approve', 'permission.request', 'blocked', null],
      ['system-audit', 'PreToolUse', 'overridden', null],
      ['shell-audit', 'PreToolUse', 'overridden', null],
    ]);
    const why = Object.fromEntries(hidden.map((e) => [`${e.name}:${e.location.file}`, e.why]));
    expect(why['notify-session-stopped:fixtures/demo/home/.compozy/config.toml']).toMatch(/enabled = false/);
    expect(why['prompt-style:fixtures/demo/home/.compozy/config.toml']).toMatch(
      /replaced by the workspace declaration at .*fixtures\/demo\/workspace\/\.compozy\/config\.toml:\d+/,
    );
    expect(why['auto-approve:fixtures/demo/home/.compozy/skills/auto-approve/SKILL.md']).toBe(
      'marketplace skill "@demo/auto-approve" is not listed in skills.allowed_marketplace_hooks of the global config.toml',
    );
    expect(why['system-audit:fixtures/demo/system/etc/copilot-shell/config.toml']).toMatch(
      /replaced by .*home\/\.copilot-shell\/config\.toml/,
    );
    expect(why['shell-audit:fixtures/demo/system/usr/share/anolisa/extensions/demo-guard/cosh-extension.json']).toMatch(
      /overridden by .*home\/\.copilot-shell\/extensions\/demo-guard\/cosh-extension\.json/,
    );
    const disabled = all.find((e) => e.status === 'disabled')!;
    expect(disabled.enabled).toBe(false);
    for (const e of all.filter((x) => x.status === 'active')) expect(e.why).toBeNull();
    // the active ones are exactly what plain `list` shows, in the same order
    expect(all.filter((e) => e.status === 'active').map(({ status: _s, why: _w, ...rest }) => rest)).toEqual(
      await list(),
    );
  });

  it('shows a nameless cosh hook as skipped with name null', async () => {
    const base = tempDir('hookctl-nameless-');
    const env = isolatedEnv({ home: base });
    const workspace = join(base, 'workspace');
    mkdirSync(env.COSH_HOME, { recursive: true });
    mkdirSync(workspace);
    writeFileSync(
      join(env.COSH_HOME, 'config.toml'),
      '[[hooks.Stop]]\ncommand = "true"\n\n[[hooks.Stop]]\nname = "named"\ncommand = "true"\n',
    );
    const r = await runCli(['hooks', 'list', '--workspace', workspace, '--all', '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const entries = JSON.parse(r.stdout) as ListEntry[];
    expect(entries.map((e) => [e.name, e.status, e.why, e.order, e.location.line])).toEqual([
      [null, 'skipped', 'hook has no name', null, 1],
      ['named', 'active', null, 1, 4],
    ]);
    const plain = await runCli(['hooks', 'list', '--workspace', workspace, '-o', 'json'], { env });
    expect((JSON.parse(plain.stdout) as ListEntry[]).map((e) => e.name)).toEqual(['named']);
    const human = await runCli(['hooks', 'list', '--workspace', workspace, '--all'], { env });
    expect(human.stdout).toContain('(no name)');
  });

  it('human --all adds the Status and Why columns', async () => {
    const r = await runCli(['hooks', 'list', ...W, '--all'], { env: demoEnv() });
    expect(r.code).toBe(0);
    const [head, ...rows] = r.stdout.trimEnd().split('\n');
    expect(head!.trim().split(/\s{2,}/)).toEqual([
      'Order',
      'Name',
      'Event',
      'Source',
      'Mode',
      'Priority',
      'Status',
      'Why',
    ]);
    const blocked = rows.find((l) => l.includes('auto-approve'))!;
    expect(blocked.split(/\s{2,}/).slice(0, 7)).toEqual([
      '-',
      'auto-approve',
      'permission.request',
      'skill/marketplace',
      'sync',
      '0',
      'blocked',
    ]);
    expect(blocked).toContain('is not listed in skills.allowed_marketplace_hooks');
  });
});

describe('hooks list on other trees', { timeout: 120_000 }, () => {
  it('an empty home lists nothing, exit 0', async () => {
    const base = tempDir('hookctl-empty-');
    const env = isolatedEnv({ home: base });
    const human = await runCli(['hooks', 'list', '--workspace', base], { env });
    expect(human).toMatchObject({ code: 0, stderr: '' });
    expect(human.stdout.trim()).toBe('No hooks found.');
    const json = await runCli(['hooks', 'list', '--workspace', base, '--json'], { env });
    expect(json).toMatchObject({ code: 0, stdout: '[]\n' });
  });

  it('run from the home folder, the global config.toml is read once, not again as the workspace overlay', async () => {
    const base = tempDir('hookctl-athome-');
    const env = isolatedEnv({ home: base });
    mkdirSync(env.COMPOZY_HOME, { recursive: true });
    writeFileSync(
      join(env.COMPOZY_HOME, 'config.toml'),
      '[[hooks.declarations]]\nname = "g"\nevent = "session.post_create"\ncommand = "true"\n',
    );
    const r = await runCli(['hooks', 'list', '--workspace', base, '--all', '--dialect', 'compozy', '-o', 'json'], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as ListEntry[]).map((e) => [e.name, e.status])).toEqual([['g', 'active']]);
  });

  it('never reads the real home: HOME is a fresh folder and every location is overridden', async () => {
    const r = await runCli(['hooks', 'list', '--workspace', repoRoot, '-o', 'json'], { env: isolatedEnv() });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});
