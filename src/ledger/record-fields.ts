// Building run records (SPEC §5), the one place every dialect's records take their shape: each
// dialect gives every §5 field (`RunRecordFields`, `null` where there is no value) and this
// writes them in §5's order, its own extra fields after them, `recorded_at` last.
import { stdoutJsonError, stdoutJsonErrorText } from '../exec/stdout-json.js';
import type { ExecResult } from '../exec/types.js';
import { newRunId, nowRfc3339Millis } from './ids.js';
import { RUN_RECORD_FIELDS, type RunRecord, type RunRecordFields } from './record.js';

/** Errors are one trimmed line: inner line breaks become single spaces. */
export function oneLine(text: string): string {
  return text.trim().replace(/\s*[\r\n]+\s*/g, ' ');
}

/** The `error` field: one line, or null when there is none (or only white space). */
export function errorField(text: string | null | undefined): string | null {
  return text === undefined || text === null || text.trim() === '' ? null : oneLine(text);
}

type ProcessFields = Pick<
  RunRecordFields,
  'exit_code' | 'signal' | 'timed_out' | 'stdout_bytes' | 'stderr_bytes' | 'truncated'
> & {
  /**
   * Present when stdout starts with `{` but is not valid JSON (issue 28): where and why, never
   * the text. makeRunRecord writes it after the §5 fields.
   */
  stdout_json_error?: string;
};

/**
 * SPEC §5's process facts, in order; all null when no process started. Then `stdout_json_error`
 * when stdout starts with `{` but is not valid JSON.
 */
export function processFields(exec: ExecResult | undefined): ProcessFields {
  if (exec === undefined || exec.startError) {
    return {
      exit_code: null,
      signal: null,
      timed_out: null,
      stdout_bytes: null,
      stderr_bytes: null,
      truncated: null,
    };
  }
  const jsonError = stdoutJsonError(exec.stdout);
  return {
    exit_code: exec.exitCode,
    signal: exec.signal,
    timed_out: exec.timedOut,
    stdout_bytes: exec.stdoutBytes,
    stderr_bytes: exec.stderrBytes,
    truncated: exec.truncated,
    ...(jsonError ? { stdout_json_error: stdoutJsonErrorText(jsonError) } : {}),
  };
}

/** `declared_in`: the declaration's file; null when it has none. */
export function declaredIn(location: { file?: string } | undefined): string | null {
  return location?.file ? location.file : null;
}

/** Where a hook run was dispatched: what every dialect's record takes from its dispatch. */
export interface RunRecordContext {
  dispatchId: string;
  sessionId: string;
  event: string;
  depth: number;
  /** The workspace the dispatch was fired in (absolute). */
  workspace: string;
}

type CommonRunFields =
  | 'dispatch_id'
  | 'session_id'
  | 'event'
  | 'hook_name'
  | 'source'
  | 'outcome'
  | 'decision'
  | 'reason'
  | 'duration_ms'
  | 'dispatch_depth'
  | 'error'
  | 'workspace'
  | 'declared_in';

/**
 * The §5 fields a dialect fills the same way from the dispatch, the declaration and the run's
 * facts; the dialect adds its own (dialect, skill_source, mode, priority, required, the process
 * fields, patch_applied).
 */
export function hookRunFields(
  ctx: RunRecordContext,
  decl: { name: string | null; source: string; location?: { file?: string } },
  facts: {
    outcome: RunRecordFields['outcome'];
    decision?: string | null;
    reason?: string | null;
    durationMs: number;
    error?: string | null;
  },
): Pick<RunRecordFields, CommonRunFields> {
  return {
    dispatch_id: ctx.dispatchId,
    session_id: ctx.sessionId,
    event: ctx.event,
    hook_name: decl.name ?? '',
    source: decl.source,
    outcome: facts.outcome,
    decision: facts.decision ?? null,
    reason: facts.reason ?? null,
    duration_ms: Math.max(0, Math.round(facts.durationMs)),
    dispatch_depth: ctx.depth,
    error: errorField(facts.error),
    workspace: ctx.workspace,
    declared_in: declaredIn(decl.location),
  };
}

/**
 * A new record: a fresh `run_id`, the fields in SPEC §5 order, then the dialect's own `extra`
 * fields (claude: handler_type, blocking, …), then `recorded_at`, stamped now.
 */
export function makeRunRecord(
  fields: RunRecordFields & Pick<ProcessFields, 'stdout_json_error'>,
  extra: Record<string, unknown> = {},
): RunRecord {
  const given = fields as Record<string, unknown>;
  const record: Record<string, unknown> = {};
  for (const key of RUN_RECORD_FIELDS) {
    if (key === 'run_id') record.run_id = newRunId();
    else if (key !== 'recorded_at') record[key] = given[key] ?? null;
  }
  if (fields.stdout_json_error !== undefined) record.stdout_json_error = fields.stdout_json_error;
  for (const [key, value] of Object.entries(extra)) if (!(key in record)) record[key] = value;
  record.recorded_at = nowRfc3339Millis();
  return record as unknown as RunRecord;
}
