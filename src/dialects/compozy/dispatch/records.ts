// Building compozy run records (SPEC §5) from a declaration and what happened to it; the shape
// (every field, `null` where it has no value, in §5's order) is ledger/record-fields.ts's.
import type { OrderedDeclaration } from '../../../declarations/model.js';
import type { ExecResult } from '../../../exec/types.js';
import type { Outcome, RunRecord } from '../../../ledger/record.js';
import {
  hookRunFields,
  makeRunRecord,
  type RunRecordContext,
  oneLine,
  processFields,
} from '../../../ledger/record-fields.js';

export { oneLine, processFields };

/** What every record of one dispatch shares. */
export type RecordContext = RunRecordContext;

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
  return makeRunRecord({
    ...hookRunFields(ctx, decl, facts),
    dialect: decl.dialect,
    skill_source: decl.skill_source ?? null,
    mode: decl.mode,
    priority: decl.priority,
    required: decl.required,
    ...processFields(facts.exec),
    patch_applied: facts.patch === undefined ? null : facts.patch,
  });
}
