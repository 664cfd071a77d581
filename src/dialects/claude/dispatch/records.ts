// Run records of the claude dialect (claude.md §6): SPEC §5's fields (patch_applied always null:
// claude hooks answer no patch), plus handler_type, blocking, output, http_status and why, in
// one stable key order (ledger/record-fields.ts).
import type { OrderedDeclaration } from '../../../declarations/model.js';
import type { ExecResult } from '../../../exec/types.js';
import { hookRunFields, makeRunRecord, type RunRecordContext, processFields } from '../../../ledger/record-fields.js';
import type { Outcome, RunRecord } from '../../../ledger/record.js';
import type { OutputKind } from './answer.js';
import type { ClaudeHandlerInfo } from '../model.js';

export type ClaudeRecordContext = RunRecordContext;

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

/** `skill/<scope>/<skill>` (and `command/…`): project and user ones by scope, plugin ones as `plugin`. */
export function skillSourceOf(info: ClaudeHandlerInfo): 'project' | 'user' | 'plugin' | undefined {
  const m = /^(?:skill|command)\/([^/]+)\//.exec(info.origin);
  if (m === null) return undefined;
  return m[1] === 'project' || m[1] === 'user' ? m[1] : 'plugin';
}

export function buildClaudeRecord(
  ctx: ClaudeRecordContext,
  decl: OrderedDeclaration,
  facts: ClaudeRunFacts,
): RunRecord {
  const info = decl.extra as unknown as ClaudeHandlerInfo;
  const ran = facts.exec !== undefined && !facts.exec.startError;
  const processFacts = processFields(ran ? facts.exec : undefined);
  if (!ran && facts.timedOut !== undefined) processFacts.timed_out = facts.timedOut;
  return makeRunRecord(
    {
      ...hookRunFields(ctx, decl, facts),
      dialect: 'claude',
      skill_source: skillSourceOf(info) ?? null,
      mode: info.async ? 'async' : 'sync',
      priority: null,
      required: false,
      ...processFacts,
      patch_applied: null,
    },
    {
      handler_type: info.handler_type,
      blocking: facts.blocking,
      output: facts.output,
      http_status: facts.httpStatus ?? null,
      why: facts.why ?? null,
    },
  );
}
