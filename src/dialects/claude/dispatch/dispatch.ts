// A claude fire (claude.md §5–§6): every selected handler starts at once, sync and async alike;
// each answer is read (§5.4), recorded as its hook ends, and the answers are combined (§5.6)
// once all have finished. Handlers hookctl cannot run are recorded skipped (§5.8).
import { rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DispatchRequest, DispatchResult, PlanRequest } from '../../types.js';
import { ExitCode, HookctlError, eventNotInDialectError } from '../../../errors.js';
import { monotonicMs } from '../../../exec/clock.js';
import { formatExecFailure } from '../../../exec/failure.js';
import { cleanUpOnSignal } from '../../../exec/signal-cleanup.js';
import type { ExecResult } from '../../../exec/types.js';
import { depthExceededError } from '../../../exec/depth.js';
import { readAllRecords } from '../../../ledger/reader.js';
import type { RunRecord } from '../../../ledger/record.js';
import type { RunObservation } from '../../../telemetry/observer.js';
import { readAnswer, secondsText, type HandlerRun, type HookAnswer } from './answer.js';
import { onFailureIgnoredOn } from '../sources/handlers.js';
import { modNote } from '../sources/mods.js';
import type { ClaudeEventData } from '../catalog-types.js';
import { claudeEvent, defaultTimeoutS } from '../catalog.js';
import { combineAnswers, type Combined } from './combine.js';
import { collectEnvExports, existingFolderOr } from '../../../exec/env-file.js';
import { claudeHookEnv, substitutePlaceholders } from './hook-env.js';
import { claudeLocations, claudeSessionIdFor, sessionsDirOf } from '../locations.js';
import { allowedHeaderVars, expandHeaderValue, httpRun, postJson } from './http.js';
import type { ClaudeContext } from '../model.js';
import { fillClaudePayload } from './payload.js';
import { buildClaudeRecord, type ClaudeRecordContext } from './records.js';
import { selectHandlers, type ClaudeSelection, type HandlerSelection } from '../rules/select.js';
import { verdictExitCode } from '../verdicts.js';

/** 1 MiB of stdout (an updatedInput can be large) and 8 KiB of stderr (claude.md §5.2). */
export const CLAUDE_STDOUT_LIMIT = 1024 * 1024;
export const CLAUDE_STDERR_LIMIT = 8 * 1024;

/** One JSONL line for the caller, in the cosh shape plus `kind` (claude.md §6). */
export interface ClaudeNotification {
  type: 'stream_event';
  event: {
    subtype: 'hook_notification';
    hook_name: string;
    kind: 'system_message' | 'hook_error' | 'timeout';
    message: string;
    decision: string | null;
  };
}

export interface ClaudeDispatchResult extends Omit<DispatchResult, 'verdict'>, Omit<Combined, 'warnings'> {
  event: string;
  dialect: 'claude';
  session_id: string;
  dispatch_id: string;
  env_exports: { hook: string; line: string }[];
  runs: RunRecord[];
  notifications: ClaudeNotification[];
  unevaluated: { hook: string; handler_type: string; why: string }[];
  error: string | null;
  /** The mods that may intercept the event (claude.md §1.1). */
  mods: { plugin: string; modules: string[]; registers: string[]; events: string[] }[];
  /** For stderr, not for the JSON document: the fire use case prints and removes them. */
  warnings: string[];
}

/** What the loaders put in the catalog context, plus the fields they add (claude.NOTES). */
type Context = Partial<ClaudeContext> & { stateDir?: string; workspace?: string };

export function claudeContext(req: PlanRequest): Context {
  return (req.context ?? {}) as Context;
}

/** `<state>/claude/sessions`, the state dir from the loaders' context, else from the environment. */
export function claudeSessionsDir(req: PlanRequest): string {
  return sessionsDirOf(claudeContext(req).stateDir ?? claudeLocations(req.loc, req.env).stateDir);
}

export function eventOf(name: string): ClaudeEventData {
  const event = claudeEvent(name);
  if (event === undefined) {
    throw eventNotInDialectError(name, 'claude');
  }
  return event;
}

export function selectionOf(req: PlanRequest): ClaudeSelection {
  const o = req.options ?? {};
  const skills = Array.isArray(o.skills) ? o.skills.filter((s): s is string => typeof s === 'string') : undefined;
  return {
    ...(skills ? { skills } : {}),
    ...(typeof o.agent === 'string' ? { agent: o.agent } : {}),
    ...(o.skillFolders === true ? { skillFolders: true } : {}),
  };
}

/** The payload with §5.1's fields, and the selection of §5.1 over it. */
export async function prepare(req: PlanRequest, evaluateAll: boolean) {
  const event = eventOf(req.event);
  const warnings: string[] = [];
  const payload = fillClaudePayload(
    req.payload,
    {
      event,
      // A dry run names a session only when asked to; it records nothing in it.
      sessionId: req.sessionId ?? claudeSessionIdFor(req.payload),
      workspace: req.loc.workspace,
      sessionsDir: claudeSessionsDir(req),
    },
    warnings,
  );
  const selections = await selectHandlers({
    event,
    payload,
    declarations: req.declarations,
    selection: selectionOf(req),
    home: req.env.HOME,
    evaluateAll,
  });
  return { event, payload, warnings, selections };
}

/** A hook's timeout in ms: its own, else the event's or the type's default; SessionEnd shares one deadline. */
export function timeoutMsFor(event: ClaudeEventData, sel: HandlerSelection, sessionEndMs: number | undefined): number {
  const own = sel.info.timeout_s;
  if (sessionEndMs !== undefined) return own !== null ? Math.min(own * 1000, sessionEndMs) : sessionEndMs;
  return (own ?? defaultTimeoutS(event, sel.info.handler_type)) * 1000;
}

/**
 * SessionEnd's shared deadline (§5.7): CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS, else the largest
 * timeout of the settings files' SessionEnd hooks, within 1.5 s and 60 s.
 */
export function sessionEndDeadlineMs(env: NodeJS.ProcessEnv, ctx: Context): number {
  const raw = Number(env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS);
  if (env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS?.trim() && Number.isFinite(raw) && raw > 0) return raw;
  return Math.min(60_000, Math.max(1_500, (ctx.sessionEndMaxTimeoutS ?? 0) * 1000));
}

interface Finished {
  sel: HandlerSelection;
  answer: HookAnswer | undefined;
  record: RunRecord;
  why?: string;
  timeoutS?: number;
  envFile?: string;
}

export async function dispatchClaude(req: DispatchRequest): Promise<ClaudeDispatchResult> {
  const { event, payload, warnings, selections } = await prepare(req, false);
  const ctx = claudeContext(req);
  const selected = selections.filter((s) => s.selected);
  const recordCtx: ClaudeRecordContext = {
    dispatchId: req.dispatchId,
    sessionId: req.sessionId,
    event: event.name,
    depth: req.depth,
    workspace: req.loc.workspace,
  };

  // SPEC §3.3: past the depth limit a dispatch with sync hooks fails before any runs.
  const depthError = depthExceededError(event.name, req.depth);
  if (depthError !== undefined && selected.some((s) => s.info.runnable && !s.info.async)) {
    throw new HookctlError('dispatch_depth_exceeded', depthError, ExitCode.dispatchFailed);
  }

  const ranBefore = await onceRuns(req, selected);
  const sessionEndMs = event.name === 'SessionEnd' ? sessionEndDeadlineMs(req.env, ctx) : undefined;
  const envDir =
    event.env_file && selected.some((s) => s.info.runnable)
      ? await mkdtemp(join(tmpdir(), 'hookctl-claude-env-'))
      : undefined;
  // Stopped by a signal, the process runs no `finally`: the folder goes then too.
  const stopCleanUp =
    envDir !== undefined ? cleanUpOnSignal(() => rmSync(envDir, { recursive: true, force: true })) : undefined;
  const stdin = `${JSON.stringify(payload)}\n`;
  const cwd = existingFolderOr(payload.cwd, req.loc.workspace); // §5.2

  const record = async (
    sel: HandlerSelection,
    r: RunRecord,
    extra: Omit<Finished, 'sel' | 'record'>,
    observation?: RunObservation,
  ): Promise<Finished> => {
    observation?.end(r);
    await req.onRecord(r);
    return { sel, record: r, ...extra };
  };
  const skip = (sel: HandlerSelection, why: string) =>
    record(
      sel,
      buildClaudeRecord(recordCtx, sel.decl, {
        outcome: 'skipped',
        decision: null,
        reason: null,
        durationMs: 0,
        blocking: false,
        output: null,
        why,
      }),
      { answer: undefined, why },
    );

  let finished: Finished[];
  try {
    finished = await Promise.all(
      selected.map(async (sel, i): Promise<Finished> => {
        if (!sel.info.runnable)
          return skip(sel, sel.info.unrunnable_why ?? `${sel.info.handler_type} hooks run only inside Claude Code`);
        if (ranBefore.has(sel.decl.name ?? '')) return skip(sel, 'once: already ran in this session');
        if (depthError !== undefined) return skip(sel, depthError);
        // `hooks replay` without --allow-http: an http hook is skipped with the replay's reason.
        const httpSkipped = req.options?.httpSkippedWhy;
        if (sel.info.handler_type === 'http' && typeof httpSkipped === 'string') return skip(sel, httpSkipped);
        const envFile = envDir !== undefined ? join(envDir, `env-${i}`) : undefined;
        if (envFile !== undefined) await writeFile(envFile, '', { mode: 0o600 });
        const env = claudeHookEnv({
          invoking: req.env,
          settingsEnv: ctx.settingsEnv ?? {},
          workspace: req.loc.workspace,
          sessionId: req.sessionId,
          depth: req.depth,
          ...(sel.info.plugin ? { plugin: sel.info.plugin } : {}),
          ...(envFile ? { envFile } : {}),
        });
        const timeoutMs = timeoutMsFor(event, sel, sessionEndMs);
        const started = monotonicMs();
        const answerOpts = {
          name: sel.decl.name ?? '',
          handlerType: sel.info.handler_type,
          async: sel.info.async,
          asyncRewake: sel.info.async_rewake,
          onFailureBlock:
            sel.info.handler.onFailure === 'block' && onFailureIgnoredOn(event, sel.info.handler) === undefined,
        };
        // The OpenTelemetry export (DispatchRequest.observer): a span opened now, its TRACEPARENT for the process.
        const observation = req.observer?.beforeRun();
        if (sel.info.handler_type === 'http') {
          const result = await runHttp(sel, env, payload, timeoutMs, ctx);
          const answer = readAnswer(event, httpRun(result, timeoutMs / 1000), answerOpts);
          return record(
            sel,
            buildClaudeRecord(recordCtx, sel.decl, {
              ...answerFacts(answer),
              durationMs: monotonicMs() - started,
              timedOut: result.kind === 'timed_out',
              httpStatus: result.kind === 'response' ? result.status : null,
            }),
            { answer, timeoutS: timeoutMs / 1000 },
            observation,
          );
        }
        const exec = await req.executor({
          ...commandLine(sel, req.loc.workspace),
          // `fire --verbose` names the output it shows by the hook's §2.2 name.
          ...(sel.decl.name !== null ? { label: sel.decl.name } : {}),
          cwd,
          env: observation === undefined ? env : { ...env, ...observation.env },
          stdin,
          timeoutMs,
          stdoutLimitBytes: CLAUDE_STDOUT_LIMIT,
          stderrLimitBytes: CLAUDE_STDERR_LIMIT,
          captureStderr: true,
        });
        const answer = readAnswer(event, execRun(exec, timeoutMs, sel), answerOpts);
        return record(
          sel,
          buildClaudeRecord(recordCtx, sel.decl, { ...answerFacts(answer), durationMs: exec.durationMs, exec }),
          {
            answer,
            timeoutS: timeoutMs / 1000,
            ...(envFile ? { envFile } : {}),
          },
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

function answerFacts(answer: HookAnswer) {
  return {
    outcome: answer.outcome,
    decision: answer.decision,
    reason: answer.reason,
    blocking: answer.blocking,
    output: answer.output,
    ...(answer.error !== undefined ? { error: answer.error } : {}),
  };
}

async function assemble(
  req: DispatchRequest,
  event: ClaudeEventData,
  payload: Record<string, unknown>,
  warnings: string[],
  finished: Finished[],
): Promise<ClaudeDispatchResult> {
  const answered = finished.filter((f): f is Finished & { answer: HookAnswer } => f.answer !== undefined);
  const combined = combineAnswers(
    event,
    answered.map((f) => ({ name: f.sel.decl.name ?? '', async: f.sel.info.async, answer: f.answer })),
    payload,
  );
  for (const f of answered) warnings.push(...f.answer.warnings);
  warnings.push(...combined.warnings);

  const notifications: ClaudeNotification[] = [];
  const notify = (
    hook: string,
    kind: ClaudeNotification['event']['kind'],
    message: string,
    decision: string | null,
  ) => {
    const n: ClaudeNotification = {
      type: 'stream_event',
      event: { subtype: 'hook_notification', hook_name: hook, kind, message, decision },
    };
    notifications.push(n);
    req.onNotification?.(n);
  };
  for (const f of answered) {
    const name = f.sel.decl.name ?? '';
    if (f.answer.systemMessage !== null) notify(name, 'system_message', f.answer.systemMessage, f.answer.decision);
    if (f.answer.notice !== undefined) notify(name, 'hook_error', f.answer.notice, null);
    if (event.name === 'UserPromptSubmit' && f.record.timed_out === true && f.timeoutS !== undefined) {
      notify(name, 'timeout', `${name} timed out after ${secondsText(f.timeoutS)}`, null);
    }
  }

  const envFiles = finished.flatMap((f) =>
    f.envFile === undefined ? [] : [{ hook: f.sel.decl.name ?? '', file: f.envFile }],
  );
  const { entries: envExports, warnings: envWarnings } = await collectEnvExports(envFiles, 'CLAUDE_ENV_FILE');
  warnings.push(...envWarnings);

  const unevaluated = finished
    .filter((f) => !f.sel.info.runnable)
    .map((f) => ({ hook: f.sel.decl.name ?? '', handler_type: f.sel.info.handler_type, why: f.why ?? '' }));
  if (unevaluated.length > 0) {
    warnings.push(
      `${unevaluated.length} hook${unevaluated.length === 1 ? '' : 's'} could not run outside Claude Code; the verdict does not include them`,
    );
  }

  // Mods (claude.md §1.1) hookctl does not run, that may intercept this event: said on stderr.
  const mods = (claudeContext(req).mods ?? []).filter((m) => m.events.includes(event.name));
  for (const m of mods) warnings.push(modNote(m, [event.name])!);

  return {
    event: event.name,
    dialect: 'claude',
    session_id: req.sessionId,
    dispatch_id: req.dispatchId,
    verdict: combined.verdict,
    reason: combined.reason,
    stop_reason: combined.stop_reason,
    system_message: combined.system_message,
    additional_context: combined.additional_context,
    next_turn_context: combined.next_turn_context,
    outputs: combined.outputs,
    env_exports: envExports,
    payload: combined.payload,
    runs: finished.map((f) => f.record),
    notifications,
    unevaluated,
    error: null,
    mods,
    warnings,
  };
}

/** Shell form is `/bin/sh -c <command>`; with `args`, `command` is the executable (§5.2). */
function commandLine(sel: HandlerSelection, workspace: string): { command: string; args: string[] } {
  const handler = sel.info.handler;
  const plugin = sel.info.plugin;
  const command = substitutePlaceholders(String(handler.command ?? ''), workspace, plugin);
  if (Array.isArray(handler.args)) {
    return { command, args: handler.args.map((a) => substitutePlaceholders(String(a), workspace, plugin)) };
  }
  return { command: '/bin/sh', args: ['-c', command] };
}

function execRun(exec: ExecResult, timeoutMs: number, sel: HandlerSelection): HandlerRun {
  if (exec.startError) {
    // SPEC §3.4's wording, as for the other dialects.
    const name = JSON.stringify(sel.decl.name ?? '');
    const what =
      exec.startError.kind === 'resolve'
        ? `resolve executable ${JSON.stringify(String(sel.info.handler.command))}: `
        : '';
    return { kind: 'failed', message: `hooks: hook ${name}: ${what}${exec.startError.message}` };
  }
  if (exec.timedOut) return { kind: 'timed_out', timeoutS: timeoutMs / 1000 };
  const failure = formatExecFailure(exec, timeoutMs);
  return {
    kind: 'exited',
    code: exec.exitCode,
    stdout: exec.stdout,
    stderr: exec.stderr ?? '',
    ...(failure ? { failure } : {}),
  };
}

async function runHttp(
  sel: HandlerSelection,
  env: Record<string, string>,
  payload: Record<string, unknown>,
  timeoutMs: number,
  ctx: Context,
) {
  const handler = sel.info.handler;
  const allowed = allowedHeaderVars(handler.allowedEnvVars, ctx.httpHookAllowedEnvVars);
  const headers: Record<string, string> = {};
  const declared = handler.headers;
  if (typeof declared === 'object' && declared !== null) {
    for (const [k, v] of Object.entries(declared as Record<string, unknown>)) {
      if (typeof v === 'string') headers[k] = expandHeaderValue(v, env, allowed);
    }
  }
  return postJson({ url: String(handler.url ?? ''), headers, body: JSON.stringify(payload), timeoutMs });
}

/** Names of `once` hooks that already ran (not skipped) in this session (§5.9). */
async function onceRuns(req: DispatchRequest, selected: HandlerSelection[]): Promise<Set<string>> {
  const once = selected.filter(
    (s) =>
      s.info.once &&
      ((s.decl.source as string) === 'claude_skill' || (s.decl.source as string) === 'claude_command') &&
      s.decl.name !== null,
  );
  if (once.length === 0) return new Set();
  const file = join(claudeSessionsDir(req), req.sessionId, 'hook-runs.jsonl');
  const names = new Set(once.map((s) => s.decl.name!));
  const { records } = await readAllRecords(file);
  return new Set(records.filter((r) => names.has(r.hook_name) && r.outcome !== 'skipped').map((r) => r.hook_name));
}

export function claudeExitCode(result: DispatchResult): number {
  return verdictExitCode(result.verdict);
}
