// The CompozyOS dispatch engine (SPEC §3.1–3.3): match, run the sync chain with patches applied
// in order, guard, deny, then queue async hooks on copies. The executor is a parameter, so this
// file starts no process itself; records leave through `onRecord` as each run ends.
import type { OrderedDeclaration } from '../../../declarations/model.js';
import type { CompozyEvent } from '../events.js';
import { payloadType, patchType, type PatchType } from '../payload-types.js';
import { monotonicMs } from '../../../exec/clock.js';
import { buildCompozyHookEnv, resolveSecretEnv } from '../../../exec/environment.js';
import { formatExecFailure } from '../../../exec/failure.js';
import { DEFAULT_TIMEOUT_MS, type ExecRequest, type ExecResult, type Executor } from '../../../exec/types.js';
import type { RunRecord } from '../../../ledger/record.js';
import { evaluateMatcher, type FieldVerdict } from '../matcher.js';
import { AsyncPool, type PoolJob } from '../../../exec/async-pool.js';
import { depthExceededError } from '../../../exec/depth.js';
import type { RunObservation, RunObserver } from '../../../telemetry/observer.js';
import { checkGuard, isDenyLikeDecision } from './guards.js';
import { applyPatch, decodePatch, type DecodedPatch } from './patch.js';
import { buildRunRecord, recordsPatch, type RecordContext, type RunFacts } from './records.js';

export type CompozyVerdict = 'completed' | 'stopped' | 'denied' | 'failed';

export interface CompozyDispatchResult {
  verdict: CompozyVerdict;
  /** The denying hook's deny_reason (trimmed) when denied or stopped; null otherwise or when empty. */
  deny_reason: string | null;
  /** failed: why; denied: `hooks: event "<e>" denied[: <reason>]`; else null. */
  error: string | null;
  /** The payload after the sync chain. */
  payload: Record<string, unknown>;
  /** Every record, in the order onRecord received them. */
  runs: RunRecord[];
  /** Async hooks the queue accepted. */
  async_queued: number;
}

export interface AsyncOptions {
  workers?: number;
  queueCapacity?: number;
  drainTimeoutMs?: number;
  /** After drain aborts the running hooks, how long they may take to end. */
  cancelGraceMs?: number;
}

export interface CompozyDispatchOptions {
  event: CompozyEvent;
  payload: Record<string, unknown>;
  /** Active declarations of this event in dispatch order (SPEC §2.3); matchers not yet applied. */
  declarations: OrderedDeclaration[];
  executor: Executor;
  /** The depth this dispatch runs at: 1 for a top-level fire. */
  depth: number;
  sessionId: string;
  dispatchId: string;
  /** The workspace the dispatch was fired in (absolute): every record carries it. */
  workspace: string;
  invokingEnv: NodeJS.ProcessEnv;
  onRecord: (record: RunRecord) => void | Promise<void>;
  asyncOptions?: AsyncOptions;
  /** Told before each hook process starts and when its record is built (src/telemetry/observer.ts). */
  observer?: RunObserver;
}

export const ASYNC_DROPPED_ERROR = 'hooks: async hook submission dropped';
export const DRAIN_DROPPED_ERROR = 'hooks: async hook dropped: the queue was not drained in time';
const HOOK_CANCELED_ERROR = 'hook canceled';

/** The executor request with the abort signal drain uses to cancel a running async hook. */
type CancellableRequest = ExecRequest;

export async function dispatchCompozy(opts: CompozyDispatchOptions): Promise<CompozyDispatchResult> {
  const { event } = opts;
  const patchDef = patchType(event.patch) ?? { fields: {}, applied: [], observation_only: true };
  const ctx: RecordContext = {
    dispatchId: opts.dispatchId,
    sessionId: opts.sessionId,
    event: event.name,
    depth: opts.depth,
    workspace: opts.workspace,
  };
  const runs: RunRecord[] = [];
  const emit = async (decl: OrderedDeclaration, facts: RunFacts & { observation?: RunObservation }): Promise<void> => {
    const record = buildRunRecord(ctx, decl, facts);
    facts.observation?.end(record);
    runs.push(record);
    await opts.onRecord(record);
  };

  const matched = opts.declarations.filter(
    (d) => isActive(d) && evaluateMatcher(d.matcher, opts.payload, event.matcher_payload_fields).matched,
  );
  const syncHooks = matched.filter((d) => d.mode === 'sync');
  const asyncHooks = matched.filter((d) => d.mode === 'async');
  const result: CompozyDispatchResult = {
    verdict: 'completed',
    deny_reason: null,
    error: null,
    payload: opts.payload,
    runs,
    async_queued: 0,
  };

  const depthError = depthExceededError(event.name, opts.depth);
  if (depthError !== undefined && syncHooks.length > 0) {
    return { ...result, verdict: 'failed', error: depthError };
  }

  // Sync chain (SPEC §3.1 step 2).
  const runner = hookRunner(opts, patchDef);
  let current = opts.payload;
  for (const decl of syncHooks) {
    const run = await runner(decl, current);
    const facts = {
      durationMs: run.durationMs,
      exec: run.exec,
      patch: recordedPatch(event, run.patch),
      observation: run.observation,
    };
    if (run.error !== undefined) {
      await emit(decl, { ...facts, outcome: 'failed', error: run.error });
      if (decl.required) {
        result.verdict = 'failed';
        result.error = `hooks: required hook ${q(decl.name)} failed for event ${q(event.name)}: ${run.error}`;
        break;
      }
      continue;
    }
    const patch = run.patch!.fields;
    const refusal = checkGuard(event.guard, current, patch);
    if (refusal !== undefined) {
      await emit(decl, { ...facts, outcome: 'rejected', error: refusal });
      continue;
    }
    current = applyPatch(current, patch, patchDef);
    if (patchDenies(event, patch)) {
      current = markDenied(current, event, patch);
      const reason = typeof patch.deny_reason === 'string' ? patch.deny_reason.trim() : '';
      // The record says why it denied (`hooks runs` shows it), as a cosh record does (SPEC §7.4).
      await emit(decl, { ...facts, outcome: 'denied', reason: reason === '' ? null : reason });
      result.deny_reason = reason === '' ? null : reason;
      if (event.deny === 'error') {
        result.verdict = 'denied';
        result.error = `hooks: event ${q(event.name)} denied${reason === '' ? '' : `: ${reason}`}`;
      } else {
        result.verdict = 'stopped';
      }
      break;
    }
    await emit(decl, { ...facts, outcome: 'applied' });
  }
  result.payload = current;

  // Async hooks (SPEC §3.1 step 3, §3.2, §3.3): only after a chain with no error and no deny.
  if (result.verdict === 'completed' && asyncHooks.length > 0) {
    if (depthError !== undefined) {
      for (const decl of asyncHooks) await emit(decl, { outcome: 'skipped', durationMs: 0, error: depthError });
    } else {
      result.async_queued = await runAsyncHooks(asyncHooks, current, runner, emit, opts, event);
    }
  }
  return result;
}

function isActive(d: OrderedDeclaration): boolean {
  return d.enabled && d.status === 'active';
}

const q = (s: unknown): string => JSON.stringify(s);

/** The runtime treats a deny-like `decision` in a permission patch as a deny too. */
function patchDenies(event: CompozyEvent, patch: Record<string, unknown>): boolean {
  if (event.deny === null || event.deny_field === null) return false;
  if (patch[event.deny_field] === true) return true;
  return event.family === 'permission' && Object.hasOwn(patch, 'decision') && isDenyLikeDecision(patch.decision);
}

/** Payloads with `denied`/`deny_reason` fields get them set on a deny (SPEC §3.1). */
function markDenied(
  payload: Record<string, unknown>,
  event: CompozyEvent,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const fields = payloadType(event.payload)?.fields ?? {};
  const next = { ...payload };
  if (Object.hasOwn(fields, 'denied')) next.denied = true;
  if (Object.hasOwn(fields, 'deny_reason'))
    next.deny_reason = typeof patch.deny_reason === 'string' ? patch.deny_reason : '';
  return next;
}

/** The raw patch for the record: only for the families §5 names, only when one was decoded. */
function recordedPatch(event: CompozyEvent, patch: DecodedPatch | undefined): unknown {
  if (patch === undefined || patch.empty || !recordsPatch(event.family)) return undefined;
  return patch.raw;
}

// ---------------------------------------------------------------------------------------------
// Running one hook: secrets, environment, executor, failure cause, patch decoding.

interface HookRun {
  durationMs: number;
  exec?: ExecResult;
  /** Set when the run succeeded and its stdout decoded. */
  patch?: DecodedPatch;
  /** The cause, when the hook failed. */
  error?: string;
  /** The observer's view of this run, when its process was started. */
  observation?: RunObservation;
}

type HookRunner = (
  decl: OrderedDeclaration,
  payload: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<HookRun>;

function hookRunner(opts: CompozyDispatchOptions, patchDef: PatchType): HookRunner {
  return async (decl, payload, signal) => {
    const name = decl.name ?? '';
    const secrets = resolveSecretEnv(decl.secret_env, opts.invokingEnv);
    if ('error' in secrets) return { durationMs: 0, error: `hooks: hook ${q(name)}: resolve ${secrets.error}` };
    const timeoutMs = decl.timeout_ms > 0 ? decl.timeout_ms : DEFAULT_TIMEOUT_MS;
    const observation = opts.observer?.beforeRun();
    const env = buildCompozyHookEnv(opts.invokingEnv, decl.env, secrets.env, opts.depth);
    const request: CancellableRequest = {
      command: decl.command,
      args: decl.args,
      cwd: decl.cwd,
      env: observation === undefined ? env : { ...env, ...observation.env },
      stdin: JSON.stringify(payload),
      timeoutMs,
      label: name,
      ...(signal ? { signal } : {}),
    };
    const started = monotonicMs();
    let exec: ExecResult;
    try {
      exec = await opts.executor(request);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { durationMs: monotonicMs() - started, error: `hooks: hook ${q(name)}: ${why}`, observation };
    }
    const durationMs = exec.durationMs;
    if (signal?.aborted) return { durationMs, exec, error: HOOK_CANCELED_ERROR, observation };
    if (exec.startError)
      return { durationMs, exec, error: startFailureText(name, decl.command, exec.startError), observation };
    const failure = formatExecFailure(exec, timeoutMs);
    if (failure !== undefined) return { durationMs, exec, error: failure, observation };
    const decoded = decodePatch(exec.stdout, name, opts.event.patch, patchDef);
    if (!decoded.ok) return { durationMs, exec, error: decoded.error, observation };
    return { durationMs, exec, patch: decoded.patch, observation };
  };
}

/** SPEC §3.4: `hooks: hook "<n>": resolve executable "<cmd>": <why>`; spawn failures likewise named. */
function startFailureText(name: string, command: string, startError: NonNullable<ExecResult['startError']>): string {
  const why = startError.message;
  if (why.startsWith('hooks: ')) return why;
  if (startError.kind === 'resolve') return `hooks: hook ${q(name)}: resolve executable ${q(command)}: ${why}`;
  return `hooks: hook ${q(name)}: ${why}`;
}

// ---------------------------------------------------------------------------------------------
// Async hooks: each on its own copy of the sync-patched payload; patches decoded, never applied.

interface AsyncJob extends PoolJob<RunFacts> {
  decl: OrderedDeclaration;
}

async function runAsyncHooks(
  hooks: OrderedDeclaration[],
  payload: Record<string, unknown>,
  runner: HookRunner,
  emit: (decl: OrderedDeclaration, facts: RunFacts) => Promise<void>,
  opts: CompozyDispatchOptions,
  event: CompozyEvent,
): Promise<number> {
  const a = opts.asyncOptions ?? {};
  const pool = new AsyncPool<RunFacts, AsyncJob>({
    workers: a.workers,
    queueCapacity: a.queueCapacity,
    cancelGraceMs: a.cancelGraceMs,
    onSettled: (job, facts) => emit(job.decl, facts),
    onRunError: (job, error) =>
      emit(job.decl, {
        outcome: 'failed',
        durationMs: 0,
        error: error instanceof Error ? error.message : String(error),
      }),
  });
  let accepted = 0;
  for (const decl of hooks) {
    const copy = structuredClone(payload);
    const job: AsyncJob = {
      decl,
      run: async (signal): Promise<RunFacts> => {
        const run = await runner(decl, copy, signal);
        const facts = {
          durationMs: run.durationMs,
          exec: run.exec,
          patch: recordedPatch(event, run.patch),
          observation: run.observation,
        };
        if (run.error !== undefined) return { ...facts, outcome: 'failed', error: run.error };
        return { ...facts, outcome: 'applied' };
      },
    };
    if (pool.submit(job)) accepted++;
    else await emit(decl, { outcome: 'dropped', durationMs: 0, error: ASYNC_DROPPED_ERROR });
  }
  const drained = await pool.drain(a.drainTimeoutMs);
  const now = Date.now();
  for (const { job, startedAt } of drained.abandoned) {
    await emit(job.decl, { outcome: 'failed', durationMs: now - startedAt, error: HOOK_CANCELED_ERROR });
  }
  for (const job of drained.dropped)
    await emit(job.decl, { outcome: 'dropped', durationMs: 0, error: DRAIN_DROPPED_ERROR });
  if (drained.errors.length > 0) throw drained.errors[0];
  return accepted;
}

// ---------------------------------------------------------------------------------------------
// --dry-run (SPEC §6): every declaration, matched or not, field by field. Runs nothing.

export interface PlanEntry {
  name: string;
  source: string;
  mode: string;
  order: number | null;
  matched: boolean;
  fields: FieldVerdict[];
}

export function planDispatch(
  event: CompozyEvent,
  payload: Record<string, unknown>,
  declarations: OrderedDeclaration[],
): PlanEntry[] {
  return declarations.map((d) => {
    const verdict = evaluateMatcher(d.matcher, payload, event.matcher_payload_fields);
    return {
      name: d.name ?? '',
      source: d.source,
      mode: d.mode,
      order: d.order,
      // A disabled declaration never runs, whatever its matcher says.
      matched: isActive(d) && verdict.matched,
      fields: verdict.fields,
    };
  });
}
