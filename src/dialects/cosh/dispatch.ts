// cosh dispatch (SPEC §4.4, seed 000 "Execution Model"): the event's hooks run one after another
// as `sh -c <command>`, each answering with a decision object. The first block/deny ends the
// chain; otherwise ask beats allow beats pass-through. Failures (timeout, non-zero exit, bad
// output) are recorded and never change the flow.
import { join } from 'node:path';
import type { Declaration } from '../../declarations/model.js';
import { HookctlError, ExitCode } from '../../errors.js';
import { coshEvent, type CoshDecision, type CoshEvent } from './events.js';
import { buildCoshHookEnv } from '../../exec/environment.js';
import { formatExecFailure } from '../../exec/failure.js';
import { DEFAULT_TIMEOUT_MS, type ExecResult, type Executor } from '../../exec/types.js';
import type { Outcome, RunRecord } from '../../ledger/record.js';
import { coshMatcherMatches } from './matcher.js';
import { declaredIn, makeRunRecord, processFields } from '../../ledger/record-fields.js';
import { depthExceededError } from '../../exec/depth.js';
import type { RunObservation, RunObserver } from '../../telemetry/observer.js';

export type CoshVerdict = 'allow' | 'block' | 'ask' | 'pass';

/** One JSONL line for the shell; key order is the seed's, so JSON.stringify matches it byte for byte. */
export interface CoshNotification {
  type: 'stream_event';
  event: {
    subtype: 'hook_notification';
    hook_name: string;
    message: string;
    decision: string | null;
  };
}

export interface CoshDispatchOptions {
  event: string;
  payload: Record<string, unknown>;
  /** Active cosh declarations of this event, in dispatch order. */
  declarations: Declaration[];
  executor: Executor;
  sessionId: string;
  dispatchId: string;
  depth: number;
  invokingEnv: NodeJS.ProcessEnv;
  workspace: string;
  coshHome: string;
  onRecord: (r: RunRecord) => void | Promise<void>;
  onNotification?: (n: CoshNotification) => void;
  /** Told before each hook process starts and when its record is built (src/telemetry/observer.ts). */
  observer?: RunObserver;
}

export interface CoshDispatchResult {
  verdict: CoshVerdict;
  /** The blocking hook's reason; else the last reason any hook gave. */
  reason: string | null;
  /** The blocking hook's systemMessage; else the last one any hook gave. */
  system_message: string | null;
  /** Every hook's additional_context, in order, joined with "\n"; null when none gave one. */
  additional_context: string | null;
  notifications: CoshNotification[];
  /** The payload the hooks received (base fields filled). cosh hooks never change it. */
  payload: Record<string, unknown>;
  runs: RunRecord[];
}

export interface CoshPayloadContext {
  event: string;
  sessionId: string;
  workspace: string;
  coshHome: string;
  now: Date;
}

/**
 * The payload with the base fields cosh-core always sends, each only when absent: session_id,
 * cwd (the workspace), hook_event_name, timestamp (RFC 3339 UTC, seconds, as the seed's example)
 * and transcript_path ($COSH_HOME/sessions/<session_id>). Base fields come first, in the seed's
 * order, then the caller's own fields.
 */
export function fillCoshPayload(payload: Record<string, unknown>, ctx: CoshPayloadContext): Record<string, unknown> {
  const sessionId = payload.session_id !== undefined ? payload.session_id : ctx.sessionId;
  const base: Record<string, unknown> = {
    session_id: sessionId,
    cwd: payload.cwd !== undefined ? payload.cwd : ctx.workspace,
    hook_event_name: payload.hook_event_name !== undefined ? payload.hook_event_name : ctx.event,
    timestamp: payload.timestamp !== undefined ? payload.timestamp : ctx.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    transcript_path:
      payload.transcript_path !== undefined
        ? payload.transcript_path
        : join(ctx.coshHome, 'sessions', typeof sessionId === 'string' ? sessionId : ctx.sessionId),
  };
  return { ...base, ...payload };
}

/** What one hook's stdout said, once it ran and exited 0. */
interface CoshAnswer {
  /** As written; null when absent or empty (pass-through). */
  decision: string | null;
  reason: string | null;
  systemMessage: string | null;
  additionalContext: string | null;
}

const DECISIONS: Readonly<Record<string, CoshDecision>> = { allow: 'allow', ask: 'ask', block: 'block', deny: 'block' };

/**
 * Decodes a hook's stdout. Empty or white space = pass-through; otherwise exactly one JSON object.
 * `hookSpecificOutput.additional_context` is the seed's spelling; `additionalContext` (the
 * camelCase form of Claude-style hooks) is accepted too when the former is absent.
 */
function parseCoshAnswer(stdout: string): { answer: CoshAnswer } | { error: string; decision?: string } {
  const empty: CoshAnswer = { decision: null, reason: null, systemMessage: null, additionalContext: null };
  if (stdout.trim() === '') return { answer: empty };
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    return { error: 'hook output must be one JSON object: stdout is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      error: `hook output must be one JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
    };
  }
  const out = value as Record<string, unknown>;
  const decision = out.decision;
  if (decision !== undefined && decision !== null && typeof decision !== 'string') {
    return { error: `hook output "decision" must be a string, got ${typeof decision}` };
  }
  if (typeof decision === 'string' && decision !== '' && DECISIONS[decision] === undefined) {
    return { error: `hook output has unknown decision "${decision}" (want allow, block, deny or ask)`, decision };
  }
  const specific = out.hookSpecificOutput;
  let additionalContext: string | null = null;
  if (typeof specific === 'object' && specific !== null && !Array.isArray(specific)) {
    const s = specific as Record<string, unknown>;
    const ctx = s.additional_context !== undefined ? s.additional_context : s.additionalContext;
    if (typeof ctx === 'string') additionalContext = ctx;
  }
  return {
    answer: {
      decision: typeof decision === 'string' && decision !== '' ? decision : null,
      reason: typeof out.reason === 'string' ? out.reason : null,
      systemMessage: typeof out.systemMessage === 'string' ? out.systemMessage : null,
      additionalContext,
    },
  };
}

/** The notification for a hook that gave a systemMessage (else a reason); none when it gave neither. */
function coshNotification(hookName: string, answer: CoshAnswer): CoshNotification | undefined {
  const message = answer.systemMessage || answer.reason;
  if (!message) return undefined;
  return {
    type: 'stream_event',
    event: { subtype: 'hook_notification', hook_name: hookName, message, decision: answer.decision },
  };
}

export async function dispatchCosh(opts: CoshDispatchOptions): Promise<CoshDispatchResult> {
  const event = coshEvent(opts.event);
  if (!event) throw new HookctlError('unknown_event', `unknown cosh event "${opts.event}"`, ExitCode.usage);
  const payload = fillCoshPayload(opts.payload, {
    event: opts.event,
    sessionId: opts.sessionId,
    workspace: opts.workspace,
    coshHome: opts.coshHome,
    now: new Date(),
  });
  const stdin = JSON.stringify(payload);

  const result: CoshDispatchResult = {
    verdict: 'pass',
    reason: null,
    system_message: null,
    additional_context: null,
    notifications: [],
    payload,
    runs: [],
  };
  const contexts: string[] = [];
  let asked = false;
  let allowed = false;

  // The same recursion guard as CompozyOS (SPEC §3.3): cosh hooks get HOOKCTL_DISPATCH_DEPTH too,
  // and a hook that fires its own event again must not nest without end. Past the limit the fire
  // fails (exit 3) before any hook runs; with nothing to run there is nothing to guard.
  const matched = opts.declarations.filter((decl) => matches(event, decl, payload));
  const depthError = depthExceededError(opts.event, opts.depth);
  if (depthError !== undefined && matched.length > 0) {
    throw new HookctlError('dispatch_depth_exceeded', depthError, ExitCode.dispatchFailed);
  }

  for (const decl of matched) {
    const timeoutMs = decl.timeout_ms > 0 ? decl.timeout_ms : DEFAULT_TIMEOUT_MS;
    const observation = opts.observer?.beforeRun();
    const env = buildCoshHookEnv(opts.invokingEnv, decl.env, opts.depth);
    const exec = await opts.executor({
      command: '/bin/sh',
      args: ['-c', decl.command],
      cwd: decl.cwd,
      env: observation === undefined ? env : { ...env, ...observation.env },
      stdin,
      timeoutMs,
      label: decl.name ?? '',
    });
    const failure = formatExecFailure(exec, timeoutMs);
    const parsed: ReturnType<typeof parseCoshAnswer> =
      failure === undefined ? parseCoshAnswer(exec.stdout) : { error: failure };
    if ('error' in parsed) {
      // Timeout counts as pass-through; every failure is recorded and changes nothing.
      const decision = parsed.decision ?? null;
      await finish(
        opts,
        result,
        runRecord(opts, decl, exec, { outcome: 'failed', decision, reason: null, error: parsed.error }),
        observation,
      );
      continue;
    }
    const answer = parsed.answer;
    const taken = effectiveDecision(event, answer.decision);
    const outcome: Outcome = taken === 'block' ? 'denied' : 'applied';
    await finish(
      opts,
      result,
      runRecord(opts, decl, exec, { outcome, decision: answer.decision, reason: answer.reason }),
      observation,
    );

    if (answer.reason !== null) result.reason = answer.reason;
    if (answer.systemMessage !== null) result.system_message = answer.systemMessage;
    if (answer.additionalContext !== null) contexts.push(answer.additionalContext);
    const notification = coshNotification(decl.name ?? '', answer);
    if (notification) {
      result.notifications.push(notification);
      opts.onNotification?.(notification);
    }
    if (taken === 'block') {
      // The blocking hook decides: its reason and message (or none) are the dispatch's.
      result.verdict = 'block';
      result.reason = answer.reason;
      result.system_message = answer.systemMessage;
      break;
    }
    if (taken === 'ask') asked = true;
    if (taken === 'allow') allowed = true;
  }

  if (result.verdict !== 'block') result.verdict = asked ? 'ask' : allowed ? 'allow' : 'pass';
  result.additional_context = contexts.length > 0 ? contexts.join('\n') : null;
  return result;
}

/** The matcher filters only on tool events; elsewhere it was already ignored at load time. */
function matches(event: CoshEvent, decl: Declaration, payload: Record<string, unknown>): boolean {
  if (!event.tool_matcher) return true;
  const pattern = decl.matcher.tool_name;
  return coshMatcherMatches(typeof pattern === 'string' ? pattern : undefined, payload.tool_name);
}

/** The decision as it acts on this event: deny counts as block; one the event cannot take is ignored. */
function effectiveDecision(event: CoshEvent, raw: string | null): CoshDecision | undefined {
  const decision = raw === null ? undefined : DECISIONS[raw];
  return decision !== undefined && event.decisions.includes(decision) ? decision : undefined;
}

interface RunFacts {
  outcome: Outcome;
  decision: string | null;
  reason: string | null;
  error?: string;
}

/** A run record (SPEC §5; its shape is ledger/record-fields.ts's). */
function runRecord(opts: CoshDispatchOptions, decl: Declaration, exec: ExecResult, facts: RunFacts): RunRecord {
  return makeRunRecord({
    dispatch_id: opts.dispatchId,
    session_id: opts.sessionId,
    dialect: 'cosh',
    event: opts.event,
    hook_name: decl.name ?? '',
    source: decl.source,
    skill_source: decl.skill_source ?? null,
    mode: decl.mode,
    priority: decl.priority,
    required: decl.required,
    outcome: facts.outcome,
    decision: facts.decision,
    reason: facts.reason,
    duration_ms: Math.round(exec.durationMs),
    dispatch_depth: opts.depth,
    ...processFields(exec), // all null where no process ran
    patch_applied: null,
    error: facts.error === undefined ? null : oneLine(facts.error),
    workspace: opts.workspace,
    declared_in: declaredIn(decl.location),
  });
}

async function finish(
  opts: CoshDispatchOptions,
  result: CoshDispatchResult,
  record: RunRecord,
  observation: RunObservation | undefined,
): Promise<void> {
  observation?.end(record);
  result.runs.push(record);
  await opts.onRecord(record);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
