import { describe, expect, it } from 'vitest';
import type { OrderedDeclaration } from '../../src/declarations/model.js';
import {
  ASYNC_DROPPED_ERROR,
  DRAIN_DROPPED_ERROR,
  dispatchCompozy,
  planDispatch,
  type CompozyDispatchOptions,
} from '../../src/dialects/compozy/dispatch/dispatch.js';
import { fireDepthFromEnv } from '../../src/exec/depth.js';
import { compozyEvent, type CompozyEvent } from '../../src/dialects/compozy/events.js';
import type { ExecRequest, ExecResult, Executor } from '../../src/exec/types.js';
import { RUN_RECORD_FIELDS, type RunRecord } from '../../src/ledger/record.js';

// ------------------------------------------------------------------------------------------------
// Helpers: declarations, and a fake executor that answers per command and records each request.

function decl(name: string, over: Partial<OrderedDeclaration> = {}): OrderedDeclaration {
  return {
    dialect: 'compozy',
    name,
    event: 'tool.pre_call',
    source: 'config',
    mode: 'sync',
    required: false,
    priority: 500,
    timeout_ms: 0,
    enabled: true,
    metadata: {},
    matcher: {},
    executor_kind: 'subprocess',
    command: name,
    args: [],
    env: {},
    secret_env: {},
    cwd: '/ws',
    location: { file: '/ws/.compozy/config.toml', line: 1 },
    status: 'active',
    order: 1,
    ...over,
  };
}

const OK: ExecResult = {
  exitCode: 0,
  signal: null,
  timedOut: false,
  stdout: '',
  stdoutBytes: 0,
  stderrBytes: 0,
  truncated: false,
  durationMs: 7,
};

type Answer = Partial<ExecResult> | ((req: ExecRequest & { signal?: AbortSignal }) => Promise<Partial<ExecResult>>);

/** Writes `patch` on stdout and exits 0. */
function says(patch: unknown): Partial<ExecResult> {
  const stdout = typeof patch === 'string' ? patch : JSON.stringify(patch);
  return { stdout, stdoutBytes: Buffer.byteLength(stdout) };
}

function fakeExecutor(answers: Record<string, Answer>) {
  const requests: (ExecRequest & { signal?: AbortSignal })[] = [];
  const executor: Executor = async (req) => {
    requests.push(req);
    const answer = answers[req.command] ?? {};
    const partial = typeof answer === 'function' ? await answer(req) : answer;
    return { ...OK, ...partial };
  };
  return { executor, requests, ran: () => requests.map((r) => r.command) };
}

function event(name: string): CompozyEvent {
  const e = compozyEvent(name);
  if (!e) throw new Error(`no event ${name}`);
  return e;
}

async function dispatch(
  over: Partial<CompozyDispatchOptions> & Pick<CompozyDispatchOptions, 'declarations' | 'executor'>,
) {
  const received: RunRecord[] = [];
  const result = await dispatchCompozy({
    event: event('tool.pre_call'),
    payload: { tool_id: 'compozy__workspace_info', read_only: false, tool_input: { q: 1 } },
    depth: 1,
    sessionId: 'sess-1',
    dispatchId: 'disp-1',
    workspace: '/ws',
    invokingEnv: { PATH: '/usr/bin:/bin', HOME: '/home/u' },
    onRecord: (r) => {
      received.push(r);
    },
    ...over,
  });
  return { ...result, received };
}

const outcomes = (runs: RunRecord[]) => runs.map((r) => `${r.hook_name}:${r.outcome}`);

/** Resolves when `signal` aborts, as the subprocess executor does once it has killed the group. */
function untilAborted(req: ExecRequest & { signal?: AbortSignal }): Promise<Partial<ExecResult>> {
  return new Promise((resolve) => {
    req.signal?.addEventListener('abort', () => resolve({ exitCode: null, signal: 'SIGTERM' }));
  });
}

// ------------------------------------------------------------------------------------------------

describe('sync chain', () => {
  it('runs hooks in order, each seeing the payload patched by the ones before', async () => {
    const fake = fakeExecutor({
      h1: says({ tool_input: { q: 2 } }),
      h2: says({ read_only: true }),
    });
    const r = await dispatch({ declarations: [decl('h1'), decl('h2', { order: 2 })], executor: fake.executor });
    expect(fake.ran()).toEqual(['h1', 'h2']);
    expect(JSON.parse(fake.requests[1]!.stdin)).toEqual({
      tool_id: 'compozy__workspace_info',
      read_only: false,
      tool_input: { q: 2 },
    });
    expect(r.verdict).toBe('completed');
    expect(r.error).toBeNull();
    expect(r.payload).toEqual({ tool_id: 'compozy__workspace_info', read_only: true, tool_input: { q: 2 } });
    expect(outcomes(r.runs)).toEqual(['h1:applied', 'h2:applied']);
  });

  it('sends the declaration command, args, cwd, default timeout and compact JSON stdin', async () => {
    const fake = fakeExecutor({});
    await dispatch({
      declarations: [decl('h1', { command: '/bin/hook', args: ['--x', 'a b'], cwd: '/ext/root' })],
      executor: fake.executor,
      payload: { tool_id: 't', nested: { a: [1, 2] } },
    });
    const req = fake.requests[0]!;
    expect(req.command).toBe('/bin/hook');
    expect(req.args).toEqual(['--x', 'a b']);
    expect(req.cwd).toBe('/ext/root');
    expect(req.timeoutMs).toBe(5000);
    expect(req.stdin).toBe('{"tool_id":"t","nested":{"a":[1,2]}}');
  });

  it('passes the declared timeout', async () => {
    const fake = fakeExecutor({});
    await dispatch({ declarations: [decl('h1', { timeout_ms: 250 })], executor: fake.executor });
    expect(fake.requests[0]!.timeoutMs).toBe(250);
  });

  it('runs only declarations whose matcher matches, and never disabled ones', async () => {
    const fake = fakeExecutor({});
    const r = await dispatch({
      declarations: [
        decl('match', { matcher: { tool_id: 'compozy__*' } }),
        decl('miss', { matcher: { tool_id: 'other__*' } }),
        decl('off', { enabled: false }),
        decl('ro', { matcher: { tool_read_only: true } }),
      ],
      executor: fake.executor,
    });
    expect(fake.ran()).toEqual(['match']);
    expect(r.runs).toHaveLength(1);
  });

  it('leaves the caller payload object untouched', async () => {
    const payload = { tool_id: 't', tool_input: { q: 1 } };
    const fake = fakeExecutor({ h1: says({ tool_input: { q: 9 } }) });
    const r = await dispatch({ declarations: [decl('h1')], executor: fake.executor, payload });
    expect(payload).toEqual({ tool_id: 't', tool_input: { q: 1 } });
    expect(r.payload.tool_input).toEqual({ q: 9 });
  });
});

describe('failures', () => {
  it('an optional hook that fails is recorded failed and the chain goes on with the payload unchanged', async () => {
    const fake = fakeExecutor({
      bad: { exitCode: 2, stderrBytes: 5, stdout: '{"read_only": true}' },
      good: says({ read_only: true }),
    });
    const r = await dispatch({ declarations: [decl('bad'), decl('good')], executor: fake.executor });
    expect(outcomes(r.runs)).toEqual(['bad:failed', 'good:applied']);
    expect(r.runs[0]!.error).toBe('hook command failed: exit status 2 (stderr: 5 bytes)');
    expect(r.runs[0]!.exit_code).toBe(2);
    expect(r.runs[0]!.stderr_bytes).toBe(5);
    expect(r.verdict).toBe('completed');
    expect(JSON.parse(fake.requests[1]!.stdin).read_only).toBe(false);
  });

  it('a bad patch fails the hook: unknown field, several values', async () => {
    const fake = fakeExecutor({
      unknown: says({ tool_id: 'compozy__workspace_info', colour: 'red' }),
      twice: says('{} {}'),
    });
    const r = await dispatch({ declarations: [decl('unknown'), decl('twice')], executor: fake.executor });
    expect(r.runs.map((x) => x.error)).toEqual([
      'hooks: decode patch for hook "unknown": json: unknown field "colour"',
      'hooks: decode patch for hook "twice": hooks: patch must contain one JSON value',
    ]);
    expect(outcomes(r.runs)).toEqual(['unknown:failed', 'twice:failed']);
    expect(r.runs[0]!.patch_applied).toBeNull();
  });

  it('a required hook that fails stops the chain and fails the dispatch', async () => {
    const fake = fakeExecutor({ first: says({ read_only: true }), req: says('nope'), later: {} });
    const asyncHook = decl('bg', { mode: 'async' });
    const r = await dispatch({
      declarations: [decl('first'), decl('req', { required: true }), decl('later'), asyncHook],
      executor: fake.executor,
    });
    expect(fake.ran()).toEqual(['first', 'req']);
    expect(r.verdict).toBe('failed');
    expect(r.error).toBe(
      'hooks: required hook "req" failed for event "tool.pre_call": hooks: decode patch for hook "req": ' +
        "invalid character 'o' in literal null (expecting 'u')",
    );
    expect(outcomes(r.runs)).toEqual(['first:applied', 'req:failed']);
    expect(r.async_queued).toBe(0);
    // The payload keeps the patches applied before the failure.
    expect(r.payload.read_only).toBe(true);
  });

  it('words a timeout and a resolve failure; no process facts without a process', async () => {
    const fake = fakeExecutor({
      slow: { timedOut: true, exitCode: null, signal: 'SIGKILL' },
      nope: { startError: { kind: 'resolve', message: 'executable file not found in $PATH' } },
    });
    const r = await dispatch({
      declarations: [decl('slow', { timeout_ms: 250 }), decl('nope')],
      executor: fake.executor,
    });
    expect(r.runs[0]!.error).toBe('hook timed out after 250ms');
    expect(r.runs[0]!.timed_out).toBe(true);
    expect(r.runs[1]!.error).toBe('hooks: hook "nope": resolve executable "nope": executable file not found in $PATH');
    expect(r.runs[1]!.exit_code).toBeNull();
    expect(r.runs[1]!.timed_out).toBeNull();
  });

  it('an executor that throws fails the hook instead of the dispatch', async () => {
    const executor: Executor = async () => {
      throw new Error('boom\nsecond line');
    };
    const r = await dispatch({ declarations: [decl('h1')], executor });
    expect(r.runs[0]!.outcome).toBe('failed');
    expect(r.runs[0]!.error).toBe('hooks: hook "h1": boom second line');
  });
});

describe('guards', () => {
  it('a refused patch is recorded rejected, not applied, and the chain goes on', async () => {
    const fake = fakeExecutor({
      swap: says({ tool_id: 'other__tool', read_only: true }),
      next: says({ tool_input: { z: 1 } }),
    });
    const r = await dispatch({ declarations: [decl('swap'), decl('next')], executor: fake.executor });
    expect(outcomes(r.runs)).toEqual(['swap:rejected', 'next:applied']);
    expect(r.runs[0]!.error).toBe(
      'hooks: hook patch rejected: hooks: cannot change immutable tool_id from "compozy__workspace_info" to "other__tool"',
    );
    expect(r.payload).toEqual({ tool_id: 'compozy__workspace_info', read_only: false, tool_input: { z: 1 } });
  });

  it('a required hook whose patch is refused does not fail the dispatch', async () => {
    const fake = fakeExecutor({ swap: says({ tool_id: 'x' }) });
    const r = await dispatch({ declarations: [decl('swap', { required: true })], executor: fake.executor });
    expect(r.verdict).toBe('completed');
    expect(r.runs[0]!.outcome).toBe('rejected');
  });

  it('permission.request: a hook may not allow what an earlier one denied', async () => {
    const fake = fakeExecutor({ allow: says({ decision: 'allow' }) });
    const r = await dispatch({
      event: event('permission.request'),
      payload: { decision: 'deny', tool_call: { kind: 'shell' } },
      declarations: [decl('allow', { event: 'permission.request' })],
      executor: fake.executor,
    });
    expect(r.runs[0]!.outcome).toBe('rejected');
    expect(r.runs[0]!.error).toBe('hooks: hook patch rejected: hooks: permission escalation blocked');
    expect(r.payload.decision).toBe('deny');
  });

  it('task.run.pre_claim: capabilities are unioned, a lower priority_min is refused', async () => {
    const fake = fakeExecutor({
      add: says({ add_required_capabilities: ['gpu', ' arm '] }),
      lower: says({ priority_min: 1 }),
    });
    const r = await dispatch({
      event: event('task.run.pre_claim'),
      payload: { task_id: 't', criteria: { required_capabilities: ['gpu'], priority_min: 3 } },
      declarations: [decl('add', { event: 'task.run.pre_claim' }), decl('lower', { event: 'task.run.pre_claim' })],
      executor: fake.executor,
    });
    expect(outcomes(r.runs)).toEqual(['add:applied', 'lower:rejected']);
    expect(r.payload.criteria).toEqual({ required_capabilities: ['gpu', 'arm'], priority_min: 3 });
  });
});

describe('deny', () => {
  it('an error-kind deny applies the patch, stops the chain and denies the dispatch', async () => {
    const fake = fakeExecutor({
      den: says({ deny: true, deny_reason: ' not today ', read_only: true }),
      later: {},
    });
    const r = await dispatch({
      declarations: [decl('den'), decl('later'), decl('bg', { mode: 'async' })],
      executor: fake.executor,
    });
    expect(fake.ran()).toEqual(['den']);
    expect(r.verdict).toBe('denied');
    expect(r.deny_reason).toBe('not today');
    expect(r.error).toBe('hooks: event "tool.pre_call" denied: not today');
    expect(r.payload.read_only).toBe(true);
    expect(outcomes(r.runs)).toEqual(['den:denied']);
    expect(r.runs[0]!.error).toBeNull();
    expect(r.async_queued).toBe(0);
  });

  it('a stop-kind deny stops the chain without an error, and queues no async hook', async () => {
    const fake = fakeExecutor({ den: says({ deny: true }), later: {}, bg: {} });
    const r = await dispatch({
      event: event('tool.post_call'),
      payload: { tool_id: 't' },
      declarations: [decl('den'), decl('later'), decl('bg', { mode: 'async' })],
      executor: fake.executor,
    });
    expect(fake.ran()).toEqual(['den']);
    expect(r.verdict).toBe('stopped');
    expect(r.error).toBeNull();
    expect(r.deny_reason).toBeNull();
    expect(r.async_queued).toBe(0);
  });

  it('sets denied and deny_reason on payloads that have them', async () => {
    const fake = fakeExecutor({ den: says({ deny: true, deny_reason: 'gate closed' }) });
    const r = await dispatch({
      event: event('loop.gate.pre'),
      payload: { loop_name: 'l' },
      declarations: [decl('den')],
      executor: fake.executor,
    });
    expect(r.payload).toEqual({ loop_name: 'l', denied: true, deny_reason: 'gate closed' });
  });

  it('a deny without a reason still sets denied, and an empty deny_reason', async () => {
    const fake = fakeExecutor({ den: says({ deny: true }) });
    const r = await dispatch({
      event: event('spawn.pre_create'),
      payload: { agent_name: 'a', deny_reason: 'stale' },
      declarations: [decl('den')],
      executor: fake.executor,
    });
    expect(r.verdict).toBe('denied');
    expect(r.payload).toEqual({ agent_name: 'a', denied: true, deny_reason: '' });
    expect(r.error).toBe('hooks: event "spawn.pre_create" denied');
  });

  it('does not invent denied fields on payloads without them', async () => {
    const fake = fakeExecutor({ den: says({ deny: true, deny_reason: 'r' }) });
    const r = await dispatch({ declarations: [decl('den')], executor: fake.executor });
    expect(r.payload).not.toHaveProperty('denied');
    expect(r.payload).not.toHaveProperty('deny_reason');
  });

  it('automation pre-fire denies through cancel', async () => {
    const fake = fakeExecutor({ c: says({ cancel: true, prompt: 'p2' }) });
    const r = await dispatch({
      event: event('automation.job.pre_fire'),
      payload: { job_id: 'j', prompt: 'p1' },
      declarations: [decl('c')],
      executor: fake.executor,
    });
    expect(r.verdict).toBe('denied');
    expect(r.payload.prompt).toBe('p2');
    expect(r.error).toBe('hooks: event "automation.job.pre_fire" denied');
  });

  it('a deny-like permission decision denies too, as the runtime does', async () => {
    const fake = fakeExecutor({ d: says({ decision: 'Deny-Once' }), later: {} });
    const r = await dispatch({
      event: event('permission.request'),
      payload: { decision: 'ask' },
      declarations: [decl('d'), decl('later')],
      executor: fake.executor,
    });
    expect(r.verdict).toBe('stopped');
    expect(r.payload.decision).toBe('Deny-Once');
    expect(outcomes(r.runs)).toEqual(['d:denied']);
  });

  it('on an event without deny control, deny does nothing and observation-only patches never apply', async () => {
    const fake = fakeExecutor({ d: says({ deny: true, text: 'changed' }), later: says({ role: 'x' }) });
    const r = await dispatch({
      event: event('message.delta'),
      payload: { text: 'orig' },
      declarations: [decl('d'), decl('later')],
      executor: fake.executor,
    });
    expect(r.verdict).toBe('completed');
    expect(outcomes(r.runs)).toEqual(['d:applied', 'later:applied']);
    expect(r.payload).toEqual({ text: 'orig' });
  });
});

describe('async hooks', () => {
  it('get a copy of the sync-patched payload; their patches are decoded but never applied', async () => {
    const fake = fakeExecutor({
      s: says({ read_only: true }),
      a1: says({ tool_input: { from: 'async' } }),
      a2: says({ bogus: 1 }),
    });
    const r = await dispatch({
      declarations: [decl('a1', { mode: 'async' }), decl('s'), decl('a2', { mode: 'async' })],
      executor: fake.executor,
    });
    expect(fake.ran()[0]).toBe('s');
    const a1 = fake.requests.find((x) => x.command === 'a1')!;
    expect(JSON.parse(a1.stdin).read_only).toBe(true);
    expect(r.payload).toEqual({ tool_id: 'compozy__workspace_info', read_only: true, tool_input: { q: 1 } });
    expect(r.async_queued).toBe(2);
    const byName = Object.fromEntries(r.runs.map((x) => [x.hook_name, x]));
    expect(byName.a1!.outcome).toBe('applied');
    expect(byName.a1!.mode).toBe('async');
    expect(byName.a1!.patch_applied).toEqual({ tool_input: { from: 'async' } });
    expect(byName.a2!.outcome).toBe('failed');
    expect(byName.a2!.error).toBe('hooks: decode patch for hook "a2": json: unknown field "bogus"');
  });

  it('records a hook past a full queue as dropped', async () => {
    const gates: (() => void)[] = [];
    const blocking = () => new Promise<Partial<ExecResult>>((resolve) => gates.push(() => resolve({})));
    const fake = fakeExecutor({ a: blocking, b: blocking, c: blocking });
    const pending = dispatch({
      declarations: ['a', 'b', 'c'].map((n) => decl(n, { mode: 'async' })),
      executor: fake.executor,
      asyncOptions: { workers: 1, queueCapacity: 1 },
    });
    // Let the dispatch submit everything, then release the hooks one by one, each once it runs.
    const started = async () => {
      const deadline = Date.now() + 10_000;
      while (gates.length < 1) {
        if (Date.now() > deadline) throw new Error('no hook started');
        await new Promise((res) => setTimeout(res, 1));
      }
    };
    await started();
    gates.shift()!();
    await started();
    gates.shift()!();
    const r = await pending;
    expect(r.async_queued).toBe(2);
    expect(outcomes(r.runs)).toEqual(['c:dropped', 'a:applied', 'b:applied']);
    expect(r.runs[0]!.error).toBe(ASYNC_DROPPED_ERROR);
    expect(fake.ran()).toEqual(['a', 'b']);
  });

  it('after the drain timeout, running hooks are canceled (failed) and queued ones dropped', async () => {
    const fake = fakeExecutor({ slow: untilAborted, waiting: {} });
    const r = await dispatch({
      declarations: [decl('slow', { mode: 'async' }), decl('waiting', { mode: 'async' })],
      executor: fake.executor,
      asyncOptions: { workers: 1, queueCapacity: 1, drainTimeoutMs: 30 },
    });
    expect(fake.requests[0]!.signal?.aborted).toBe(true);
    expect(fake.ran()).toEqual(['slow']);
    expect(outcomes(r.runs)).toEqual(['slow:failed', 'waiting:dropped']);
    expect(r.runs[0]!.error).toBe('hook canceled');
    expect(r.runs[1]!.error).toBe(DRAIN_DROPPED_ERROR);
    expect(r.async_queued).toBe(2);
  });

  it('a hook that ignores the cancel is still recorded failed, once', async () => {
    const never = () => new Promise<Partial<ExecResult>>(() => {});
    const fake = fakeExecutor({ stuck: never });
    const r = await dispatch({
      declarations: [decl('stuck', { mode: 'async' })],
      executor: fake.executor,
      asyncOptions: { drainTimeoutMs: 10, cancelGraceMs: 10 },
    });
    expect(outcomes(r.runs)).toEqual(['stuck:failed']);
    expect(r.runs[0]!.error).toBe('hook canceled');
  });
});

describe('dispatch depth', () => {
  it('past depth 3 with sync hooks fails before running anything', async () => {
    const fake = fakeExecutor({});
    const r = await dispatch({
      depth: 4,
      declarations: [decl('s'), decl('a', { mode: 'async' })],
      executor: fake.executor,
    });
    expect(fake.ran()).toEqual([]);
    expect(r.verdict).toBe('failed');
    expect(r.error).toBe('hooks: dispatch depth exceeded for event "tool.pre_call": depth 4 exceeds max 3');
    expect(r.runs).toEqual([]);
  });

  it('past depth 3, async hooks are recorded skipped', async () => {
    const fake = fakeExecutor({});
    const r = await dispatch({ depth: 4, declarations: [decl('a', { mode: 'async' })], executor: fake.executor });
    expect(fake.ran()).toEqual([]);
    expect(r.verdict).toBe('completed');
    expect(outcomes(r.runs)).toEqual(['a:skipped']);
    expect(r.runs[0]!.error).toBe('hooks: dispatch depth exceeded for event "tool.pre_call": depth 4 exceeds max 3');
    expect(r.async_queued).toBe(0);
  });

  it('depth 3 still runs, and hooks learn their depth', async () => {
    const fake = fakeExecutor({});
    const r = await dispatch({ depth: 3, declarations: [decl('s')], executor: fake.executor });
    expect(r.verdict).toBe('completed');
    expect(fake.requests[0]!.env.HOOKCTL_DISPATCH_DEPTH).toBe('3');
    expect(r.runs[0]!.dispatch_depth).toBe(3);
  });

  it('a fire started by a hook dispatches one level deeper', () => {
    expect(fireDepthFromEnv({})).toBe(1);
    expect(fireDepthFromEnv({ HOOKCTL_DISPATCH_DEPTH: '3' })).toBe(4);
  });
});

describe('environment and secrets', () => {
  it('builds the hook environment from the allowlist, the declared env and the depth only', async () => {
    const fake = fakeExecutor({});
    await dispatch({
      declarations: [decl('h', { env: { POLICY: 'strict' } })],
      executor: fake.executor,
      invokingEnv: { PATH: '/bin', HOME: '/h', AWS_SECRET_ACCESS_KEY: 'leak', MY_TOKEN: 'leak2', FOO: 'bar' },
    });
    expect(fake.requests[0]!.env).toEqual({ PATH: '/bin', HOME: '/h', POLICY: 'strict', HOOKCTL_DISPATCH_DEPTH: '1' });
  });

  it('resolves secret_env from the invoking environment', async () => {
    const fake = fakeExecutor({});
    await dispatch({
      declarations: [decl('h', { secret_env: { API_TOKEN: 'env:MY_TOKEN' } })],
      executor: fake.executor,
      invokingEnv: { PATH: '/bin', MY_TOKEN: 's3cr3t' },
    });
    expect(fake.requests[0]!.env.API_TOKEN).toBe('s3cr3t');
    expect(fake.requests[0]!.env).not.toHaveProperty('MY_TOKEN');
  });

  it('an unresolvable secret fails that hook only, naming the reference', async () => {
    const fake = fakeExecutor({});
    const r = await dispatch({
      declarations: [
        decl('missing', { secret_env: { API_TOKEN: 'env:MY_TOKEN' } }),
        decl('vault', { secret_env: { K: 'vault:hooks/k' } }),
        decl('fine'),
      ],
      executor: fake.executor,
      invokingEnv: { PATH: '/bin', MY_TOKEN: '' },
    });
    expect(fake.ran()).toEqual(['fine']);
    expect(outcomes(r.runs)).toEqual(['missing:failed', 'vault:failed', 'fine:applied']);
    expect(r.runs[0]!.error).toMatch(/^hooks: hook "missing": resolve secret_env\.API_TOKEN: .*env:MY_TOKEN/);
    expect(r.runs[1]!.error).toMatch(/^hooks: hook "vault": resolve secret_env\.K: .*vault:hooks\/k/);
  });

  it('a required hook with an unresolvable secret fails the dispatch', async () => {
    const fake = fakeExecutor({});
    const r = await dispatch({
      declarations: [decl('req', { required: true, secret_env: { T: 'env:NOPE' } })],
      executor: fake.executor,
    });
    expect(r.verdict).toBe('failed');
    expect(r.error).toMatch(
      /^hooks: required hook "req" failed for event "tool.pre_call": hooks: hook "req": resolve /,
    );
  });
});

describe('run records', () => {
  it('carry the declaration, the dispatch and the process facts, and reach onRecord in order', async () => {
    const fake = fakeExecutor({
      h: { ...says({ read_only: true }), stderrBytes: 3, truncated: false, durationMs: 12.6 },
    });
    const r = await dispatch({
      declarations: [decl('h', { source: 'skill', skill_source: 'workspace', priority: 0, required: true })],
      executor: fake.executor,
    });
    expect(r.received).toEqual(r.runs);
    const rec = r.runs[0]!;
    expect(Object.keys(rec)).toEqual([...RUN_RECORD_FIELDS]);
    expect(rec).toMatchObject({
      dispatch_id: 'disp-1',
      session_id: 'sess-1',
      dialect: 'compozy',
      event: 'tool.pre_call',
      hook_name: 'h',
      source: 'skill',
      skill_source: 'workspace',
      mode: 'sync',
      priority: 0,
      required: true,
      outcome: 'applied',
      duration_ms: 13,
      dispatch_depth: 1,
      exit_code: 0,
      signal: null,
      timed_out: false,
      stdout_bytes: 18,
      stderr_bytes: 3,
      truncated: false,
      patch_applied: { read_only: true },
      error: null,
      workspace: '/ws',
      declared_in: decl('h').location.file,
    });
    expect(rec.recorded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('give each run its own id', async () => {
    const fake = fakeExecutor({});
    const r = await dispatch({ declarations: [decl('a'), decl('b')], executor: fake.executor });
    expect(new Set(r.runs.map((x) => x.run_id)).size).toBe(2);
  });

  it('keep patch_applied to the permission, prompt, tool and input families, and to non-empty patches', async () => {
    const fake = fakeExecutor({ named: says({ session_name: 'n' }), empty: says('  ') });
    const session = await dispatch({
      event: event('session.post_create'),
      payload: { session_name: 'o' },
      declarations: [decl('named')],
      executor: fake.executor,
    });
    expect(session.runs[0]!.patch_applied).toBeNull();
    expect(session.payload.session_name).toBe('n');
    const tool = await dispatch({ declarations: [decl('empty')], executor: fake.executor });
    expect(tool.runs[0]!.patch_applied).toBeNull();
  });
});

describe('planDispatch', () => {
  it('lists every declaration with its matcher verdict per field, running nothing', () => {
    const plan = planDispatch(event('tool.pre_call'), { tool_id: 'compozy__x', read_only: true }, [
      decl('yes', { matcher: { tool_id: 'compozy__*', tool_read_only: true } }),
      decl('no', { mode: 'async', order: 2, matcher: { tool_id: 'other' } }),
      decl('off', { order: 3, enabled: false, status: 'disabled' }),
    ]);
    expect(plan).toEqual([
      {
        name: 'yes',
        source: 'config',
        mode: 'sync',
        order: 1,
        matched: true,
        fields: [
          { field: 'tool_id', pattern: 'compozy__*', value: 'compozy__x', matched: true },
          { field: 'tool_read_only', pattern: true, value: true, matched: true },
        ],
      },
      {
        name: 'no',
        source: 'config',
        mode: 'async',
        order: 2,
        matched: false,
        fields: [{ field: 'tool_id', pattern: 'other', value: 'compozy__x', matched: false }],
      },
      { name: 'off', source: 'config', mode: 'sync', order: 3, matched: false, fields: [] },
    ]);
  });
});

describe('the run observer (the OpenTelemetry seam)', () => {
  /** Hands out TRACEPARENT-like ids in order and remembers which record ended which id. */
  function observer() {
    let n = 0;
    const ended = new Map<string, string>(); // id -> hook name of the record
    return {
      ended,
      beforeRun() {
        const id = `tp-${++n}`;
        return { env: { TRACEPARENT: id }, end: (r: RunRecord) => void ended.set(id, r.hook_name) };
      },
    };
  }

  it("gives each hook process its own variables and ends each with that run's record, sync and async alike", async () => {
    const obs = observer();
    const { executor, requests } = fakeExecutor({
      // async hooks finish in the opposite order to their start
      slow: () => new Promise((r) => setTimeout(() => r({}), 30)),
      fast: () => new Promise((r) => setTimeout(() => r({}), 1)),
    });
    const { runs } = await dispatch({
      declarations: [
        decl('a', { env: { TRACEPARENT: 'declared' } }),
        decl('b'),
        decl('slow', { mode: 'async' }),
        decl('fast', { mode: 'async' }),
      ],
      executor,
      observer: obs,
    });
    expect(runs).toHaveLength(4);
    const byCommand = new Map(requests.map((r) => [r.command, r.env.TRACEPARENT]));
    expect(new Set(byCommand.values()).size).toBe(4);
    for (const [command, id] of byCommand) expect(obs.ended.get(id!)).toBe(command);
    // the observer's variables come last, over the hook's own env
    expect(requests[0]!.env.TRACEPARENT).toBe('tp-1');
  });

  it("adds nothing to a hook's environment without an observer", async () => {
    const { executor, requests } = fakeExecutor({});
    await dispatch({ declarations: [decl('a')], executor });
    expect(requests[0]!.env.TRACEPARENT).toBeUndefined();
  });
});
