// Run records of the claude dialect (claude.md §6): SPEC §5's fields without patch_applied, plus
// handler_type, blocking, output, http_status and why, in one stable key order.
import type { OrderedDeclaration } from '../../declarations/model.js';
import type { ExecResult } from '../../exec/types.js';
import { oneLine, processFields } from '../../ledger/record-fields.js';
import { newId, nowRfc3339Millis } from '../../ledger/ids.js';
import type { Outcome, RunRecord } from '../../ledger/record.js';
import type { OutputKind } from './answer.js';
import type { ClaudeHandlerInfo } from './model.js';

export interface ClaudeRecordContext {
  dispatchId: string;
  sessionId: string;
  event: string;
  depth: number;
}

export interface ClaudeRunFacts {
  outcome: Outcome;
  decision: string | null;
  reason: string | null;
  durationMs: number;
  blocking: boolean;
  output: OutputKind | null;
  /** Command hooks whose process ran. */
  exec?: ExecResult;
  /** http hooks (and command hooks, from exec) that can time out. */
  timedOut?: boolean;
  httpStatus?: number | null;
  error?: string;
  why?: string;
}

/** `skill/<scope>/<skill>`: project and user skills by scope, plugin skills as `plugin`. */
export function skillSourceOf(info: ClaudeHandlerInfo): 'project' | 'user' | 'plugin' | undefined {
  const m = /^skill\/([^/]+)\//.exec(info.origin);
  if (m === null) return undefined;
  return m[1] === 'project' || m[1] === 'user' ? m[1] : 'plugin';
}

export function buildClaudeRecord(
  ctx: ClaudeRecordContext,
  decl: OrderedDeclaration,
  facts: ClaudeRunFacts,
): RunRecord {
  const info = decl.extra as unknown as ClaudeHandlerInfo;
  const skillSource = skillSourceOf(info);
  const record: Record<string, unknown> = {
    run_id: newId(),
    dispatch_id: ctx.dispatchId,
    session_id: ctx.sessionId,
    dialect: 'claude',
    event: ctx.event,
    hook_name: decl.name ?? '',
    source: decl.source,
    ...(skillSource !== undefined ? { skill_source: skillSource } : {}),
    mode: info.async ? 'async' : 'sync',
    priority: null,
    required: false,
    outcome: facts.outcome,
    decision: facts.decision,
    reason: facts.reason,
    duration_ms: Math.max(0, Math.round(facts.durationMs)),
    dispatch_depth: ctx.depth,
  };
  if (facts.exec && !facts.exec.startError) Object.assign(record, processFields(facts.exec));
  else if (facts.timedOut !== undefined) record.timed_out = facts.timedOut;
  if (facts.error !== undefined && facts.error.trim() !== '') record.error = oneLine(facts.error);
  record.handler_type = info.handler_type;
  record.blocking = facts.blocking;
  record.output = facts.output;
  record.http_status = facts.httpStatus ?? null;
  record.why = facts.why ?? null;
  record.recorded_at = nowRfc3339Millis();
  // The shared record type still names the first two dialects only; the fields are SPEC §5's.
  return record as unknown as RunRecord;
}
