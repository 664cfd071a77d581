// A claude dispatch end to end at the core: real hook scripts through the real executor, real
// http servers on 127.0.0.1, declarations built as the loaders build them.
import { createServer, type Server } from 'node:http';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderedDeclaration } from '../../src/declarations/model.js';
import { claudeExitCode, dispatchClaude } from '../../src/dialects/claude/dispatch/dispatch.js';
import type { ClaudeContext, ClaudeHandlerInfo } from '../../src/dialects/claude/model.js';
import { planClaude } from '../../src/dialects/claude/dispatch/plan.js';
import type { DispatchRequest } from '../../src/dialects/types.js';
import { runSubprocess } from '../../src/exec/subprocess.js';
import { RUN_RECORD_FIELDS, type RunRecord } from '../../src/ledger/record.js';
import type { Locations } from '../../src/paths.js';
import { tempDir } from '../support/temp.js';

let root: string;
let workspace: string;
let state: string;
let bin: string;

beforeAll(async () => {
  root = tempDir('hookctl-claude-dispatch-');
  workspace = join(root, 'ws');
  state = join(root, 'state');
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

interface HandlerSpec {
  event?: string;
  matcher?: string | null;
  handler: Record<string, unknown>;
  source?: string;
  status?: string;
  info?: Partial<ClaudeHandlerInfo>;
}

function decls(specs: HandlerSpec[]): OrderedDeclaration[] {
  return specs.map((s, i) => {
    const type = String(s.handler.type ?? 'command');
    const info: ClaudeHandlerInfo = {
      origin: 'project',
      handler: s.handler,
      handler_type: type as ClaudeHandlerInfo['handler_type'],
      group_matcher: s.matcher ?? null,
      if: typeof s.handler.if === 'string' ? s.handler.if : null,
      once: s.handler.once === true,
      async: s.handler.async === true || s.handler.asyncRewake === true,
      async_rewake: s.handler.asyncRewake === true,
      timeout_s: typeof s.handler.timeout === 'number' ? s.handler.timeout : null,
      runnable: type === 'command' || type === 'http',
      label: String(s.handler.command ?? s.handler.url ?? ''),
      ...s.info,
    };
    return {
      dialect: 'claude',
      name: `${info.origin}:${s.event ?? 'PreToolUse'}:1.${i + 1}`,
      event: s.event ?? 'PreToolUse',
      source: s.source ?? 'claude_project',
      mode: info.async ? 'async' : 'sync',
      required: false,
      priority: 0,
      timeout_ms: 0,
      enabled: true,
      metadata: {},
      matcher: {},
      executor_kind: type,
      command: String(s.handler.command ?? ''),
      args: [],
      env: {},
      secret_env: {},
      cwd: workspace,
      location: { file: join(workspace, '.claude', 'settings.json'), line: 1 },
      status: s.status ?? 'active',
      order: i + 1,
      extra: info as unknown as Record<string, unknown>,
    } as unknown as OrderedDeclaration;
  });
}

function request(
  event: string,
  specs: HandlerSpec[],
  over: Partial<DispatchRequest> = {},
): DispatchRequest & { records: RunRecord[] } {
  const records: RunRecord[] = [];
  const context: ClaudeContext & { stateDir: string } = {
    settingsEnv: { FROM_SETTINGS: 'yes' },
    configDir: join(root, 'cfg'),
    stateDir: state,
  };
  return {
    event,
    payload: { tool_name: 'Bash', tool_input: { command: 'git push origin' } },
    declarations: decls(specs.map((s) => ({ event, ...s }))),
    loc: { workspace } as Locations,
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: root, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', KEEP_ME: '1' },
    sessionId: 'sess-1',
    dispatchId: 'disp-1',
    depth: 1,
    executor: runSubprocess,
    onRecord: (r) => {
      records.push(r);
    },
    context,
    records,
    ...over,
  };
}

/** Whether a process lives (a zombie that a non-reaping init keeps around does not count). */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat !== undefined && !/^\d+ \(.*\) Z/.test(stat);
}

/**
 * Whether a process is still alive after `ms` (signals are delivered asynchronously, and a loaded
 * machine may take seconds to tear a process down; a process that dies returns at once).
 */
async function survives(pid: number, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    if (!(await alive(pid))) return false;
  }
  return true;
}

const denyJson = (reason: string) =>
  `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"${reason}"}}'`;

describe('dispatchClaude', () => {
  it('runs every selected handler at the same time: two hooks that wait for each other both finish', async () => {
    const a = join(root, 'a.flag');
    const b = join(root, 'b.flag');
    const waitFor = (mine: string, theirs: string) =>
      `touch ${mine}; i=0; while [ ! -e ${theirs} ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; [ -e ${theirs} ] && echo ok`;
    const req = request('UserPromptSubmit', [
      { handler: { type: 'command', command: waitFor(a, b) } },
      { handler: { type: 'command', command: waitFor(b, a) } },
    ]);
    const result = await dispatchClaude(req);
    expect(result.runs.map((r) => r.outcome)).toEqual(['applied', 'applied']);
    expect(result.additional_context).toBe('ok\nok');
  });

  it('denies on exit 2 with the stderr as the reason, and records it in the claude shape', async () => {
    const req = request('PreToolUse', [
      { matcher: 'Bash', handler: { type: 'command', command: 'echo "no pushes" >&2; exit 2' } },
      { matcher: 'Edit', handler: { type: 'command', command: 'echo never' } },
    ]);
    const result = await dispatchClaude(req);
    expect(result).toMatchObject({ verdict: 'deny', reason: 'no pushes', dialect: 'claude', session_id: 'sess-1' });
    expect(claudeExitCode(result)).toBe(1);
    expect(result.runs).toHaveLength(1);
    const r = result.runs[0] as unknown as Record<string, unknown>;
    expect(r).toMatchObject({
      dialect: 'claude',
      hook_name: 'project:PreToolUse:1.1',
      source: 'claude_project',
      mode: 'sync',
      priority: null,
      required: false,
      outcome: 'denied',
      decision: 'deny',
      reason: 'no pushes',
      exit_code: 2,
      handler_type: 'command',
      blocking: true,
      output: 'empty',
      http_status: null,
      why: null,
    });
    expect(Object.keys(r).at(-1)).toBe('recorded_at');
    expect(r.error).toBeNull();
    // Every SPEC §5 field, null where it has no value, then claude's own (issue 28).
    expect(Object.keys(r)).toEqual([
      ...RUN_RECORD_FIELDS.slice(0, -1),
      'handler_type',
      'blocking',
      'output',
      'http_status',
      'why',
      'recorded_at',
    ]);
    expect(r).toMatchObject({
      skill_source: null,
      patch_applied: null,
      workspace,
      declared_in: join(workspace, '.claude', 'settings.json'),
    });
    expect(req.records).toHaveLength(1);
  });

  it('never records stderr of a hook that did not exit 2', async () => {
    const result = await dispatchClaude(
      request('PreToolUse', [{ handler: { type: 'command', command: 'echo s3cret >&2; exit 1' } }]),
    );
    expect(JSON.stringify(result.runs)).not.toContain('s3cret');
    expect(result.runs[0]).toMatchObject({
      outcome: 'failed',
      error: 'hook command failed: exit status 1 (stderr: 7 bytes)',
    });
    expect(result.notifications[0]!.event).toMatchObject({
      kind: 'hook_error',
      message: 'Failed with non-blocking status code: s3cret',
    });
  });

  it('gives the hook the payload as JSON plus a newline, with the common fields filled', async () => {
    const out = join(root, 'stdin.json');
    const result = await dispatchClaude(
      request('PreToolUse', [{ handler: { type: 'command', command: `cat > ${out}` } }]),
    );
    const text = await readFile(out, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const sent = JSON.parse(text);
    expect(Object.keys(sent).slice(0, 5)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'permission_mode',
      'hook_event_name',
    ]);
    expect(sent).toMatchObject({
      session_id: 'sess-1',
      transcript_path: join(state, 'claude', 'sessions', 'sess-1', 'transcript.jsonl'),
      cwd: workspace,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
    });
    expect(result.payload).toEqual(sent);
  });

  it('builds the environment of §5.3 and runs in the payload cwd when it exists', async () => {
    const out = join(root, 'env.txt');
    const sub = join(workspace, 'sub');
    await mkdir(sub, { recursive: true });
    const cmd = `{ pwd; echo "$CLAUDE_PROJECT_DIR|$CLAUDE_CODE_SESSION_ID|$HOOKCTL_DISPATCH_DEPTH|$FROM_SETTINGS|$KEEP_ME|\${OTEL_EXPORTER_OTLP_ENDPOINT-unset}|$CLAUDE_PLUGIN_ROOT"; } > ${out}`;
    await dispatchClaude(
      request('PreToolUse', [{ handler: { type: 'command', command: cmd } }], {
        payload: { tool_name: 'Bash', cwd: sub },
        depth: 2,
      }),
    );
    expect(await readFile(out, 'utf8')).toBe(`${sub}\n${workspace}|sess-1|2|yes|1|unset|\n`);
    await dispatchClaude(
      request('PreToolUse', [{ handler: { type: 'command', command: `pwd > ${out}` } }], {
        payload: { cwd: join(root, 'gone') },
      }),
    );
    expect(await readFile(out, 'utf8')).toBe(`${workspace}\n`);
  });

  it('runs exec form through PATH with placeholders replaced in command and args, and plugin variables set', async () => {
    const out = join(root, 'exec.txt');
    await script('record-args', `printf '%s\\n' "$@" "$CLAUDE_PLUGIN_DATA" > ${out}`);
    const plugin = { id: 'p@m', root: join(root, 'plug'), dataDir: join(root, 'data', 'p-m'), forceEnabled: false };
    await dispatchClaude(
      request('PreToolUse', [
        {
          handler: {
            type: 'command',
            command: 'record-args',
            args: ['${CLAUDE_PLUGIN_ROOT}/x', 'a b', '${CLAUDE_PROJECT_DIR}'],
          },
          source: 'claude_plugin',
          info: { plugin, origin: 'plugin/p@m' },
        },
      ]),
    );
    expect(await readFile(out, 'utf8')).toBe(`${plugin.root}/x\na b\n${workspace}\n${plugin.dataDir}\n`);
  });

  it('fails open when an exec-form command cannot be found', async () => {
    const result = await dispatchClaude(
      request('PreToolUse', [{ handler: { type: 'command', command: 'no-such-tool', args: [] } }]),
    );
    expect(result.verdict).toBe('pass');
    expect(result.runs[0]).toMatchObject({ outcome: 'failed' });
    expect(result.runs[0]!.error).toMatch(
      /^hooks: hook "project:PreToolUse:1\.1": resolve executable "no-such-tool": /,
    );
    expect(result.runs[0]!.exit_code).toBeNull();
  });

  it('gives SessionStart hooks a CLAUDE_ENV_FILE each, returns its lines and deletes it', async () => {
    const where = join(root, 'envfile-path');
    const result = await dispatchClaude(
      request(
        'SessionStart',
        [
          {
            handler: {
              type: 'command',
              command: `echo "$CLAUDE_ENV_FILE" > ${where}; printf 'export A=1\\n\\nexport B=2\\n' >> "$CLAUDE_ENV_FILE"`,
            },
          },
          { handler: { type: 'command', command: `echo 'export C=3' >> "$CLAUDE_ENV_FILE"` } },
        ],
        { payload: { source: 'startup' } },
      ),
    );
    expect(result.env_exports).toEqual([
      { hook: 'project:SessionStart:1.1', line: 'export A=1' },
      { hook: 'project:SessionStart:1.1', line: 'export B=2' },
      { hook: 'project:SessionStart:1.2', line: 'export C=3' },
    ]);
    expect(existsSync((await readFile(where, 'utf8')).trim())).toBe(false);
  });

  it('kills the whole group on timeout, fails open and notices the timeout on UserPromptSubmit', async () => {
    const pidFile = join(root, 'grandchild.pid');
    const result = await dispatchClaude(
      request(
        'UserPromptSubmit',
        [
          { handler: { type: 'command', command: `sleep 30 & echo $! > ${pidFile}; wait`, timeout: 0.3 } },
          { handler: { type: 'command', command: `echo '{"decision":"block","reason":"r"}'`, timeout: 5 } },
        ],
        { payload: { prompt: 'hi' } },
      ),
    );
    expect(result.runs[0]).toMatchObject({
      outcome: 'failed',
      timed_out: true,
      error: 'hook timed out after 0.3s',
      decision: null,
    });
    expect(result.verdict).toBe('block');
    expect(result.notifications.map((n) => n.event.kind)).toContain('timeout');
    expect(result.notifications.find((n) => n.event.kind === 'timeout')!.event.message).toBe(
      'project:UserPromptSubmit:1.1 timed out after 0.3s',
    );
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await survives(pid)).toBe(false);
  });

  it('stops SessionEnd hooks at the shared deadline', async () => {
    const result = await dispatchClaude(
      request('SessionEnd', [{ handler: { type: 'command', command: 'sleep 5' } }], {
        payload: { reason: 'other' },
        env: { PATH: process.env.PATH, CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '300' },
      }),
    );
    expect(result.runs[0]).toMatchObject({ timed_out: true, error: 'hook timed out after 0.3s' });
  });

  it('records prompt, agent and mcp_tool handlers skipped, and lists them as unevaluated', async () => {
    const result = await dispatchClaude(
      request('PreToolUse', [
        {
          handler: { type: 'prompt', prompt: 'is it safe?' },
          info: { unrunnable_why: 'prompt hooks run only inside Claude Code' },
        },
        { handler: { type: 'command', command: 'exit 0' } },
      ]),
    );
    expect(result.runs[0]).toMatchObject({
      outcome: 'skipped',
      why: 'prompt hooks run only inside Claude Code',
      handler_type: 'prompt',
    });
    expect(result.unevaluated).toEqual([
      { hook: 'project:PreToolUse:1.1', handler_type: 'prompt', why: 'prompt hooks run only inside Claude Code' },
    ]);
    expect(result.warnings).toContain('1 hook could not run outside Claude Code; the verdict does not include them');
  });

  it('runs skill hooks only for selected skills and agent hooks only for the running agent', async () => {
    const specs: HandlerSpec[] = [
      {
        handler: { type: 'command', command: 'exit 0' },
        source: 'claude_skill',
        info: { skill: 'deploy', origin: 'skill/project/deploy' },
      },
      {
        handler: { type: 'command', command: 'exit 0' },
        source: 'claude_agent',
        info: { agent: 'reviewer', origin: 'agent/project/reviewer' },
      },
    ];
    expect((await dispatchClaude(request('PreToolUse', specs))).runs).toHaveLength(0);
    const both = await dispatchClaude(request('PreToolUse', specs, { options: { skills: ['*'], agent: 'reviewer' } }));
    expect(both.runs.map((r) => r.skill_source ?? null)).toEqual(['project', null]);
    const plan = await planClaude(request('PreToolUse', specs));
    expect(plan.map((p) => p.status)).toEqual(['inactive', 'inactive']);
  });

  it('runs a once hook at most once per session', async () => {
    const specs: HandlerSpec[] = [
      {
        handler: { type: 'command', command: 'exit 0', once: true },
        source: 'claude_skill',
        info: { skill: 's', origin: 'skill/user/s' },
      },
    ];
    const first = request('PreToolUse', specs, { options: { skills: ['s'] } });
    await dispatchClaude(first);
    const ledger = join(state, 'claude', 'sessions', 'sess-1');
    await mkdir(ledger, { recursive: true });
    await writeFile(join(ledger, 'hook-runs.jsonl'), first.records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const second = await dispatchClaude(request('PreToolUse', specs, { options: { skills: ['s'] } }));
    expect(second.runs[0]).toMatchObject({ outcome: 'skipped', why: 'once: already ran in this session' });
    await rm(join(state, 'claude'), { recursive: true, force: true });
  });

  it('fails a dispatch with sync hooks past depth 3 before any runs', async () => {
    await expect(
      dispatchClaude(request('PreToolUse', [{ handler: { type: 'command', command: 'exit 0' } }], { depth: 4 })),
    ).rejects.toMatchObject({
      code: 'dispatch_depth_exceeded',
    });
  });

  it('waits for async hooks, which never decide, and records asyncRewake exit 2 as rewake', async () => {
    const result = await dispatchClaude(
      request(
        'PostToolUse',
        [
          { handler: { type: 'command', command: 'sleep 0.2; echo "tests failed" >&2; exit 2', asyncRewake: true } },
          { handler: { type: 'command', command: denyJson('x'), async: true } },
        ],
        { payload: { tool_name: 'Bash', tool_response: {} } },
      ),
    );
    expect(result.verdict).toBe('pass');
    expect(result.runs.map((r) => [r.mode, r.decision])).toEqual([
      ['async', 'rewake'],
      ['async', null],
    ]);
    expect(result.next_turn_context).toBe('tests failed');
  });

  it('evaluates Bash if rules on subcommands', async () => {
    const specs: HandlerSpec[] = [
      { handler: { type: 'command', command: 'exit 0', if: 'Bash(git push *)' } },
      { handler: { type: 'command', command: 'exit 0', if: 'Bash(rm *)' } },
    ];
    const result = await dispatchClaude(
      request('PreToolUse', specs, {
        payload: { tool_name: 'Bash', tool_input: { command: 'npm test && git push origin' } },
      }),
    );
    expect(result.runs.map((r) => r.hook_name)).toEqual(['project:PreToolUse:1.1']);
    const plan = await planClaude(
      request('PreToolUse', specs, {
        payload: { tool_name: 'Bash', tool_input: { command: 'npm test && git push origin' } },
      }),
    );
    expect(plan.map((p) => [p.matched, p.if?.verdict])).toEqual([
      [true, 'match'],
      [false, 'no_match'],
    ]);
  });
});

describe('http handlers', () => {
  let server: Server;
  let base: string;
  const seen: { url: string; headers: Record<string, unknown>; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, body });
        if (req.url === '/deny') {
          res.setHeader('content-type', 'application/json');
          res.end(
            JSON.stringify({
              hookSpecificOutput: {
                hookEventName: 'PreToolUse',
                permissionDecision: 'deny',
                permissionDecisionReason: 'server says no',
              },
            }),
          );
        } else if (req.url === '/empty') res.end();
        else if (req.url === '/redirect') {
          res.statusCode = 302;
          res.setHeader('location', '/deny');
          res.end();
        } else if (req.url === '/slow') setTimeout(() => res.end(), 3000);
        else if (req.url === '/text') res.end('hello');
        else if (req.url === '/cut') {
          // A deny, then white space up to past 1 MiB, then more: the whole body is not JSON.
          const deny = JSON.stringify({
            hookSpecificOutput: {
              hookEventName: 'PreToolUse',
              permissionDecision: 'deny',
              permissionDecisionReason: 'cut',
            },
          });
          res.end(deny + ' '.repeat(1024 * 1024) + 'not json');
        } else {
          res.statusCode = 500;
          res.end('boom');
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const addr = server.address() as { port: number };
    base = `http://127.0.0.1:${addr.port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('POSTs the payload with the headers, expanding only allowed variables, and reads the JSON answer', async () => {
    const result = await dispatchClaude(
      request(
        'PreToolUse',
        [
          {
            handler: {
              type: 'http',
              url: `${base}/deny`,
              headers: { Authorization: 'Bearer $TOKEN', 'X-Other': '${OTHER}-x', 'X-Capped': '$CAPPED' },
              allowedEnvVars: ['TOKEN', 'CAPPED'],
            },
          },
        ],
        {
          env: { PATH: process.env.PATH, TOKEN: 't0k', OTHER: 'o', CAPPED: 'c' },
          context: { settingsEnv: {}, configDir: root, httpHookAllowedEnvVars: ['TOKEN'] } as ClaudeContext,
        },
      ),
    );
    expect(result).toMatchObject({ verdict: 'deny', reason: 'server says no' });
    expect(result.runs[0]).toMatchObject({
      handler_type: 'http',
      http_status: 200,
      output: 'json',
      outcome: 'denied',
      timed_out: false,
    });
    expect(result.runs[0]!.exit_code).toBeNull();
    const req = seen.at(-1)!;
    expect(req.headers).toMatchObject({
      authorization: 'Bearer t0k',
      'x-other': '-x',
      'x-capped': '',
      'content-type': 'application/json',
    });
    expect(JSON.parse(req.body)).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash' });
  });

  it('treats an empty 2xx as no answer and everything else as a non-blocking error, redirects included', async () => {
    const run = async (path: string, timeout?: number) =>
      (
        await dispatchClaude(
          request('PreToolUse', [
            { handler: { type: 'http', url: `${base}${path}`, ...(timeout ? { timeout } : {}) } },
          ]),
        )
      ).runs[0]!;
    expect(await run('/empty')).toMatchObject({ outcome: 'applied', output: 'empty', http_status: 200 });
    expect(await run('/fail')).toMatchObject({ outcome: 'failed', error: 'http status 500', http_status: 500 });
    expect(await run('/redirect')).toMatchObject({ outcome: 'failed', error: 'http status 302' });
    expect(await run('/text')).toMatchObject({
      outcome: 'failed',
      error: 'http status 200: the body is not a JSON object',
    });
    const cut = await dispatchClaude(request('PreToolUse', [{ handler: { type: 'http', url: `${base}/cut` } }]));
    expect(cut.verdict).toBe('pass');
    expect(cut.runs[0]).toMatchObject({
      outcome: 'failed',
      decision: null,
      error: 'http status 200: the body is larger than 1048576 bytes',
    });
    expect(await run('/slow', 0.3)).toMatchObject({
      outcome: 'failed',
      timed_out: true,
      error: 'hook timed out after 0.3s',
    });
    const badHeader = (
      await dispatchClaude(
        request('PreToolUse', [{ handler: { type: 'http', url: `${base}/deny`, headers: { 'X-A': 'a\r\nb' } } }]),
      )
    ).runs[0]!;
    expect(badHeader).toMatchObject({ outcome: 'failed' });
    expect(badHeader.error).toMatch(/^http request failed: /);
    const closed = (
      await dispatchClaude(request('PreToolUse', [{ handler: { type: 'http', url: 'http://127.0.0.1:9/' } }]))
    ).runs[0]!;
    expect(closed).toMatchObject({ outcome: 'failed', error: 'http request failed: ECONNREFUSED' });
  });
});
