// The payload a claude fire hands to its hooks (claude.md §5.1): the session id, and the common
// fields Claude Code always sends, filled where absent.
import { join } from 'node:path';
import type { ClaudeEventData } from '../catalog-types.js';

/** `<state>/claude/sessions/<id>/transcript.jsonl`: named, never created. */
export function transcriptPath(sessionsDir: string, sessionId: string): string {
  return join(sessionsDir, sessionId, 'transcript.jsonl');
}

export interface FillContext {
  event: ClaudeEventData;
  sessionId: string;
  workspace: string;
  sessionsDir: string;
}

/**
 * The common fields first, in Claude Code's order, then the caller's own. `hook_event_name` is
 * always the fired event (a different value is replaced, with a warning).
 */
export function fillClaudePayload(
  payload: Record<string, unknown>,
  ctx: FillContext,
  warnings: string[],
): Record<string, unknown> {
  const given = payload.hook_event_name;
  if (given !== undefined && given !== ctx.event.name) {
    warnings.push(`payload hook_event_name ${JSON.stringify(given)} replaced with "${ctx.event.name}"`);
  }
  const filled: Record<string, unknown> = {
    session_id: ctx.sessionId,
    transcript_path: payload.transcript_path ?? transcriptPath(ctx.sessionsDir, ctx.sessionId),
    cwd: payload.cwd ?? ctx.workspace,
  };
  if (ctx.event.payload_fields.includes('permission_mode'))
    filled.permission_mode = payload.permission_mode ?? 'default';
  filled.hook_event_name = ctx.event.name;
  for (const [key, value] of Object.entries(payload)) if (!(key in filled)) filled[key] = value;
  return filled;
}
