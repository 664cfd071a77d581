// Combining the answers of one codex fire (codex.md §5.7), in declaration order, after the last
// sync hook has finished. Async answers never change the verdict: their context and messages go to
// next_turn_context (§5.8). Pure.
import type { CodexEventData } from '../catalog-types.js';
import type { CodexAnswer } from './answer.js';

export interface AnsweredHook {
  name: string;
  async: boolean;
  answer: CodexAnswer;
  /** additionalContextLimit as written; null: Codex's default, 2500. */
  contextLimit: number | null;
  /** 0-based position in the order the hooks finished (for the updatedInput warning). */
  finishedAt: number;
}

export interface CodexCombined {
  verdict: 'pass' | 'allow' | 'deny' | 'block' | 'stop';
  reason: string | null;
  stop_reason: string | null;
  system_message: string | null;
  additional_context: string | null;
  feedback: string | null;
  next_turn_context: string | null;
  payload: Record<string, unknown>;
  warnings: string[];
}

export const DEFAULT_CONTEXT_LIMIT = 2500;

const joined = (parts: readonly string[], sep: string): string | null => (parts.length === 0 ? null : parts.join(sep));

/** §5.7 (8): 0 for pass and allow, 1 for deny, block and stop. */
export function codexVerdictExitCode(verdict: string): number {
  return verdict === 'deny' || verdict === 'block' || verdict === 'stop' ? 1 : 0;
}

export function combineCodexAnswers(
  event: CodexEventData,
  hooks: readonly AnsweredHook[],
  payload: Record<string, unknown>,
): CodexCombined {
  const warnings: string[] = [];
  const sync = hooks.filter((h) => !h.async);
  const first = (d: string) => sync.find((h) => h.answer.decision === d);
  const any = (d: string) => first(d) !== undefined;
  let verdict: CodexCombined['verdict'] = 'pass';
  let reason: string | null = null;

  switch (event.name) {
    case 'PreToolUse': {
      const blocking = sync.find((h) => h.answer.decision === 'deny' || h.answer.decision === 'block');
      if (blocking !== undefined) {
        verdict = 'deny';
        reason = blocking.answer.reason;
      }
      break;
    }
    case 'PermissionRequest':
      if (any('deny')) {
        verdict = 'deny';
        reason = first('deny')!.answer.reason;
      } else if (any('allow')) verdict = 'allow';
      break;
    case 'PostToolUse':
    case 'UserPromptSubmit':
      if (any('stop')) {
        verdict = 'stop';
        reason = first('stop')!.answer.reason;
      } else if (any('block')) {
        verdict = 'block';
        reason = first('block')!.answer.reason;
      }
      break;
    case 'Stop':
    case 'SubagentStop':
      if (any('stop')) {
        verdict = 'stop';
        reason = first('stop')!.answer.reason;
      } else if (any('block')) {
        verdict = 'block';
        // The continuation prompt Codex would feed back.
        reason = joined(
          sync.filter((h) => h.answer.decision === 'block' && h.answer.reason !== null).map((h) => h.answer.reason!),
          '\n\n',
        );
      }
      break;
    case 'SessionStart':
    case 'PreCompact':
    case 'PostCompact':
      if (any('stop')) {
        verdict = 'stop';
        reason = first('stop')!.answer.reason;
      }
      break;
    default:
      break; // SubagentStart, SessionEnd, Interrupt: always pass
  }

  const stopper = sync.find((h) => h.answer.decision === 'stop' && h.answer.stopReason !== null);
  const stopReason = verdict === 'stop' ? (stopper?.answer.stopReason ?? null) : null;

  let finalPayload = payload;
  if (event.name === 'PreToolUse') {
    const rewrites = sync.filter((h) => h.answer.updatedInput !== undefined);
    const chosen = rewrites.at(-1);
    if (rewrites.length > 1) {
      const last = [...rewrites].sort((a, b) => a.finishedAt - b.finishedAt).at(-1)!;
      warnings.push(
        `updatedInput from ${rewrites.length} hooks (${rewrites.map((h) => h.name).join(', ')}); hookctl used the last in declaration order (${chosen!.name}); Codex uses whichever finishes last (this time: ${last.name})`,
      );
    }
    // No updatedInput applies when the verdict is deny.
    if (chosen !== undefined && verdict !== 'deny')
      finalPayload = { ...payload, tool_input: chosen.answer.updatedInput };
  }

  const contexts: string[] = [];
  const nextTurn: string[] = [];
  const messages: string[] = [];
  for (const h of hooks) {
    const ctx = h.answer.context;
    if (ctx !== null && ctx !== '') {
      (h.async ? nextTurn : contexts).push(ctx);
      const limit = h.contextLimit ?? DEFAULT_CONTEXT_LIMIT;
      const tokens = Math.ceil(ctx.length / 4);
      if (event.context_limit && limit > 0 && tokens > limit) {
        warnings.push(
          `additionalContext from ${h.name} is about ${tokens} tokens; Codex replaces contexts over ${limit} tokens with a preview and a file path`,
        );
      }
    }
    const msg = h.answer.systemMessage;
    if (msg !== null) (h.async ? nextTurn : messages).push(msg);
  }

  const feedback =
    event.name === 'PostToolUse'
      ? joined(
          sync.filter((h) => h.answer.feedback !== null).map((h) => h.answer.feedback!),
          '\n\n',
        )
      : null;

  return {
    verdict,
    reason,
    stop_reason: stopReason,
    system_message: joined(messages, '\n'),
    additional_context: joined(contexts, '\n\n'),
    feedback,
    next_turn_context: joined(nextTurn, '\n\n'),
    payload: finalPayload,
    warnings,
  };
}
