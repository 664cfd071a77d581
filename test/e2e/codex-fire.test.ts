// `hooks fire` on codex events end to end (codex.md §5–§8): the built CLI, real hook scripts in a
// temp workspace's `.codex/hooks.json`, a CODEX_HOME whose config.toml trusts the project and,
// where a test says so, the hooks' hashes. Checked: trust skips and --trust-all, verdicts and exit
// codes, records in hookctl's state folder, -o json / jsonl / human output, the dry-run plan, env
// exports, and that hooks test, sessions and runs --stats read codex records unchanged.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { startCollector, type TestCollector } from '../support/otlp-collector.js';
import { tempDir } from '../support/temp.js';

interface Box {
  root: string;
  ws: string;
  env: Record<string, string>;
  out: string;
  hooks(doc: Record<string, unknown>): void;
  /** Writes the user config.toml: project trust plus `[hooks.state]` for the given hashes. */
  trust(hashes?: { key: string; hash: string }[]): void;
  run(args: string[], input?: string): ReturnType<typeof runCli>;
  fire(event: string, payload: Record<string, unknown>, ...flags: string[]): Promise<FireRun>;
}

interface FireRun {
  code: number;
  stdout: string;
  stderr: string;
  json: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function box(): Box {
  const root = tempDir('hookctl-codex-fire-');
  const ws = join(root, 'ws');
  const out = join(root, 'out');
  mkdirSync(join(ws, '.git'), { recursive: true });
  mkdirSync(out);
  const env: Record<string, string> = { ...isolatedEnv({ home: join(root, 'home') }), SHELL: '/bin/sh' };
  const write = (file: string, text: string) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  const b: Box = {
    root,
    ws,
    env,
    out,
    hooks: (doc) => write(join(ws, '.codex', 'hooks.json'), JSON.stringify({ hooks: doc }, null, 2)),
    trust: (hashes = []) =>
      write(
        join(env.CODEX_HOME!, 'config.toml'),
        `[projects.${JSON.stringify(ws)}]\ntrust_level = "trusted"\n` +
          hashes.map((h) => `\n[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = "${h.hash}"\n`).join(''),
      ),
    run: (args, input) => runCli(args, { env, cwd: ws, ...(input !== undefined ? { input } : {}), timeoutMs: 60_000 }),
    async fire(event, payload, ...flags) {
      const r = await b.run(
        ['hooks', 'fire', event, '--dialect', 'codex', '-o', 'json', ...flags],
        JSON.stringify(payload),
      );
      let json = {};
      try {
        json = JSON.parse(r.stdout) as Record<string, unknown>;
      } catch {
        // not JSON: the test looks at stdout itself
      }
      return { ...r, json };
    },
  };
  b.trust();
  return b;
}

const cmd = (command: string, more: Record<string, unknown> = {}) => ({ type: 'command', command, ...more });
const group = (hooks: unknown[], matcher?: string) => ({ ...(matcher !== undefined ? { matcher } : {}), hooks });
const bash = { tool_name: 'Bash', tool_input: { command: 'git push' } };
const NAME = (event: string, g: number, h: number) => `project/.codex/hooks.json:${event}:${g}.${h}`;

/** The key and current hash of every listed codex hook. */
async function hashes(b: Box): Promise<{ key: string; hash: string; name: string }[]> {
  const r = await b.run(['hooks', 'list', '--dialect', 'codex', '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { key: string; current_hash: string; name: string }[]).map((h) => ({
    key: h.key,
    hash: h.current_hash,
    name: h.name,
  }));
}

describe('codex fire: trust (§5.1)', () => {
  it('skips untrusted hooks with a record, a warning and skipped_untrusted; exit 0', async () => {
    const b = box();
    b.hooks({ PreToolUse: [group([cmd(`touch ${join(b.out, 'ran')}; echo no >&2; exit 2`)], '^Bash$')] });
    const r = await b.fire('PreToolUse', { ...bash, session_id: 'sess-untrusted' });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(b.out, 'ran'))).toBe(false);
    expect(r.stderr).toContain(
      '1 hook was skipped because it is not trusted (Codex skips it silently); see hooks list or pass --trust-all',
    );
    expect(r.json.verdict).toBe('pass');
    expect(r.json.skipped_untrusted).toEqual([NAME('PreToolUse', 1, 1)]);
    const [h] = await hashes(b);
    expect(r.json.runs).toHaveLength(1);
    expect(r.json.runs[0]).toMatchObject({
      outcome: 'skipped',
      why: `untrusted: hook has not been trusted (current hash ${h!.hash})`,
      trust: 'untrusted',
      codex_status: null,
      hook_hash: h!.hash,
      key: h!.key,
    });
    const ledger = join(b.env.HOOKCTL_STATE_DIR!, 'codex', 'sessions', 'sess-untrusted', 'hook-runs.jsonl');
    const lines = readFileSync(ledger, 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { outcome: string }).outcome)).toEqual(['skipped']);
  });

  it('a trusted hook runs; a modified one is skipped with both hashes; --trust-all runs both', async () => {
    const b = box();
    b.hooks({
      PreToolUse: [group([cmd(`echo 'no pushes' >&2; exit 2`), cmd(`echo '{"systemMessage":"checked"}'`)], 'Bash')],
    });
    const [deny, msg] = await hashes(b);
    b.trust([deny!, { key: msg!.key, hash: 'sha256:' + '0'.repeat(64) }]);
    const r = await b.fire('PreToolUse', bash);
    expect(r.code, r.stderr).toBe(1);
    expect(r.json).toMatchObject({ verdict: 'deny', reason: 'no pushes', system_message: null });
    expect(r.json.runs.map((x: { trust: string; outcome: string }) => [x.trust, x.outcome])).toEqual([
      ['trusted', 'denied'],
      ['modified', 'skipped'],
    ]);
    expect(r.json.runs[1].why).toBe(
      `modified: hook changed since it was trusted (trusted sha256:${'0'.repeat(64)}, current ${msg!.hash})`,
    );
    const all = await b.fire('PreToolUse', bash, '--trust-all');
    expect(all.code).toBe(1);
    expect(all.json).toMatchObject({ verdict: 'deny', system_message: 'checked', skipped_untrusted: [] });
    expect(all.stderr).not.toContain('not trusted');
  });
});

describe('codex fire: output (§6)', () => {
  it('-o json has exactly the §6 keys', async () => {
    const b = box();
    b.hooks({ Stop: [group([cmd('true')])] });
    const r = await b.fire('Stop', {}, '--trust-all');
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(r.json)).toEqual([
      'event',
      'dialect',
      'session_id',
      'dispatch_id',
      'verdict',
      'reason',
      'stop_reason',
      'system_message',
      'additional_context',
      'feedback',
      'next_turn_context',
      'env_exports',
      'payload',
      'runs',
      'skipped_untrusted',
      'notifications',
      'unevaluated',
      'error',
    ]);
    expect(r.json).toMatchObject({ event: 'Stop', dialect: 'codex', verdict: 'pass', error: null });
  });

  it('-o jsonl streams each record, then the notifications', async () => {
    const b = box();
    b.hooks({
      UserPromptSubmit: [group([cmd(`echo '{"systemMessage":"note"}'`), cmd('exit 7')])],
    });
    const r = await b.run(
      ['hooks', 'fire', 'UserPromptSubmit', '--dialect', 'codex', '--trust-all', '-o', 'jsonl'],
      JSON.stringify({ prompt: 'hi' }),
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(lines.slice(0, 2).map((l) => l.run_id !== undefined)).toEqual([true, true]);
    expect(lines.slice(2)).toEqual([
      {
        type: 'stream_event',
        event: {
          subtype: 'hook_notification',
          hook_name: NAME('UserPromptSubmit', 1, 1),
          kind: 'system_message',
          message: 'note',
          decision: null,
        },
      },
      {
        type: 'stream_event',
        event: {
          subtype: 'hook_notification',
          hook_name: NAME('UserPromptSubmit', 1, 2),
          kind: 'hook_error',
          message: 'hook exited with code 7',
          decision: null,
        },
      },
    ]);
  });

  it('human output: verdict, reason, context, then Hook, Trust, Outcome, Decision, Duration, Error', async () => {
    const b = box();
    b.hooks({
      UserPromptSubmit: [group([cmd('echo "some context"'), cmd(`echo 'not that' >&2; exit 2`)])],
    });
    const r = await b.run(
      ['hooks', 'fire', 'UserPromptSubmit', '--dialect', 'codex', '--trust-all'],
      JSON.stringify({ prompt: 'hi' }),
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/verdict\s+block/);
    expect(r.stdout).toMatch(/reason\s+not that/);
    expect(r.stdout).toMatch(/context\s+some context/);
    expect(r.stdout).toMatch(/Hook\s+Trust\s+Outcome\s+Decision\s+Duration\s+Error/);
    expect(r.stdout).toMatch(/UserPromptSubmit:1\.2\s+untrusted\s+denied\s+block/);
  });

  it('--dry-run -o json: the plan with trust, fields and runnable; nothing runs', async () => {
    const b = box();
    b.hooks({
      PreToolUse: [
        group([cmd(`touch ${join(b.out, 'ran')}`)], '^Bash$'),
        group([{ type: 'mcp_tool', server: 'srv', tool: 'check' }], 'Edit'),
      ],
    });
    const r = await b.run(
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'codex', '--dry-run', '-o', 'json'],
      JSON.stringify(bash),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(b.out, 'ran'))).toBe(false);
    const doc = JSON.parse(r.stdout) as { event: string; dialect: string; plan: Record<string, unknown>[] };
    expect(doc).toMatchObject({ event: 'PreToolUse', dialect: 'codex' });
    expect(doc.plan).toHaveLength(2);
    expect(doc.plan[0]).toMatchObject({
      name: NAME('PreToolUse', 1, 1),
      source: 'codex_project',
      order: 1,
      status: 'active',
      why: null,
      trust: 'untrusted',
      matched: true,
      fields: [{ field: 'tool_name', pattern: '^Bash$', value: 'Bash', matched: true }],
      runnable: false,
    });
    expect(doc.plan[1]).toMatchObject({
      matched: false,
      runnable: false,
      skipped_why: expect.stringMatching(/^untrusted: hook has not been trusted \(current hash sha256:[0-9a-f]{64}\)$/),
    });
    const all = await b.run(
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'codex', '--dry-run', '--trust-all', '-o', 'json'],
      JSON.stringify(bash),
    );
    const plan = (JSON.parse(all.stdout) as { plan: { runnable: boolean; skipped_why: string | null }[] }).plan;
    expect(plan.map((p) => p.runnable)).toEqual([true, false]);
    expect(plan.map((p) => p.skipped_why)).toEqual([null, 'mcp_tool hooks run only inside Codex']);
    const human = await b.run(
      ['hooks', 'fire', 'PreToolUse', '--dialect', 'codex', '--dry-run', '--trust-all'],
      JSON.stringify(bash),
    );
    expect(human.stdout).toContain('(not run: mcp_tool hooks run only inside Codex)');
  });
});

describe('codex fire: execution (§5.2–§5.8)', () => {
  it('SessionStart: env files to env_exports, plain stdout as context, the payload without a trailing newline', async () => {
    const b = box();
    const stdin = join(b.out, 'stdin');
    b.hooks({
      SessionStart: [
        group([
          cmd(`cat > ${stdin}; echo 'export FOO=1' >> "$CODEX_ENV_FILE"; echo 'hello from start'`),
          cmd(`echo 'export BAR=2' >> "$CLAUDE_ENV_FILE"`),
        ]),
      ],
    });
    const r = await b.fire('SessionStart', { source: 'startup' }, '--trust-all');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.env_exports).toEqual([
      { hook: NAME('SessionStart', 1, 1), line: 'export FOO=1' },
      { hook: NAME('SessionStart', 1, 2), line: 'export BAR=2' },
    ]);
    expect(r.json.additional_context).toBe('hello from start');
    const sent = readFileSync(stdin, 'utf8');
    expect(sent.endsWith('}')).toBe(true);
    expect(JSON.parse(sent)).toMatchObject({
      hook_event_name: 'SessionStart',
      source: 'startup',
      transcript_path: null,
    });
  });

  it('a timeout fails the hook; an async hook is waited for and goes to next_turn_context', async () => {
    const b = box();
    const late = join(b.out, 'late');
    b.hooks({
      PostToolUse: [
        group([
          cmd('sleep 20', { timeout: 1 }),
          cmd(
            `sleep 0.3; touch ${late}; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"for later"}}'`,
            { async: true },
          ),
          cmd(`echo '{"decision":"block","reason":"bad output"}'`),
        ]),
      ],
    });
    const r = await b.fire('PostToolUse', { ...bash, tool_response: 'x' }, '--trust-all');
    expect(r.code, r.stderr).toBe(1);
    expect(existsSync(late)).toBe(true);
    expect(r.json).toMatchObject({
      verdict: 'block',
      reason: 'bad output',
      feedback: 'bad output',
      next_turn_context: 'for later',
    });
    expect(
      r.json.runs.map((x: { mode: string; outcome: string; timed_out: boolean }) => [x.mode, x.outcome, x.timed_out]),
    ).toEqual([
      ['sync', 'failed', true],
      ['async', 'applied', false],
      ['sync', 'denied', false],
    ]);
    expect(r.json.runs[0].error).toBe('hook timed out after 1s');
  });
});

describe('codex with the shared commands (§7: hooks test, sessions, runs --stats)', () => {
  it('runs a codex hooks test file (trust_all) and reads its records in sessions and runs --stats', async () => {
    const b = box();
    b.hooks({ PreToolUse: [group([cmd(`echo 'blocked by test' >&2; exit 2`)], 'Bash')] });
    const file = join(b.ws, 'codex.hooktest.yaml');
    writeFileSync(
      file,
      [
        'name: codex guard',
        'dialect: codex',
        'cases:',
        '  - name: untrusted hooks are skipped',
        '    event: PreToolUse',
        '    payload: { tool_name: Bash, tool_input: { command: "git push" } }',
        '    expect: { verdict: pass, exit_code: 0 }',
        '  - name: trusted by the case, the guard denies',
        '    event: PreToolUse',
        '    trust_all: true',
        '    payload: { tool_name: Bash, tool_input: { command: "git push" } }',
        '    expect:',
        '      verdict: deny',
        '      exit_code: 1',
        '      reason: blocked by test',
        `      outcomes: { "${NAME('PreToolUse', 1, 1)}": denied }`,
        // A dry run says what a fire would run: an untrusted hook would be skipped, not run.
        '  - name: dry run, untrusted',
        '    event: PreToolUse',
        '    dry_run: true',
        '    payload: { tool_name: Bash }',
        `    expect: { not_ran: ["${NAME('PreToolUse', 1, 1)}"] }`,
        '  - name: dry run, trusted by the case',
        '    event: PreToolUse',
        '    dry_run: true',
        '    trust_all: true',
        '    payload: { tool_name: Bash }',
        `    expect: { ran: ["${NAME('PreToolUse', 1, 1)}"] }`,
        '',
      ].join('\n'),
    );
    const t = await b.run(['hooks', 'test', file]);
    expect(t.code, t.stdout + t.stderr).toBe(0);
    expect(t.stdout).toContain('4 passed, 0 failed');

    for (const s of ['s-one', 's-two']) {
      const r = await b.fire('PreToolUse', { ...bash, session_id: s }, '--trust-all');
      expect(r.code).toBe(1);
    }
    const sessions = await b.run(['hooks', 'sessions', '-o', 'json']);
    expect(sessions.code, sessions.stderr).toBe(0);
    const listed = JSON.parse(sessions.stdout) as { session_id: string; dialect: string }[];
    expect(
      listed
        .filter((x) => x.dialect === 'codex')
        .map((x) => x.session_id)
        .sort(),
    ).toEqual(['s-one', 's-two']);
    const stats = await b.run(['hooks', 'runs', '--stats', '--all-sessions', '-o', 'json']);
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toEqual([
      expect.objectContaining({
        hook_name: NAME('PreToolUse', 1, 1),
        event: 'PreToolUse',
        dialect: 'codex',
        runs: 2,
        outcomes: { denied: 2 },
      }),
    ]);
  });
});

const collectors: TestCollector[] = [];
afterEach(async () => {
  await Promise.all(collectors.splice(0).map((c) => c.close()));
});

describe('codex with the OpenTelemetry export (SPEC §9)', () => {
  it('exports the dispatch and one run span per hook, each hook seeing its own TRACEPARENT', async () => {
    const b = box();
    const c = await startCollector();
    collectors.push(c);
    const dump = (name: string) => cmd(`printf %s "$TRACEPARENT" > ${join(b.out, name)}`);
    b.hooks({ PreToolUse: [group([dump('one'), dump('two')], 'Bash')] });
    b.env.OTEL_EXPORTER_OTLP_ENDPOINT = c.url;
    const r = await b.fire('PreToolUse', bash, '--trust-all');
    expect(r.code, r.stderr).toBe(0);
    const spans = c.spans();
    const dispatch = spans.find((s) => s.name === 'hookctl.dispatch')!;
    const runs = spans.filter((s) => s.name === 'hookctl.hook.run');
    expect(runs).toHaveLength(2);
    for (const s of runs) {
      expect(s.parentSpanId).toBe(dispatch.spanId);
      expect(s.attributes).toMatchObject({ 'hook.dialect': 'codex' });
    }
    const seen = ['one', 'two'].map((f) => readFileSync(join(b.out, f), 'utf8').split('-')[2]);
    expect(seen.sort()).toEqual(runs.map((s) => s.spanId).sort());
  });
});
