// The dispatch depth guard (SPEC §3.3) applies to cosh fires too: past depth 3 a cosh dispatch
// with hooks to run fails (exit 3) before running any of them; a fire that would run nothing
// is not refused.
import { describe, expect, it } from 'vitest';
import type { Declaration } from '../../src/declarations/model.js';
import { dispatchCosh, type CoshDispatchOptions } from '../../src/dialects/cosh/dispatch.js';
import { ExitCode, HookctlError } from '../../src/errors.js';
import type { ExecRequest, Executor } from '../../src/exec/types.js';

function decl(name: string, matcher: Record<string, string> = {}): Declaration {
  return {
    dialect: 'cosh',
    name,
    event: 'PreToolUse',
    source: 'cosh_config',
    mode: 'sync',
    required: false,
    priority: 0,
    timeout_ms: 5000,
    enabled: true,
    metadata: {},
    matcher,
    executor_kind: 'subprocess',
    command: `hook-${name}`,
    args: [],
    env: {},
    secret_env: {},
    cwd: '/ws',
    location: { file: '/cfg/config.toml', line: 1 },
    status: 'active',
  };
}

/** Answers allow and remembers what it was asked to run. */
function allowingExecutor(calls: ExecRequest[]): Executor {
  return async (req) => {
    calls.push(req);
    const stdout = '{"decision":"allow"}';
    return {
      exitCode: 0,
      signal: null,
      timedOut: false,
      stdout,
      stdoutBytes: stdout.length,
      stderrBytes: 0,
      truncated: false,
      durationMs: 1,
    };
  };
}

function options(
  depth: number,
  declarations: Declaration[],
  calls: ExecRequest[],
  records: unknown[],
): CoshDispatchOptions {
  return {
    event: 'PreToolUse',
    payload: { tool_name: 'shell' },
    declarations,
    executor: allowingExecutor(calls),
    sessionId: 's',
    dispatchId: 'd',
    depth,
    invokingEnv: {},
    workspace: '/ws',
    coshHome: '/cosh',
    onRecord: (r) => void records.push(r),
  };
}

describe('cosh dispatch depth', () => {
  it('runs at depth 3 and hands the depth to the hook', async () => {
    const calls: ExecRequest[] = [];
    const result = await dispatchCosh(options(3, [decl('a')], calls, []));
    expect(result.verdict).toBe('allow');
    expect(calls.map((c) => c.env.HOOKCTL_DISPATCH_DEPTH)).toEqual(['3']);
  });

  it('fails past depth 3 with exit 3 before running or recording anything', async () => {
    const calls: ExecRequest[] = [];
    const records: unknown[] = [];
    const failure = await dispatchCosh(options(4, [decl('a'), decl('b')], calls, records)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HookctlError);
    expect(failure).toMatchObject({
      code: 'dispatch_depth_exceeded',
      exit: ExitCode.dispatchFailed,
      message: 'hooks: dispatch depth exceeded for event "PreToolUse": depth 4 exceeds max 3',
    });
    expect(calls).toEqual([]);
    expect(records).toEqual([]);
  });

  it('does not refuse a deep fire when no hook matches', async () => {
    const calls: ExecRequest[] = [];
    const result = await dispatchCosh(options(4, [decl('a', { tool_name: '^read_file$' })], calls, []));
    expect(result.verdict).toBe('pass');
    expect(calls).toEqual([]);
  });
});
