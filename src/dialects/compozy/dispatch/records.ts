// Building run records (SPEC §5) from a declaration and what happened to it. Keys are written in
// the order §5 lists them; process facts appear only where a process ran.
import type { OrderedDeclaration } from '../../../declarations/model.js';
import type { ExecResult } from '../../../exec/types.js';
import { newRunId, nowRfc3339Millis } from '../../../ledger/ids.js';
import type { Outcome, RunRecord } from '../../../ledger/record.js';
import { oneLine, processFields } from '../../../ledger/record-fields.js';

export { oneLine, processFields };

/** What every record of one dispatch shares. */
export interface RecordContext {
  dispatchId: string;
  sessionId: string;
  event: string;
  depth: number;
}

export interface RunFacts {
  outcome: Outcome;
  durationMs: number;
  /** The process result, when a process ran (not for start failures, skips and drops). */
  exec?: ExecResult;
  /** The raw patch; written only when given. */
  patch?: unknown;
  error?: string;
  /** cosh only. */
  decision?: string | null;
  reason?: string | null;
}

/** The compozy families whose records carry `patch_applied`. */
const PATCH_RECORDING_FAMILIES: ReadonlySet<string> = new Set(['permission', 'prompt', 'tool', 'input']);

export function recordsPatch(family: string): boolean {
  return PATCH_RECORDING_FAMILIES.has(family);
}

export function buildRunRecord(ctx: RecordContext, decl: OrderedDeclaration, facts: RunFacts): RunRecord {
  const record: RunRecord = {
    run_id: newRunId(),
    dispatch_id: ctx.dispatchId,
    session_id: ctx.sessionId,
    dialect: decl.dialect,
    event: ctx.event,
    hook_name: decl.name ?? '',
    source: decl.source,
    ...(decl.skill_source !== undefined ? { skill_source: decl.skill_source } : {}),
    mode: decl.mode,
    priority: decl.priority,
    required: decl.required,
    outcome: facts.outcome,
    ...(facts.decision !== undefined ? { decision: facts.decision } : {}),
    ...(facts.reason !== undefined ? { reason: facts.reason } : {}),
    duration_ms: Math.max(0, Math.round(facts.durationMs)),
    dispatch_depth: ctx.depth,
    recorded_at: '',
  };
  if (facts.exec) Object.assign(record, processFields(facts.exec));
  if (facts.patch !== undefined) record.patch_applied = facts.patch;
  if (facts.error !== undefined && facts.error.trim() !== '') record.error = oneLine(facts.error);
  // Last, so that it follows every other key when serialised (SPEC §5 order).
  delete (record as Partial<RunRecord>).recorded_at;
  record.recorded_at = nowRfc3339Millis();
  return record;
}
