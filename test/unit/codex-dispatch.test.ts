// A codex dispatch at the core (codex.md §5–§6): real hook scripts through the real executor,
// declarations built by hand as the sources' loader builds them (CodexHandlerInfo in `extra`).
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrderedDeclaration } from '../../src/declarations/model.js';
import { dispatchCodex } from '../../src/dialects/codex/dispatch/dispatch.js';
import { planCodex } from '../../src/dialects/codex/dispatch/plan.js';
import type { CodexHandlerInfo } from '../../src/dialects/codex/model.js';
import type { DispatchRequest } from '../../src/dialects/types.js';
import { runSubprocess } from '../../src/exec/subprocess.js';
import { RUN_RECORD_FIELDS, type RunRecord } from '../../src/ledger/record.js';
import type { Locations } from '../../src/paths.js';
import { tempDir } from '../support/temp.js';
import { until } from '../support/until.js';

let root: string;
let workspace: string;
let bin: string;

beforeAll(async () => {
  root = tempDir('hookctl-codex-dispatch-');
  workspace = join(root, 'ws');
  bin = join(root, 'bin');
  await mkdir(workspace);
  await mkdir(bin);
});

async function script(name: string, body: string): Promise<string> {
  const file = join(bin, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

interface Spec {
  command?: string;
  matcher?: string | null;
  info?: Partial<CodexHandlerInfo>;
  status?: OrderedDeclaration['status'];
  env?: Record<string, string>;
}

/** Declarations as the codex loader builds them (codex.md §2), `trust: trusted` unless told. */
function decls(event: string, specs: Spec[]): OrderedDeclaration[] {
  return specs.map((s, i) => {
    const type = s.info?.handler_type ?? 'command';
    const handler = type === 'command' ? { type, command: s.command ?? 'true' } : { type, server: 's', tool: 't' };
    const info: CodexHandlerInfo = {
      origin: 'project/.codex/hooks.json',
      file_kind: 'hooks_json',
      handler,
      handler_type: type,
      group_matcher: s.matcher ?? null,
      group_index: 0,
      handler_index: i,
      key: `${workspace}/.codex/hooks.json:pre_tool_use:0:${i}`,
      hash_input: '{}',
      current_hash: `sha256:${String(i).repeat(64)}`,
      trusted_hash: `sha256:${String(i).repeat(64)}`,
      trust: 'trusted',
      timeout_s: 600,
      async: false,
      status_message: null,
      context_limit: null,
      runnable: type === 'command',
      label: s.command ?? 's/t',
      ...s.info,
    };
    return {
      dialect: 'codex',
      name: `project/.codex/hooks.json:${event}:1.${i + 1}`,
      event,
      source: 'codex_project',
      mode: info.async ? 'async' : 'sync',
      required: false,
      priority: null,
      timeout_ms: info.timeout_s * 1000,
      enabled: true,
      metadata: {},
      matcher: (s.matcher ? { tool_name: s.matcher } : {}) as Record<string, string>,
      executor_kind: type,
      command: s.command ?? '',
      args: [],
      env: s.env ?? {},
      secret_env: {},
      cwd: workspace,
      location: { file: join(workspace, '.codex', 'hooks.json'), line: 3 + i },
      status: s.status ?? 'active',
      order: i + 1,
      extra: info as unknown as Record<string, unknown>,
    };
  });
}

function request(
  event: string,
  specs: Spec[],
  over: Partial<DispatchRequest> = {},
): DispatchRequest & { records: RunRecord[]; notes: unknown[] } {
  const records: RunRecord[] = [];
  const notes: unknown[] = [];
  return {
    event,
    payload: { tool_name: 'Bash', tool_input: { command: 'git push' } },
    declarations: decls(event, specs),
    loc: { workspace } as Locations,
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: root, SHELL: '/bin/sh', KEEP_ME: '1' },
    sessionId: 'sess-1',
    dispatchId: 'disp-1',
    depth: 1,
    executor: runSubprocess,
    onRecord: (r) => {
      records.push(r);
    },
    onNotification: (n) => notes.push(n),
    records,
    notes,
    ...over,
  };
}

const rec = (r: RunRecord) => r as unknown as Record<string, unknown>;

describe('codex dispatch: payload (§5.1)', () => {
  it('fills session_id, turn_id, transcript_path, cwd, permission_mode; replaces hook_event_name with a warning', async () => {
    const out = join(root, 'payload-pre.json');
    const req = request('PreToolUse', [{ command: `cat > ${out}` }], {
      payload: { tool_name: 'Bash', hook_event_name: 'Stop' },
    });
    const result = await dispatchCodex(req);
    const seen = JSON.parse(await readFile(out, 'utf8')) as Record<string, unknown>;
    expect(seen).toMatchObject({
      session_id: 'sess-1',
      transcript_path: null,
      cwd: workspace,
      hook_event_name: 'PreToolUse',
      permission_mode: 'default',
      tool_name: 'Bash',
    });
    expect(seen.turn_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen).not.toHaveProperty('model');
    expect(result.warnings).toContain('payload hook_event_name "Stop" replaced with "PreToolUse"');
  });

  it('no turn_id or permission_mode where the event does not list them', async () => {
    const out = join(root, 'payload-compact.json');
    await dispatchCodex(request('PreCompact', [{ command: `cat > ${out}` }], { payload: { trigger: 'manual' } }));
    const seen = JSON.parse(await readFile(out, 'utf8')) as Record<string, unknown>;
    expect(seen.turn_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen).not.toHaveProperty('permission_mode');
    const out2 = join(root, 'payload-start.json');
    await dispatchCodex(request('SessionStart', [{ command: `cat > ${out2}` }], { payload: { source: 'startup' } }));
    const seen2 = JSON.parse(await readFile(out2, 'utf8')) as Record<string, unknown>;
    expect(seen2).not.toHaveProperty('turn_id');
    expect(seen2.permission_mode).toBe('default');
  });
});

describe('codex dispatch: the process (§5.2)', () => {
  it('runs $SHELL -lc <command> with compact JSON on stdin and no trailing newline', async () => {
    const argsFile = join(root, 'shell-args');
    const shell = await script('fake-shell', `printf '%s\\n' "$@" > ${argsFile}\nexec /bin/sh "$@"`);
    const out = join(root, 'stdin-bytes');
    await dispatchCodex(request('PreToolUse', [{ command: `cat > ${out}` }], { env: { ...baseEnv(), SHELL: shell } }));
    expect(await readFile(argsFile, 'utf8')).toBe(`-lc\ncat > ${out}\n`);
    const bytes = await readFile(out, 'utf8');
    expect(bytes.endsWith('}')).toBe(true);
    expect(bytes).not.toContain('\n');
    expect(JSON.stringify(JSON.parse(bytes))).toBe(bytes);
  });

  it('uses /bin/sh -lc when SHELL is unset or empty', async () => {
    for (const SHELL of [undefined, '']) {
      const out = join(root, `argv0-${String(SHELL)}`);
      const env = baseEnv();
      if (SHELL === undefined) delete env.SHELL;
      else env.SHELL = SHELL;
      const result = await dispatchCodex(request('Stop', [{ command: `echo "$0" > ${out}` }], { env }));
      expect(result.runs[0]!.outcome).toBe('applied');
      expect((await readFile(out, 'utf8')).trim()).toBe('/bin/sh');
    }
  });

  it("cwd is the payload's cwd when it is a folder, else the workspace", async () => {
    const other = tempDir('hookctl-codex-cwd-');
    const out = join(root, 'cwd-out');
    await dispatchCodex(request('Stop', [{ command: `pwd > ${out}` }], { payload: { cwd: other } }));
    expect((await readFile(out, 'utf8')).trim()).toBe(other);
    await dispatchCodex(request('Stop', [{ command: `pwd > ${out}` }], { payload: { cwd: join(root, 'gone') } }));
    expect((await readFile(out, 'utf8')).trim()).toBe(workspace);
  });

  it('runs in its own process group', async () => {
    const out = join(root, 'pgid');
    await dispatchCodex(request('Stop', [{ command: `echo $$ $(ps -o pgid= -p $$) > ${out}` }]));
    const [pid, pgid] = (await readFile(out, 'utf8')).trim().split(/\s+/);
    expect(pgid).toBe(pid);
  });

  it('keeps 1 MiB of stdout and 8 KiB of stderr, marking truncated', async () => {
    const big = await dispatchCodex(
      request('PreToolUse', [{ command: `head -c 1100000 /dev/zero | tr '\\0' a; true` }]),
    );
    expect(big.runs[0]).toMatchObject({ truncated: true, stdout_bytes: 1_100_000 });
    const small = await dispatchCodex(request('PreToolUse', [{ command: `head -c 9000 /dev/zero | tr '\\0' e >&2` }]));
    expect(small.runs[0]).toMatchObject({ truncated: true, stderr_bytes: 9000, outcome: 'applied' });
    const none = await dispatchCodex(request('PreToolUse', [{ command: `head -c 8000 /dev/zero | tr '\\0' e >&2` }]));
    expect(none.runs[0]!.truncated).toBe(false);
  });
});

function baseEnv(): Record<string, string> {
  return { PATH: `${bin}:${process.env.PATH}`, HOME: root, SHELL: '/bin/sh', KEEP_ME: '1' };
}

describe('codex dispatch: environment (§5.3)', () => {
  it('SessionStart: CODEX_ENV_FILE and CLAUDE_ENV_FILE name one file per hook, read into env_exports, deleted after', async () => {
    const seen = join(root, 'env-files');
    const req = request(
      'SessionStart',
      [
        {
          command: `echo "$CODEX_ENV_FILE $CLAUDE_ENV_FILE" >> ${seen}; printf 'export A=1\\n\\n  \\nexport B=2\\n' > "$CODEX_ENV_FILE"`,
        },
        { command: `echo "$CODEX_ENV_FILE $CLAUDE_ENV_FILE" >> ${seen}; echo 'export C=3' >> "$CLAUDE_ENV_FILE"` },
      ],
      { payload: { source: 'startup' } },
    );
    const result = await dispatchCodex(req);
    const lines = (await readFile(seen, 'utf8')).trim().split('\n');
    const files = lines.map((l) => l.split(' '));
    for (const [codex, claude] of files) expect(codex).toBe(claude);
    expect(new Set(files.map((f) => f[0])).size).toBe(2);
    for (const [f] of files) expect(existsSync(f!)).toBe(false);
    expect(result.env_exports).toEqual([
      { hook: 'project/.codex/hooks.json:SessionStart:1.1', line: 'export A=1' },
      { hook: 'project/.codex/hooks.json:SessionStart:1.1', line: 'export B=2' },
      { hook: 'project/.codex/hooks.json:SessionStart:1.2', line: 'export C=3' },
    ]);
  });

  it('no env file on other events; the invoking env, plugin variables and HOOKCTL_DISPATCH_DEPTH', async () => {
    const out = join(root, 'env-other');
    await dispatchCodex(
      request(
        'UserPromptSubmit',
        [
          {
            command: `echo "[$CODEX_ENV_FILE][$CLAUDE_ENV_FILE][$KEEP_ME][$HOOKCTL_DISPATCH_DEPTH][$PLUGIN_ROOT][$CLAUDE_PLUGIN_DATA]" > ${out}`,
            info: { plugin: { id: 'p@m', root: '/plug', dataDir: '/data/p-m' } },
            env: { PLUGIN_ROOT: '/plug', CLAUDE_PLUGIN_DATA: '/data/p-m' },
          },
        ],
        { depth: 2 },
      ),
    );
    expect((await readFile(out, 'utf8')).trim()).toBe('[][][1][2][/plug][/data/p-m]');
  });
});

describe('codex dispatch: what runs (§5.1)', () => {
  it('skips untrusted and modified hooks with the exact why, lists them and warns; --trust-all runs them', async () => {
    const specs: Spec[] = [
      { command: 'echo ran1' },
      { command: 'echo no >&2; exit 2', info: { trust: 'untrusted', trusted_hash: null, current_hash: 'sha256:cur' } },
      {
        command: 'echo no >&2; exit 2',
        info: { trust: 'modified', trusted_hash: 'sha256:old', current_hash: 'sha256:new' },
      },
      { command: 'true', info: { trust: 'managed' } },
    ];
    const req = request('PreToolUse', specs);
    const result = await dispatchCodex(req);
    expect(result.verdict).toBe('pass');
    expect(result.runs.map((r) => [r.outcome, rec(r).why, rec(r).codex_status])).toEqual([
      ['applied', null, 'completed'],
      ['skipped', 'untrusted: hook has not been trusted (current hash sha256:cur)', null],
      ['skipped', 'modified: hook changed since it was trusted (trusted sha256:old, current sha256:new)', null],
      ['applied', null, 'completed'],
    ]);
    expect(result.skipped_untrusted).toEqual([
      'project/.codex/hooks.json:PreToolUse:1.2',
      'project/.codex/hooks.json:PreToolUse:1.3',
    ]);
    expect(result.warnings).toContain(
      '2 hooks were skipped because they are not trusted (Codex skips them silently); see hooks list or pass --trust-all',
    );
    const all = await dispatchCodex(request('PreToolUse', specs, { options: { trustAll: true } }));
    expect(all.verdict).toBe('deny');
    expect(all.skipped_untrusted).toEqual([]);
    expect(all.runs.map((r) => r.outcome)).toEqual(['applied', 'denied', 'denied', 'applied']);
  });

  it('--trust-all never runs a disabled, blocked or invalid hook; unmatched hooks do not run', async () => {
    const out = join(root, 'never');
    const result = await dispatchCodex(
      request(
        'PreToolUse',
        [
          { command: `echo d >> ${out}`, status: 'disabled' },
          { command: `echo b >> ${out}`, status: 'blocked' },
          { command: `echo i >> ${out}`, status: 'invalid' },
          { command: `echo m >> ${out}`, matcher: 'Edit|Write' },
          { command: `echo r >> ${out}`, matcher: '^Ba' },
        ],
        { options: { trustAll: true } },
      ),
    );
    expect(result.runs.map((r) => r.hook_name)).toEqual(['project/.codex/hooks.json:PreToolUse:1.5']);
    expect((await readFile(out, 'utf8')).trim()).toBe('r');
  });

  it('mcp_tool: skipped, unevaluated, warned', async () => {
    const result = await dispatchCodex(
      request('PreToolUse', [{ info: { handler_type: 'mcp_tool', runnable: false } }]),
    );
    expect(result.runs[0]).toMatchObject({ outcome: 'skipped', why: 'mcp_tool hooks run only inside Codex' });
    expect(result.unevaluated).toEqual([
      {
        hook: 'project/.codex/hooks.json:PreToolUse:1.1',
        handler_type: 'mcp_tool',
        why: 'mcp_tool hooks run only inside Codex',
      },
    ]);
    expect(result.warnings).toContain('1 hook could not run outside Codex; the verdict does not include them');
  });

  it('starts every sync hook at once (each waits for the other) and keeps duplicates', async () => {
    const a = join(root, 'conc-a');
    const b = join(root, 'conc-b');
    const wait = (mine: string, theirs: string) =>
      `touch ${mine}; i=0; while [ ! -e ${theirs} ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; [ -e ${theirs} ] && echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"${mine}"}}'`;
    const result = await dispatchCodex(
      request('PreToolUse', [
        { command: wait(a, b) },
        { command: wait(b, a) },
        { command: 'true' },
        { command: 'true' },
      ]),
    );
    expect(result.runs.map((r) => r.outcome)).toEqual(['applied', 'applied', 'applied', 'applied']);
    // Declaration order, whatever order they ended in.
    expect(result.additional_context).toBe(`${a}\n\n${b}`);
  });

  it('past the depth limit a dispatch with sync hooks fails with exit 3', async () => {
    await expect(dispatchCodex(request('Stop', [{ command: 'true' }], { depth: 4 }))).rejects.toMatchObject({
      code: 'dispatch_depth_exceeded',
      exit: 3,
    });
  });
});

describe('codex dispatch: timeouts and async (§5.6, §5.8)', () => {
  it('a hook past its timeout fails with timed_out and Codex words', async () => {
    const result = await dispatchCodex(
      request('Stop', [{ command: 'sleep 30', info: { timeout_s: 1 } }, { command: 'true' }]),
    );
    expect(result.runs[0]).toMatchObject({
      outcome: 'failed',
      timed_out: true,
      error: 'hook timed out after 1s',
      decision: null,
      codex_status: 'failed',
    });
    expect(result.verdict).toBe('pass');
    expect(result.notifications).toContainEqual({
      type: 'stream_event',
      event: {
        subtype: 'hook_notification',
        hook_name: 'project/.codex/hooks.json:Stop:1.1',
        kind: 'hook_error',
        message: 'hook timed out after 1s',
        decision: null,
      },
    });
  });

  it('async hooks run with the others, are waited for, recorded async, and go to next_turn_context', async () => {
    const done = join(root, 'async-done');
    const result = await dispatchCodex(
      request('UserPromptSubmit', [
        {
          command: `sleep 0.3; touch ${done}; echo '{"systemMessage":"later","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"next"}}'`,
          info: { async: true },
        },
        { command: `echo 'block me' >&2; exit 2`, info: { async: true } },
        { command: 'echo now' },
      ]),
    );
    expect(existsSync(done)).toBe(true);
    expect(result.runs.map((r) => r.mode)).toEqual(['async', 'async', 'sync']);
    expect(result).toMatchObject({
      verdict: 'pass',
      additional_context: 'now',
      next_turn_context: 'next\n\nlater',
      system_message: null,
    });
  });
});

describe('codex dispatch: records and result (§6)', () => {
  it('every SPEC §5 field and the codex fields; stderr only as an exit-2 reason', async () => {
    const req = request('PreToolUse', [
      { command: `echo 'secret stderr' >&2; echo '{"systemMessage":"hi"}'` },
      { command: `echo '  denied here  ' >&2; exit 2` },
    ]);
    const result = await dispatchCodex(req);
    const [ok, denied] = result.runs.map(rec);
    for (const r of [ok!, denied!]) {
      for (const f of RUN_RECORD_FIELDS) expect(r).toHaveProperty(f);
      for (const f of [
        'outcome',
        'decision',
        'codex_status',
        'reason',
        'trust',
        'hook_hash',
        'key',
        'handler_type',
        'why',
        'output',
      ])
        expect(r).toHaveProperty(f);
      expect(r).toMatchObject({
        dialect: 'codex',
        source: 'codex_project',
        mode: 'sync',
        priority: null,
        required: false,
        skill_source: null,
        patch_applied: null,
        trust: 'trusted',
        handler_type: 'command',
        session_id: 'sess-1',
        dispatch_id: 'disp-1',
        workspace,
        declared_in: join(workspace, '.codex', 'hooks.json'),
      });
    }
    expect(ok).toMatchObject({
      outcome: 'applied',
      decision: null,
      codex_status: 'completed',
      output: 'json',
      reason: null,
    });
    expect(JSON.stringify(ok)).not.toContain('secret stderr');
    expect(denied).toMatchObject({
      outcome: 'denied',
      decision: 'deny',
      codex_status: 'blocked',
      reason: 'denied here',
      exit_code: 2,
      output: 'empty',
      hook_hash: 'sha256:' + '1'.repeat(64),
      key: `${workspace}/.codex/hooks.json:pre_tool_use:0:1`,
    });
    expect(req.records.map((r) => r.run_id).sort()).toEqual(result.runs.map((r) => r.run_id).sort());
    expect(Object.keys(result)).toEqual([
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
      'warnings',
    ]);
    expect(result).toMatchObject({ verdict: 'deny', reason: 'denied here', system_message: 'hi', error: null });
    expect(result.notifications).toEqual([
      {
        type: 'stream_event',
        event: {
          subtype: 'hook_notification',
          hook_name: 'project/.codex/hooks.json:PreToolUse:1.1',
          kind: 'system_message',
          message: 'hi',
          decision: null,
        },
      },
    ]);
  });

  it('PreToolUse updatedInput rewrites tool_input of the returned payload', async () => {
    const result = await dispatchCodex(
      request('PreToolUse', [
        {
          command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"git status"}}}'`,
        },
      ]),
    );
    expect(result.verdict).toBe('pass');
    expect(result.payload.tool_input).toEqual({ command: 'git status' });
    expect(result.runs[0]).toMatchObject({ decision: 'allow', outcome: 'applied' });
  });
});

describe('codex plan (§6 --dry-run)', () => {
  it('one entry per declaration with trust, fields and runnable', async () => {
    const req = request('PreToolUse', [
      { matcher: '^Ba' },
      { matcher: 'Edit', info: { trust: 'untrusted', trusted_hash: null } },
      { info: { handler_type: 'mcp_tool', runnable: false } },
      { status: 'disabled' },
    ]);
    const plan = await planCodex(req);
    expect(plan.map((p) => [p.matched, p.trust, p.runnable, p.status])).toEqual([
      [true, 'trusted', true, 'active'],
      [false, 'untrusted', false, 'active'],
      [true, 'trusted', false, 'active'],
      [false, 'trusted', true, 'disabled'],
    ]);
    expect(plan[0]).toMatchObject({
      name: 'project/.codex/hooks.json:PreToolUse:1.1',
      source: 'codex_project',
      order: 1,
      why: null,
      fields: [{ field: 'tool_name', pattern: '^Ba', value: 'Bash', matched: true }],
    });
    expect(plan[1]!.fields).toEqual([{ field: 'tool_name', pattern: 'Edit', value: 'Bash', matched: false }]);
    expect(plan.map((p) => p.skipped_why)).toEqual([
      null,
      `untrusted: hook has not been trusted (current hash sha256:${'1'.repeat(64)})`,
      'mcp_tool hooks run only inside Codex',
      null,
    ]);
    const trusted = await planCodex({ ...req, options: { trustAll: true } });
    expect(trusted[1]!.runnable).toBe(true);
    const stop = await planCodex(request('Stop', [{ matcher: 'whatever' }]));
    expect(stop[0]).toMatchObject({ matched: true, fields: [] });
  });
});

// Rules the first round left untested (audit of codex.md §5.1–§5.6).
describe('codex dispatch: audit of §5.1–§5.6', () => {
  it('§5.1: a payload that names turn_id, transcript_path, cwd and permission_mode keeps them', async () => {
    const out = join(root, 'payload-kept.json');
    const given = { turn_id: 't-1', transcript_path: '/t.jsonl', cwd: root, permission_mode: 'plan', model: 'gpt-x' };
    await dispatchCodex(
      request('PreToolUse', [{ command: `cat > ${out}` }], { payload: { tool_name: 'Bash', ...given } }),
    );
    expect(JSON.parse(await readFile(out, 'utf8'))).toMatchObject({ ...given, session_id: 'sess-1' });
  });

  it('§5.1: nothing a hook answers stops another from running (a deny does not cut a slow hook short)', async () => {
    const done = join(root, 'slow-after-deny');
    const result = await dispatchCodex(
      request('PreToolUse', [{ command: `echo no >&2; exit 2` }, { command: `sleep 0.3; touch ${done}` }]),
    );
    expect(existsSync(done)).toBe(true);
    expect(result.runs.map((r) => r.outcome)).toEqual(['denied', 'applied']);
    expect(result).toMatchObject({ verdict: 'deny', reason: 'no' });
  });

  it('§5.3: no CODEX_* variable is invented; SessionStart adds only CODEX_ENV_FILE', async () => {
    const dump = (file: string) => `env | grep '^CODEX_' | sed 's/=.*//' | sort > ${file}`;
    const env = { PATH: `${bin}:${process.env.PATH}`, HOME: root, SHELL: '/bin/sh', CODEX_HOME: '/x/.codex' };
    const other = join(root, 'codex-vars-other');
    await dispatchCodex(request('UserPromptSubmit', [{ command: dump(other) }], { env, payload: { prompt: 'p' } }));
    expect((await readFile(other, 'utf8')).trim().split('\n')).toEqual(['CODEX_HOME']);
    const start = join(root, 'codex-vars-start');
    await dispatchCodex(request('SessionStart', [{ command: dump(start) }], { env, payload: { source: 'startup' } }));
    expect((await readFile(start, 'utf8')).trim().split('\n')).toEqual(['CODEX_ENV_FILE', 'CODEX_HOME']);
  });

  it('§5.6: on expiry the whole process group goes, SIGKILL following an ignored SIGTERM', async () => {
    const pidFile = join(root, 'timeout-child.pid');
    const started = Date.now();
    const result = await dispatchCodex(
      request('Stop', [
        { command: `trap '' TERM; sleep 30 & echo $! > ${pidFile}; wait; wait`, info: { timeout_s: 1 } },
      ]),
    );
    expect(result.runs[0]).toMatchObject({ outcome: 'failed', timed_out: true, error: 'hook timed out after 1s' });
    // 1 s, then SIGTERM (ignored), then SIGKILL 250 ms later; the rest is this loaded machine's slack.
    expect(Date.now() - started).toBeLessThan(10_000);
    const child = Number((await readFile(pidFile, 'utf8')).trim());
    const alive = () => {
      try {
        process.kill(child, 0);
        return true;
      } catch {
        return false;
      }
    };
    await until("the timed-out hook's child to go", () => !alive(), 5_000);
    expect(alive()).toBe(false);
  });
});
