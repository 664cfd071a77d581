// A codex fire (codex.md §5–§6): every selected handler, sync and async, starts at once; each
// answer is read (§5.4, §5.5) and recorded as its hook ends; once the last has finished the sync
// answers are combined in declaration order (§5.7). Untrusted and mcp_tool hooks are recorded
// skipped (§5.1). `fire` waits for async hooks too (§5.8): their answers never change the verdict.
import { rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DispatchRequest, PlanRequest } from '../../types.js';
import { ExitCode, HookctlError, eventNotInDialectError } from '../../../errors.js';
import { depthExceededError } from '../../../exec/depth.js';
import { collectEnvExports, existingFolderOr } from '../../../exec/env-file.js';
import { cleanUpOnSignal } from '../../../exec/signal-cleanup.js';
import type { ExecResult } from '../../../exec/types.js';
import type { RunRecord } from '../../../ledger/record.js';
import type { RunObservation } from '../../../telemetry/observer.js';
import type { CodexEventData } from '../catalog-types.js';
import { codexEvent } from '../catalog.js';
import { readCodexAnswer, type CodexAnswer, type CodexRun } from './answer.js';
import { combineCodexAnswers, type CodexCombined } from './combine.js';
import { codexCommandLine, codexHookEnv } from './env.js';
import { fillCodexPayload } from './payload.js';
import { codexSessionIdFor } from '../locations.js';
import { answerFacts, buildCodexRecord, skippedFacts, type CodexRecordContext } from './records.js';
import { selectCodexHandlers, type CodexSelection } from './select.js';

/** 1 MiB of stdout, 8 KiB of stderr, the rest read and dropped (§5.2). */
export const CODEX_STDOUT_LIMIT = 1024 * 1024;
export const CODEX_STDERR_LIMIT = 8 * 1024;

export const MCP_TOOL_WHY = 'mcp_tool hooks run only inside Codex';

/** One JSONL line for the caller, in claude's shape (codex.md §6). */
export interface CodexNotification {
  type: 'stream_event';
  event: {
    subtype: 'hook_notification';
    hook_name: string;
    kind: 'system_message' | 'hook_error';
    message: string;
    decision: string | null;
  };
}

export interface CodexDispatchResult extends Omit<CodexCombined, 'warnings' | 'payload' | 'verdict'> {
  [extra: string]: unknown;
  event: string;
  dialect: 'codex';
  session_id: string;
  dispatch_id: string;
  verdict: string;
  env_exports: { hook: string; line: string }[];
  payload: Record<string, unknown>;
  runs: RunRecord[];
  /** The names of the hooks skipped for want of trust (§5.1). */
  skipped_untrusted: string[];
  notifications: CodexNotification[];
  unevaluated: { hook: string; handler_type: string; why: string }[];
  error: string | null;
  /** For stderr, not for the JSON document: the fire use case prints and removes them. */
  warnings: string[];
}

export function codexEventOf(name: string): CodexEventData {
  const event = codexEvent(name);
  if (event === undefined) {
    throw eventNotInDialectError(name, 'codex');
  }
  return event;
}

/** `--trust-all` (or a `hooks test` case's `trust_all: true`), as the use case passes it in `options`. */
export function trustAllOf(req: Pick<PlanRequest, 'options'>): boolean {
  return req.options?.trustAll === true;
}

/** The payload with §5.1's fields, and the selection of §5.1 over it. */
export function prepareCodex(req: PlanRequest) {
  const event = codexEventOf(req.event);
  const warnings: string[] = [];
  const payload = fillCodexPayload(
    req.payload,
    {
      event,
      // A dry run names a session only when asked to; it records nothing in it.
      sessionId: req.sessionId ?? codexSessionIdFor(req.payload),
      workspace: req.loc.workspace,
    },
    warnings,
  );
  const selections = selectCodexHandlers(event, payload, req.declarations, trustAllOf(req));
  return { event, payload, warnings, selections };
}

interface Finished {
  sel: CodexSelection;
  record: RunRecord;
  answer?: CodexAnswer;
  why?: string;
  envFile?: string;
  finishedAt: number;
}

export async function dispatchCodex(req: DispatchRequest): Promise<CodexDispatchResult> {
  const { event, payload, warnings, selections } = prepareCodex({ ...req, sessionId: req.sessionId });
  const selected = selections.filter((s) => s.selected);
  const recordCtx: CodexRecordContext = {
    dispatchId: req.dispatchId,
    sessionId: req.sessionId,
    event: event.name,
    depth: req.depth,
    workspace: req.loc.workspace,
  };
  const runs = (s: CodexSelection) => s.trustSkip === undefined && s.info.runnable;

  // SPEC §3.3: past the depth limit a dispatch with sync hooks fails before any runs.
  const depthError = depthExceededError(event.name, req.depth);
  if (depthError !== undefined && selected.some((s) => runs(s) && !s.info.async)) {
    throw new HookctlError('dispatch_depth_exceeded', depthError, ExitCode.dispatchFailed);
  }

  const envDir =
    event.env_file && selected.some(runs) ? await mkdtemp(join(tmpdir(), 'hookctl-codex-env-')) : undefined;
  // Stopped by a signal, the process runs no `finally`: the folder goes then too.
  const stopCleanUp =
    envDir !== undefined ? cleanUpOnSignal(() => rmSync(envDir, { recursive: true, force: true })) : undefined;
  // Compact JSON with no trailing newline (§5.2).
  const stdin = JSON.stringify(payload);
  const cwd = existingFolderOr(payload.cwd, req.loc.workspace); // §5.2 [ours for the fallback]
  let finishedCount = 0;

  const record = async (
    sel: CodexSelection,
    r: RunRecord,
    extra: Omit<Finished, 'sel' | 'record' | 'finishedAt'>,
    observation?: RunObservation,
  ): Promise<Finished> => {
    observation?.end(r);
    await req.onRecord(r);
    return { sel, record: r, ...extra, finishedAt: finishedCount++ };
  };
  const skip = (sel: CodexSelection, why: string) =>
    record(sel, buildCodexRecord(recordCtx, sel.decl, skippedFacts(why)), { why });

  let finished: Finished[];
  try {
    finished = await Promise.all(
      selected.map(async (sel, i): Promise<Finished> => {
        if (sel.trustSkip !== undefined) return skip(sel, sel.trustSkip);
        if (!sel.info.runnable) return skip(sel, sel.info.unrunnable_why ?? MCP_TOOL_WHY);
        if (depthError !== undefined) return skip(sel, depthError);
        const envFile = envDir !== undefined ? join(envDir, `env-${i}`) : undefined;
        if (envFile !== undefined) await writeFile(envFile, '', { mode: 0o600 });
        const env = codexHookEnv({
          invoking: req.env,
          declared: sel.decl.env ?? {},
          ...(sel.info.plugin ? { plugin: sel.info.plugin } : {}),
          depth: req.depth,
          ...(envFile ? { envFile } : {}),
        });
        const timeoutMs = sel.info.timeout_s * 1000;
        const command = sel.decl.command !== '' ? sel.decl.command : String(sel.info.handler.command ?? '');
        // The OpenTelemetry export (DispatchRequest.observer): a span opened now, its TRACEPARENT for the process.
        const observation = req.observer?.beforeRun();
        const exec = await req.executor({
          ...codexCommandLine(command, req.env),
          ...(sel.decl.name !== null ? { label: sel.decl.name } : {}),
          cwd,
          env: observation === undefined ? env : { ...env, ...observation.env },
          stdin,
          timeoutMs,
          stdoutLimitBytes: CODEX_STDOUT_LIMIT,
          stderrLimitBytes: CODEX_STDERR_LIMIT,
          captureStderr: true,
        });
        const answer = readCodexAnswer(event, execRun(exec, sel));
        return record(
          sel,
          buildCodexRecord(recordCtx, sel.decl, answerFacts(answer, exec.durationMs, exec)),
          { answer, ...(envFile ? { envFile } : {}) },
          observation,
        );
      }),
    );
    return await assemble(req, event, payload, warnings, finished);
  } finally {
    stopCleanUp?.();
    if (envDir !== undefined) await rm(envDir, { recursive: true, force: true });
  }
}

function execRun(exec: ExecResult, sel: CodexSelection): CodexRun {
  if (exec.startError) {
    const name = JSON.stringify(sel.decl.name ?? '');
    return { kind: 'failed', message: `hooks: hook ${name}: ${exec.startError.message}` };
  }
  if (exec.timedOut) return { kind: 'timed_out', timeoutS: sel.info.timeout_s };
  return { kind: 'exited', code: exec.exitCode, signal: exec.signal, stdout: exec.stdout, stderr: exec.stderr ?? '' };
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

async function assemble(
  req: DispatchRequest,
  event: CodexEventData,
  payload: Record<string, unknown>,
  warnings: string[],
  finished: Finished[],
): Promise<CodexDispatchResult> {
  const answered = finished.filter((f): f is Finished & { answer: CodexAnswer } => f.answer !== undefined);
  const combined = combineCodexAnswers(
    event,
    answered.map((f) => ({
      name: f.sel.decl.name ?? '',
      async: f.sel.info.async,
      answer: f.answer,
      contextLimit: f.sel.info.context_limit,
      finishedAt: f.finishedAt,
    })),
    payload,
  );
  for (const f of answered) for (const w of f.answer.warnings) warnings.push(`${f.sel.decl.name ?? ''}: ${w}`);
  warnings.push(...combined.warnings);

  const notifications: CodexNotification[] = [];
  const notify = (hook: string, kind: CodexNotification['event']['kind'], message: string, decision: string | null) => {
    const n: CodexNotification = {
      type: 'stream_event',
      event: { subtype: 'hook_notification', hook_name: hook, kind, message, decision },
    };
    notifications.push(n);
    req.onNotification?.(n);
  };
  for (const f of answered) {
    const name = f.sel.decl.name ?? '';
    // An async hook's systemMessage is delivered later, with next_turn_context (§5.8).
    if (f.answer.systemMessage !== null && !f.sel.info.async)
      notify(name, 'system_message', f.answer.systemMessage, f.answer.decision);
    if (f.answer.outcome === 'failed' && f.answer.error !== undefined) notify(name, 'hook_error', f.answer.error, null);
  }

  const envFiles = finished.flatMap((f) =>
    f.envFile === undefined ? [] : [{ hook: f.sel.decl.name ?? '', file: f.envFile }],
  );
  const { entries: envExportEntries, warnings: envWarnings } = await collectEnvExports(envFiles, 'CODEX_ENV_FILE');
  warnings.push(...envWarnings);

  const skippedUntrusted = finished.filter((f) => f.sel.trustSkip !== undefined).map((f) => f.sel.decl.name ?? '');
  if (skippedUntrusted.length > 0) {
    const n = skippedUntrusted.length;
    // [ours] the singular reads "1 hook was … it is …"; the spec gives the plural form.
    warnings.push(
      n === 1
        ? '1 hook was skipped because it is not trusted (Codex skips it silently); see hooks list or pass --trust-all'
        : `${n} hooks were skipped because they are not trusted (Codex skips them silently); see hooks list or pass --trust-all`,
    );
  }
  const unevaluated = finished
    .filter((f) => f.sel.trustSkip === undefined && !f.sel.info.runnable)
    .map((f) => ({ hook: f.sel.decl.name ?? '', handler_type: f.sel.info.handler_type, why: f.why ?? '' }));
  if (unevaluated.length > 0) {
    const n = unevaluated.length;
    warnings.push(`${n} ${plural(n, 'hook', 'hooks')} could not run outside Codex; the verdict does not include them`);
  }

  return {
    event: event.name,
    dialect: 'codex',
    session_id: req.sessionId,
    dispatch_id: req.dispatchId,
    verdict: combined.verdict,
    reason: combined.reason,
    stop_reason: combined.stop_reason,
    system_message: combined.system_message,
    additional_context: combined.additional_context,
    feedback: combined.feedback,
    next_turn_context: combined.next_turn_context,
    env_exports: envExportEntries,
    payload: combined.payload,
    runs: finished.map((f) => f.record),
    skipped_untrusted: skippedUntrusted,
    notifications,
    unevaluated,
    error: null,
    warnings,
  };
}
