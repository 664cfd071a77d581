// Run records of the codex dialect (codex.md §6): SPEC §5's fields through the shared
// makeRunRecord (patch_applied null: codex hooks answer no patch), then codex's own. Stderr is
// never recorded except as the reason after exit 2.
import type { OrderedDeclaration } from '../../../declarations/model.js';
import type { ExecResult } from '../../../exec/types.js';
import { hookRunFields, makeRunRecord, type RunRecordContext, processFields } from '../../../ledger/record-fields.js';
import type { Outcome, RunRecord } from '../../../ledger/record.js';
import type { CodexHandlerInfo } from '../model.js';
import type { CodexAnswer } from './answer.js';

export type CodexRecordContext = RunRecordContext;

export interface CodexRunFacts {
  outcome: Outcome;
  decision: string | null;
  codexStatus: string | null;
  reason: string | null;
  durationMs: number;
  output: string | null;
  exec?: ExecResult;
  error?: string;
  why?: string;
}

export function answerFacts(answer: CodexAnswer, durationMs: number, exec?: ExecResult): CodexRunFacts {
  return {
    outcome: answer.outcome,
    decision: answer.decision,
    codexStatus: answer.codexStatus,
    reason: answer.reason,
    durationMs,
    output: answer.output,
    ...(exec !== undefined ? { exec } : {}),
    ...(answer.error !== undefined ? { error: answer.error } : {}),
  };
}

export function skippedFacts(why: string): CodexRunFacts {
  return { outcome: 'skipped', decision: null, codexStatus: null, reason: null, durationMs: 0, output: null, why };
}

export function buildCodexRecord(ctx: CodexRecordContext, decl: OrderedDeclaration, facts: CodexRunFacts): RunRecord {
  const info = decl.extra as unknown as CodexHandlerInfo;
  const ran = facts.exec !== undefined && !facts.exec.startError;
  return makeRunRecord(
    {
      ...hookRunFields(ctx, decl, facts),
      dialect: 'codex',
      skill_source: null,
      mode: info.async ? 'async' : 'sync',
      priority: null,
      required: false,
      ...processFields(ran ? facts.exec : undefined),
      patch_applied: null,
    },
    {
      codex_status: facts.codexStatus,
      trust: info.trust,
      hook_hash: info.current_hash,
      key: info.key,
      handler_type: info.handler_type,
      why: facts.why ?? null,
      output: facts.output,
    },
  );
}
