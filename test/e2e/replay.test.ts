// `hooks replay` end to end (spec replay.md): the built CLI over the realistic transcript of
// test/fixtures/replay/shop installed in a sandboxed Claude config dir, real hook scripts in the
// workspace's settings, and event files. Checked: sources, the sandbox (nothing recorded, no
// state written, HOOKCTL_REPLAY=1, http skipped), the comparison, every report and exit code.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { projectDirName } from '../../src/replay/sources.js';
import { demoDir, isolatedEnv, repoRoot, runCli } from '../support/cli.js';
import { hasTmux, runInTerminal } from '../support/terminal.js';
import { tempDir } from '../support/temp.js';
import { cmd, group, sandbox, type Sandbox } from './claude-support.js';

const SHOP = join(repoRoot, 'test', 'fixtures', 'replay', 'shop');
const SID = '4b1e0c2a-7d9f-4c1e-9a55-0f6b8e2d1c3a';

/** Copies the fixture's transcripts into the sandbox's project folder, recorded in `cwd`. */
function install(sb: Sandbox, cwd = sb.workspace, folder = projectDirName(sb.workspace)): string {
  const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', folder);
  cpSync(SHOP, dir, { recursive: true });
  const rewrite = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) rewrite(p);
      else if (n.endsWith('.jsonl')) writeFileSync(p, readFileSync(p, 'utf8').replaceAll('/home/ana/shop', cwd));
    }
  };
  rewrite(dir);
  return dir;
}

/** The example's hooks: no-rm.sh on Bash (exit 2), and a guard that denies GitHub PRs. */
function guards(sb: Sandbox, extra: Record<string, unknown[]> = {}): void {
  mkdirSync(join(sb.workspace, '.claude', 'hooks'), { recursive: true });
  const hook = (name: string, body: string) => {
    const file = join(sb.workspace, '.claude', 'hooks', name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  };
  hook(
    'no-rm.sh',
    'input=$(cat)\ncase "$input" in *"rm -rf"*) echo "rm -rf is not allowed" >&2; exit 2;; esac\nexit 0',
  );
  hook(
    'no-pr.sh',
    `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no PRs today"}}'`,
  );
  sb.settings({
    PreToolUse: [
      group([cmd('.claude/hooks/no-rm.sh')], 'Bash'),
      group([cmd('.claude/hooks/no-pr.sh')], 'mcp__github__.*'),
    ],
    ...extra,
  });
}

interface Doc {
  replay: Record<string, unknown>;
  summary: Record<string, unknown>;
  inputs: Record<string, unknown>[];
  events: Record<string, unknown>[];
}

async function replayJson(sb: Sandbox, ...args: string[]) {
  const r = await sb.cli(['hooks', 'replay', '-o', 'json', ...args]);
  let doc: Doc;
  try {
    doc = JSON.parse(r.stdout) as Doc;
  } catch {
    throw new Error(`replay printed no JSON (exit ${r.code}): ${r.stdout}${r.stderr}`);
  }
  return { ...r, doc };
}

describe('hooks replay: the workspace transcripts', () => {
  it('replays the example: one call now blocked, exit 1, and the counts of §8', async () => {
    const sb = sandbox();
    guards(sb);
    install(sb);
    const r = await replayJson(sb);
    expect(r.code).toBe(1);
    expect(r.doc.summary).toMatchObject({
      sessions: 1,
      events: 16,
      replayed: 16,
      changed: 1,
      failing: 1,
      unknown_old: 0,
      by_change: { blocks: 1, asks: 0, allows: 0, differs: 0 },
      entries: { read: 21, torn: 1, foreign: 0, skipped: 1 },
    });
    expect(r.doc.inputs.map((i) => [i.kind, i.lines, i.entries, i.torn, i.skipped, i.events])).toEqual([
      ['transcript', 18, 17, 1, { 'brand-new-entry': 1 }, 12],
      ['subagent_transcript', 4, 4, 0, {}, 4],
    ]);
    const [e3, e4] = [r.doc.events[2]!, r.doc.events[3]!];
    expect(e3).toMatchObject({
      seq: 3,
      event: 'PreToolUse',
      tool_use_id: 'toolu_01',
      label: 'Bash: rm -rf build',
      old: { verdict: 'deny', basis: 'attachment', hooks: ['.claude/hooks/no-rm.sh'] },
      new: { verdict: 'deny' },
      change: null,
      fired_now_only: [],
      fired_then_only: [],
    });
    expect(e4).toMatchObject({
      seq: 4,
      label: 'mcp__github__create_pull_request',
      old: { verdict: 'proceeded', basis: 'tool_result', hooks: null },
      new: {
        verdict: 'deny',
        reason: 'no PRs today',
        runs: [{ hook_name: 'project:PreToolUse:2.1', outcome: 'denied' }],
      },
      change: 'blocks',
      fired_now_only: null,
      fired_then_only: null,
      source: { line: 6, kind: 'transcript' },
    });
    expect(r.stderr).toContain(`${SID}.jsonl:18: not valid JSON; line skipped`);
    expect(r.stderr).toContain('replay runs command hooks for real (2 hooks, up to 16 events)');
  });

  it('records nothing for the user and writes no state; hooks see HOOKCTL_REPLAY=1', async () => {
    const sb = sandbox();
    guards(sb, { UserPromptSubmit: [group([cmd(`printf '%s\\n' "$HOOKCTL_REPLAY" >> ${join(sb.out, 'seen')}`)])] });
    install(sb);
    // HOOKCTL_RECORD_PAYLOADS only ever makes `hooks fire` keep payloads, never a replay.
    const r = await runCli(['hooks', 'replay', '--workspace', sb.workspace], {
      env: { ...sb.env, HOOKCTL_RECORD_PAYLOADS: '1' },
    });
    expect(r.code).toBe(1);
    expect(readFileSync(join(sb.out, 'seen'), 'utf8')).toBe('1\n1\n');
    expect(existsSync(sb.env.HOOKCTL_STATE_DIR!)).toBe(false);
  });

  it('prints the changed events and the summary in the human report', async () => {
    const sb = sandbox();
    guards(sb);
    install(sb);
    const r = await sb.cli(['hooks', 'replay']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Session\s+Seq\s+Event\s+Call\s+Then\s+Now\s+Change$/);
    expect(lines[1]).toMatch(
      /^4b1e0c2a\s+4\s+PreToolUse\s+mcp__github__create_pull_request\s+proceeded\s+deny\s+now blocks$/,
    );
    expect(lines).toContain(
      'replayed 16 events from 1 session: 1 changed (1 now block, 0 now ask, 0 now allow, 0 differ), 0 without a record of the old decision',
    );
    expect(lines.at(-1)).toBe(
      '1 torn and 0 foreign lines skipped; 1 entries of types replay does not read (brand-new-entry 1)',
    );
    const all = await sb.cli(['hooks', 'replay', '--all', '--fail-on', 'none']);
    expect(all.code).toBe(0);
    expect(all.stdout.split('\n').filter((l) => l.startsWith('4b1e0c2a'))).toHaveLength(16);
  });

  it('says where it looked when the workspace has no transcripts', async () => {
    const sb = sandbox();
    guards(sb);
    const r = await sb.cli(['hooks', 'replay']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no Claude Code transcripts for ${sb.workspace} (looked in `);
    expect(r.stderr).toContain(projectDirName(sb.workspace));
    const all = await sb.cli(['hooks', 'replay', '--all-projects']);
    expect(all.code).toBe(2);
    expect(all.stderr).toContain(`(looked in ${join(sb.env.CLAUDE_CONFIG_DIR!, 'projects')})`);
  });

  it('warns once per transcript recorded elsewhere; --cwd workspace moves cwd and paths', async () => {
    const sb = sandbox();
    guards(sb, { PreToolUse: [group([cmd(`cat >> ${join(sb.out, 'read')}`)], 'Read')] });
    install(sb, '/home/ana/shop');
    const r = await replayJson(sb, '--tool', 'Read', '--include-payload');
    expect(r.stderr.match(/recorded in \/home\/ana\/shop, replayed against the hooks of/g)).toHaveLength(2);
    expect((r.doc.events[0]!.payload as Record<string, unknown>).cwd).toBe('/home/ana/shop');
    const w = await replayJson(sb, '--tool', 'Read', '--cwd', 'workspace', '--include-payload');
    const payload = w.doc.events[0]!.payload as { cwd: string; tool_input: { file_path: string } };
    expect(payload.cwd).toBe(sb.workspace);
    expect(payload.tool_input.file_path).toBe(join(sb.workspace, 'src', 'a.ts'));
  });
});

describe('hooks replay: the sandbox', () => {
  it('skips http hooks without --allow-http and marks the event incomplete', async () => {
    const sb = sandbox();
    guards(sb, {
      PostToolUse: [group([{ type: 'http', url: 'http://127.0.0.1:9/never' }], 'mcp__github__.*')],
    });
    install(sb);
    const r = await replayJson(sb, '--event', 'PostToolUse', '--tool', 'mcp__*');
    expect(r.doc.events).toHaveLength(1);
    expect(r.doc.events[0]).toMatchObject({
      incomplete: true,
      new: {
        verdict: 'pass',
        runs: [{ handler_type: 'http', outcome: 'skipped' }],
        unevaluated: [{ handler_type: 'http', why: 'http hooks do not run during replay (pass --allow-http)' }],
      },
    });
    expect(r.doc.summary).toMatchObject({ incomplete: 1, hook_runs: 0 });
  });

  it('--dry-run runs nothing, names what would run, warns of no side effect, exits 0', async () => {
    const sb = sandbox();
    guards(sb, { UserPromptSubmit: [group([cmd(`touch ${join(sb.out, 'ran')}`)])] });
    install(sb);
    const r = await replayJson(sb, '--dry-run');
    expect(r.code).toBe(0);
    expect(existsSync(join(sb.out, 'ran'))).toBe(false);
    expect(r.stderr).not.toContain('for real');
    expect(r.doc.summary).toMatchObject({ replayed: 0, changed: 0 });
    const e4 = r.doc.events[3]!;
    expect(e4).toMatchObject({ change: null, new: { verdict: null, runs: [], would_run: ['project:PreToolUse:2.1'] } });
    const fired = await replayJson(sb, '--dry-run', '--fail-on', 'fired', '--event', 'UserPromptSubmit');
    expect(fired.code).toBe(0); // the transcript names no UserPromptSubmit hook: nothing to compare
  });

  it('keeps the report order whatever --jobs is', async () => {
    const sb = sandbox();
    guards(sb);
    const dir = install(sb);
    // Three more sessions, recorded earlier and later than the first.
    const text = readFileSync(join(dir, `${SID}.jsonl`), 'utf8');
    for (const [id, day] of [
      ['aaaaaaaa-0000-4000-8000-000000000001', '19'],
      ['bbbbbbbb-0000-4000-8000-000000000002', '21'],
      ['cccccccc-0000-4000-8000-000000000003', '18'],
    ])
      writeFileSync(join(dir, `${id}.jsonl`), text.replaceAll(SID, id!).replaceAll('2026-08-20T', `2026-08-${day}T`));
    const one = await sb.cli(['hooks', 'replay', '--format', 'jsonl', '--jobs', '1']);
    const four = await sb.cli(['hooks', 'replay', '--format', 'jsonl', '--jobs', '4']);
    const keys = (out: string) =>
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.type === 'event')
        .map((l) => `${String(l.session_id).slice(0, 2)}#${String(l.seq)}`);
    expect(keys(one.stdout)).toHaveLength(52); // the copies have no subagent folder: 3 × 12 + 16;
    expect(keys(four.stdout)).toEqual(keys(one.stdout));
    expect(keys(one.stdout).filter((k) => k.endsWith('#1'))).toEqual(['cc#1', 'aa#1', '4b#1', 'bb#1']);
    const last = JSON.parse(four.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({ type: 'summary', summary: { sessions: 4, events: 52, changed: 4 } });
  });
});

describe('hooks replay: reports', () => {
  it('writes well-formed JUnit with the changed decision as a failure', async () => {
    const sb = sandbox();
    guards(sb);
    install(sb);
    const r = await sb.cli(['hooks', 'replay', '--format', 'junit']);
    expect(r.code).toBe(1);
    const tags: { name: string; attributes: Record<string, string> }[] = [];
    const parser = new SaxesParser();
    parser.on('error', (e) => {
      throw e;
    });
    parser.on('opentag', (t) => tags.push({ name: t.name, attributes: t.attributes as Record<string, string> }));
    parser.write(r.stdout).close();
    expect(tags[0]).toMatchObject({
      name: 'testsuites',
      attributes: { name: 'hookctl replay', tests: '16', failures: '1' },
    });
    expect(tags[1]).toMatchObject({ name: 'testsuite', attributes: { name: SID, tests: '16' } });
    const failures = tags.filter((t) => t.name === 'failure');
    expect(failures).toEqual([{ name: 'failure', attributes: { type: 'blocks', message: 'proceeded -> deny' } }]);
    const cases = tags.filter((t) => t.name === 'testcase');
    expect(cases[3]!.attributes).toEqual({ classname: SID, name: '#4 PreToolUse mcp__github__create_pull_request' });
  });

  it('--fail-on none exits 0, --fail-on fired counts hooks that fired differently', async () => {
    const sb = sandbox();
    // no-rm.sh no longer guards Bash: the denial the transcript records is now an allow.
    sb.settings({ PreToolUse: [group([cmd('true')], 'Bash')] });
    install(sb);
    const r = await replayJson(sb, '--fail-on', 'fired', '--tool', 'Bash');
    expect(r.code).toBe(1);
    const e = r.doc.events.find((x) => x.tool_use_id === 'toolu_01')!;
    expect(e).toMatchObject({
      change: 'allows',
      fired_now_only: ['true'],
      fired_then_only: ['.claude/hooks/no-rm.sh'],
    });
    expect(r.doc.summary).toMatchObject({ fired_differs: 1, by_change: { allows: 1 } });
    const none = await sb.cli(['hooks', 'replay', '--fail-on', 'none']);
    expect(none.code).toBe(0);
  });
});

describe('hooks replay: event files and errors', () => {
  it('replays an event file with its old verdicts', async () => {
    const sb = sandbox();
    guards(sb);
    const file = join(sb.root, 'calls.jsonl');
    const line = (command: string, old?: string) =>
      JSON.stringify({
        event: 'PreToolUse',
        dialect: 'claude',
        timestamp: '2026-08-20T09:00:00Z',
        ...(old ? { old_verdict: old } : {}),
        payload: { session_id: 'ev1', tool_name: 'Bash', tool_input: { command } },
      });
    writeFileSync(
      file,
      [line('rm -rf /', 'allow'), line('ls', 'allow'), line('rm -rf x'), '{"event":"Nope","payload":{}}', ''].join(
        '\n',
      ),
    );
    const r = await replayJson(sb, file);
    expect(r.code).toBe(1);
    expect(
      r.doc.events.map((e) => [
        e.seq,
        (e.old as { verdict: string }).verdict,
        (e.new as { verdict: string }).verdict,
        e.change,
      ]),
    ).toEqual([
      [1, 'allow', 'deny', 'blocks'],
      [2, 'allow', 'pass', 'differs'],
      [3, 'unknown', 'deny', null],
    ]);
    expect(r.doc.inputs[0]).toMatchObject({ kind: 'events', foreign: 1, events: 3 });
    expect(r.doc.summary).toMatchObject({ unknown_old: 1 });
  });

  it('answers bad input with exit 2 and one line', async () => {
    const sb = sandbox();
    guards(sb);
    install(sb);
    const missing = await sb.cli(['hooks', 'replay', join(sb.root, 'nope.jsonl')]);
    expect([missing.code, missing.stderr.trim()]).toEqual([
      2,
      `hookctl: ${join(sb.root, 'nope.jsonl')} does not exist`,
    ]);
    const torn = join(sb.root, 'torn.jsonl');
    writeFileSync(torn, '{"type":\n{"a"\n');
    const empty = await sb.cli(['hooks', 'replay', torn]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('nothing to replay: no valid entry in 1 file');
    const session = await sb.cli(['hooks', 'replay', '--session', 'nope', '-o', 'json']);
    expect(session.code).toBe(2);
    expect(JSON.parse(session.stdout)).toMatchObject({
      error: { code: 'unknown_session', message: 'no transcript or payload log for session "nope"' },
    });
    for (const args of [
      ['--jobs', '0'],
      ['--last', '0'],
      ['--fail-on', 'sometimes'],
      ['--since', 'yesterday'],
      ['--tool', '['],
    ]) {
      const bad = await sb.cli(['hooks', 'replay', ...args]);
      expect([args, bad.code]).toEqual([args, 2]);
    }
    const emptyDir = join(sb.root, 'empty');
    mkdirSync(emptyDir);
    const noTranscripts = await sb.cli(['hooks', 'replay', emptyDir]);
    expect(noTranscripts.stderr).toContain('no transcripts in');
  });

  it('refuses to replay over settings with errors unless --skip-invalid', async () => {
    const sb = sandbox();
    install(sb);
    writeFileSync(join(sb.workspace, '.claude', 'settings.json'), '{"hooks": {"PreToolUse": [ }');
    const r = await sb.cli(['hooks', 'replay']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('declaration error');
  });

  it('filters: --sidechain only, --last, --since', async () => {
    const sb = sandbox();
    guards(sb);
    install(sb);
    const side = await replayJson(sb, '--sidechain', 'only', '--fail-on', 'none');
    expect(side.doc.events.map((e) => e.event)).toEqual(['SubagentStart', 'PreToolUse', 'PostToolUse', 'SubagentStop']);
    const last = await replayJson(sb, '--last', '2');
    expect(last.doc.events.map((e) => e.seq)).toEqual([15, 16]);
    const none = await replayJson(sb, '--since', '2026-08-21T00:00:00Z');
    expect([none.code, none.doc.events.length]).toEqual([0, 0]);
    expect(none.stderr).toContain('no event matched the filters (16 events read)');
  });
});

describe('hooks replay: skills and agents', () => {
  const skillFile = (sb: Sandbox, out: string, folder = 'deploy') => {
    const dir = join(sb.workspace, '.claude', 'skills', folder);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'SKILL.md'),
      [
        '---',
        'name: deploy',
        'description: d',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Bash',
        '      hooks:',
        '        - type: command',
        `          command: ${sb.script('log-call.sh', `input=$(cat)\ncase "$input" in *'make deploy'*) echo 'make deploy';; *'"ls"'*) echo ls;; *) echo other;; esac >> ${out}`)}`,
        '          once: true',
        '---',
        'body',
        '',
      ].join('\n'),
    );
  };
  const transcript = (sb: Sandbox, skill = 'deploy') => {
    const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', projectDirName(sb.workspace));
    mkdirSync(dir, { recursive: true });
    let t = 0;
    const at = () => new Date(Date.UTC(2026, 7, 20, 9, 0, t++)).toISOString();
    const env = { sessionId: 'sk1', cwd: sb.workspace, isSidechain: false };
    const call = (id: string, name: string, input: Record<string, unknown>) => [
      {
        ...env,
        type: 'assistant',
        timestamp: at(),
        message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
      },
      {
        ...env,
        type: 'user',
        timestamp: at(),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
      },
    ];
    const lines = [
      { ...env, type: 'user', timestamp: at(), message: { role: 'user', content: 'ship it' } },
      ...call('t1', 'Bash', { command: 'ls' }),
      ...call('t2', 'Skill', { skill }),
      ...call('t3', 'Bash', { command: 'make deploy' }),
      ...call('t4', 'Bash', { command: 'make verify' }),
    ];
    writeFileSync(join(dir, 'sk1.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  };

  it('activates a skill when the session invoked it, its once hooks once per replayed session', async () => {
    const sb = sandbox();
    const out = join(sb.out, 'skill');
    skillFile(sb, out);
    sb.settings({});
    transcript(sb);
    const r = await sb.cli(['hooks', 'replay']);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('make deploy\n');
    const again = await sb.cli(['hooks', 'replay', '--skill', 'deploy']);
    expect(again.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('make deploy\nls\n'); // a fresh sandbox: once runs again
  });

  it('matches the skill Claude Code invoked by its folder name too', async () => {
    const sb = sandbox();
    const out = join(sb.out, 'skill');
    skillFile(sb, out, 'ship');
    sb.settings({});
    transcript(sb, 'ship');
    const r = await sb.cli(['hooks', 'replay']);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('make deploy\n');
  });

  it("runs a subagent's own hooks for its events", async () => {
    const sb = sandbox();
    guards(sb);
    const agents = join(sb.workspace, '.claude', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(
      join(agents, 'reviewer.md'),
      [
        '---',
        'name: reviewer',
        'description: r',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Read',
        '      hooks:',
        '        - type: command',
        `          command: "echo reviewers do not read >&2; exit 2"`,
        '---',
        'body',
        '',
      ].join('\n'),
    );
    install(sb);
    const r = await replayJson(sb, '--sidechain', 'only');
    expect(
      r.doc.events.filter((e) => e.change !== null).map((e) => [e.event, e.tool_name, e.agent_id, e.change]),
    ).toEqual([['PreToolUse', 'Read', 'a1', 'blocks']]);
  });
});

describe('hooks replay: more sources', () => {
  it('reads every project folder with --all-projects, and a flat agent file by its session id', async () => {
    const sb = sandbox();
    guards(sb);
    const dir = install(sb, '/home/ana/shop', '-home-ana-shop');
    // the older layout: the subagent transcript flat beside the main one
    cpSync(join(dir, SID, 'subagents', 'agent-a1.jsonl'), join(dir, 'agent-a1.jsonl'));
    cpSync(join(dir, SID, 'subagents', 'agent-a1.meta.json'), join(dir, 'agent-a1.meta.json'));
    rmSync(join(dir, SID), { recursive: true });
    const none = await sb.cli(['hooks', 'replay']);
    expect(none.code).toBe(2);
    const r = await replayJson(sb, '--all-projects', '--progress');
    expect(r.code).toBe(1);
    expect(r.doc.summary).toMatchObject({ sessions: 1, events: 16 });
    expect(r.doc.inputs.map((i) => [i.kind, i.session_id])).toEqual([
      ['transcript', SID],
      ['subagent_transcript', SID],
    ]);
    expect(r.stderr).toContain('replay: 16/16 events (1 changed)');
  });

  it('reads a folder PATH with its subagent files', async () => {
    const sb = sandbox();
    guards(sb);
    const dir = install(sb, sb.workspace, 'elsewhere');
    const r = await replayJson(sb, dir);
    expect(r.doc.summary).toMatchObject({ sessions: 1, events: 16, changed: 1 });
    const file = await replayJson(sb, join(dir, `${SID}.jsonl`), '--fail-on', 'none');
    expect([file.code, file.doc.summary.events]).toEqual([0, 12]);
  });
});

describe('hooks replay: the README', () => {
  it('shows what replay prints for the demo transcript', async () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const command =
      'hookctl hooks replay fixtures/demo/claude/transcripts --workspace fixtures/demo/claude/workspace --cwd workspace';
    const start = readme.indexOf(`\n$ ${command}\n`);
    expect(start).toBeGreaterThan(0);
    const body = readme.slice(start + command.length + 4);
    const shown = body.slice(0, body.indexOf('\n```'));
    const claude = join(demoDir, 'claude');
    const state = tempDir('hookctl-replay-demo-');
    const r = await runCli(command.split(' ').slice(1), {
      env: {
        ...isolatedEnv(),
        HOME: join(claude, 'home'),
        CLAUDE_CONFIG_DIR: join(claude, 'home', '.claude'),
        HOOKCTL_CLAUDE_MANAGED_DIR: join(claude, 'managed'),
        HOOKCTL_STATE_DIR: state,
        DEMO_LOG: join(state, 'demo.log'),
      },
    });
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd()).toBe(shown);
    expect(readdirSync(state).filter((n) => n !== 'demo.log')).toEqual([]);
  });
});

describe('hooks replay: the payload log', () => {
  const log = (sb: Sandbox, session: string) =>
    join(sb.env.HOOKCTL_STATE_DIR!, 'claude', 'sessions', session, 'payloads.jsonl');
  const lines = (file: string) =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const call = (command: string) => ({ session_id: 'p1', tool_name: 'Bash', tool_input: { command } });

  it('is written only when asked, 0600, one redacted line per dispatch', async () => {
    const sb = sandbox();
    guards(sb);
    await sb.fire('PreToolUse', call('ls'));
    expect(existsSync(log(sb, 'p1'))).toBe(false);
    await sb.fire('PreToolUse', call('ls'), '--record-payload', '--no-record');
    expect(existsSync(log(sb, 'p1'))).toBe(false);
    const denied = await sb.fire('PreToolUse', call('rm -rf build --password=hunter2'), '--record-payload');
    expect(denied.code).toBe(1);
    expect(statSync(log(sb, 'p1')).mode & 0o777).toBe(0o600);
    const [line] = lines(log(sb, 'p1'));
    expect(line).toMatchObject({
      dispatch_id: denied.json.dispatch_id,
      session_id: 'p1',
      dialect: 'claude',
      event: 'PreToolUse',
      verdict: 'deny',
      workspace: sb.workspace,
      bytes: JSON.stringify(call('rm -rf build --password=hunter2')).length,
      redacted: ['/tool_input/command'],
      payload: { tool_input: { command: 'rm -rf build --password=[REDACTED]' } },
    });
  });

  it('narrows a wider file to 0600, stores a large payload as omitted, and stops at the cap', async () => {
    const sb = sandbox();
    guards(sb);
    const file = log(sb, 'p1');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '', { mode: 0o644 });
    const env = { ...sb.env, HOOKCTL_RECORD_PAYLOADS: '1' };
    const fire = (payload: unknown, extra: Record<string, string> = {}) =>
      runCli(['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '--workspace', sb.workspace], {
        env: { ...env, ...extra },
        input: JSON.stringify(payload),
      });
    await fire(call('x'.repeat(300_000)));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(lines(file)[0]).toMatchObject({ payload: null, omitted: 'too_large' });
    const size = statSync(file).size;
    const full = await fire(call('ls'), { HOOKCTL_PAYLOADS_MAX_BYTES: String(size + 10) });
    expect(full.stderr).toContain(`payloads.jsonl is full (${size} bytes); this payload was not recorded`);
    expect(statSync(file).size).toBe(size);
    const r = await replayJson(sb, '--ledger');
    expect(r.doc.inputs[0]).toMatchObject({ kind: 'payloads', skipped: { too_large: 1 }, events: 0 });
  });

  it('replays recorded payloads with --ledger: the old verdict, the hooks by name, redacted', async () => {
    const sb = sandbox();
    const none = await sb.cli(['hooks', 'replay', '--ledger']);
    expect([none.code, none.stderr.trim()]).toEqual([
      2,
      'hookctl: no recorded payloads (record them with HOOKCTL_RECORD_PAYLOADS=1 or hooks fire --record-payload)',
    ]);
    guards(sb);
    await sb.fire('PreToolUse', call('rm -rf build'), '--record-payload');
    await sb.fire('PreToolUse', call('git push token=abc123'), '--record-payload');
    // Today the Bash guard is gone and pushes are denied.
    sb.settings({
      PreToolUse: [
        group([cmd('true')], 'Grep'),
        group([cmd(`echo '{"decision":"block","reason":"no push"}'`)], 'Bash'),
      ],
    });
    const r = await replayJson(sb, '--ledger');
    expect(r.code).toBe(1);
    expect(
      r.doc.events.map((e) => [
        e.label,
        (e.old as { verdict: string }).verdict,
        (e.new as { verdict: string }).verdict,
        e.change,
        e.redacted,
        e.fired_now_only,
        e.fired_then_only,
      ]),
    ).toEqual([
      ['Bash: rm -rf build', 'deny', 'deny', null, false, ['project:PreToolUse:2.1'], ['project:PreToolUse:1.1']],
      [
        'Bash: git push token=[REDACTED]',
        'pass',
        'deny',
        'blocks',
        true,
        ['project:PreToolUse:2.1'],
        ['project:PreToolUse:1.1'],
      ],
    ]);
    expect(r.doc.events[0]!.old).toMatchObject({ basis: 'ledger', hooks: ['project:PreToolUse:1.1'] });
  });
});

describe('hooks replay: dialects, errors in dispatch, warnings', () => {
  const eventFile = (sb: Sandbox) => {
    const file = join(sb.root, 'calls.jsonl');
    const payload = { session_id: 'ev1', tool_name: 'Bash', tool_input: { command: 'ls' } };
    writeFileSync(file, JSON.stringify({ event: 'PreToolUse', old_verdict: 'allow', payload }) + '\n');
    return file;
  };

  it('stops before anything runs when an event file line is declared in two dialects', async () => {
    const sb = sandbox();
    guards(sb);
    mkdirSync(sb.env.COSH_HOME!, { recursive: true });
    writeFileSync(
      join(sb.env.COSH_HOME!, 'config.toml'),
      '[[hooks.PreToolUse]]\nname = "cosh-audit"\ncommand = "true"\n',
    );
    const file = eventFile(sb);
    const r = await sb.cli(['hooks', 'replay', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('event "PreToolUse" is declared in more than one dialect (claude, cosh)');
    expect(r.stderr).not.toContain('for real');
    const cosh = await replayJson(sb, file, '--dialect', 'cosh');
    expect(cosh.doc.events[0]).toMatchObject({ dialect: 'cosh', new: { runs: [{ hook_name: 'cosh-audit' }] } });
  });

  it('reports a dispatch that could not happen as an error, in JSON and JUnit, never exit 3', async () => {
    const sb = sandbox();
    guards(sb);
    const file = eventFile(sb);
    const env = { ...sb.env, HOOKCTL_DISPATCH_DEPTH: '3' };
    const run = (...args: string[]) => runCli(['hooks', 'replay', file, '--workspace', sb.workspace, ...args], { env });
    const json = await run('-o', 'json');
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as Doc;
    expect(doc.events[0]).toMatchObject({
      change: null,
      new: { verdict: null, error: expect.stringContaining('depth') },
    });
    const junit = await run('--format', 'junit');
    expect(junit.stdout).toContain('errors="1"');
    expect(junit.stdout).toMatch(/<error message="[^"]*depth/);
  });

  it('warns of an --event pattern no dialect knows, and refuses an invalid one', async () => {
    const sb = sandbox();
    guards(sb);
    install(sb);
    const r = await replayJson(sb, '--event', 'PreToolUs');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('no known event matches "PreToolUs"');
    expect(r.stderr).toContain('no event matched the filters (16 events read)');
    const bad = await sb.cli(['hooks', 'replay', '--event', '[']);
    expect(bad.code).toBe(2);
  });

  it('--from events reads a file whose first line looks like a transcript; --hook runs only the named hooks', async () => {
    const sb = sandbox();
    guards(sb);
    const file = join(sb.root, 'mixed.jsonl');
    const payload = { session_id: 'ev1', tool_name: 'Bash', tool_input: { command: 'rm -rf x' } };
    writeFileSync(
      file,
      [
        JSON.stringify({ type: 'summary', summary: 'x' }),
        JSON.stringify({ event: 'PreToolUse', dialect: 'claude', payload }),
      ].join('\n') + '\n',
    );
    const asTranscript = await sb.cli(['hooks', 'replay', file]);
    expect(asTranscript.code).toBe(0);
    const asEvents = await replayJson(sb, file, '--from', 'events');
    expect(asEvents.doc.inputs[0]).toMatchObject({ kind: 'events', foreign: 1, events: 1 });
    expect(asEvents.doc.events[0]).toMatchObject({ new: { verdict: 'deny' } });
    const other = await replayJson(sb, file, '--from', 'events', '--hook', 'project:PreToolUse:2.1');
    expect(other.doc.events[0]).toMatchObject({ new: { verdict: 'pass', runs: [] } });
  });
});

describe('hooks replay: in a terminal', () => {
  it.skipIf(!hasTmux)('shows progress on stderr by default, one line rewritten', async () => {
    const sb = sandbox();
    guards(sb);
    install(sb);
    const lines = await runInTerminal(['hooks', 'replay', '--workspace', sb.workspace, '--fail-on', 'none'], {
      columns: 200,
      env: sb.env,
    });
    const progress = lines.filter((l) => l.includes('replay: '));
    expect(progress).toEqual([expect.stringMatching(/replay: 16\/16 events \(1 changed\)$/)]);
    expect(lines.some((l) => l.startsWith('replayed 16 events from 1 session'))).toBe(true);
  });
});

describe('hooks replay: the Claude Code release and mods (§4.1)', () => {
  it('names the release it follows: the newest, or the one --claude-version selects', async () => {
    const sb = sandbox();
    guards(sb);
    install(sb);
    const newest = await replayJson(sb, '--dry-run');
    expect(newest.doc.replay.claude_version).toMatch(/^2\.1\.\d+$/);
    const old = await replayJson(sb, '--dry-run', '--claude-version', '2.1.240');
    expect(old.doc.replay.claude_version).toBe('2.1.240');
    const bad = await sb.cli(['hooks', 'replay', '--dry-run', '--claude-version', '9.9.9']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/9\.9\.9/);
  });

  it('says once per replay, not once per event, which replayed events a mod may intercept; JSON has no mods', async () => {
    const sb = sandbox();
    guards(sb);
    install(sb);
    const root = join(sb.root, 'guard-mod');
    const put = (file: string, text: string) => {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, text);
    };
    put(join(root, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'guard' }));
    put(join(root, 'hooks/hooks.json'), JSON.stringify({ modules: ['./mod.ts'], hooks: {} }));
    put(join(root, 'hooks/mod.ts'), "export function register(hook) {\n  hook('tool.check', () => {});\n}\n");
    const r = await replayJson(sb, '--dry-run', '--plugin-dir', root);
    const notes = r.stderr.split('\n').filter((l) => l.includes('mod "guard" may intercept'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^hookctl: note: mod "guard" may intercept PreToolUse/);
    expect(JSON.stringify(r.doc)).not.toContain('"mods"');
  });
});
