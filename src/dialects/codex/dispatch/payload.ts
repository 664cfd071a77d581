// The payload a codex fire hands its hooks (codex.md §5.1): what is absent is filled, the rest is
// the caller's. `model` and the event's own fields are never invented [ours].
import type { CodexEventData } from '../catalog-types.js';

export interface CodexFill {
  event: CodexEventData;
  sessionId: string;
  workspace: string;
}

/**
 * `session_id`, `turn_id` (a new UUID v4 where the event lists it), `transcript_path` null, `cwd`
 * the workspace, `permission_mode` "default" where listed; `hook_event_name` always the fired
 * event (a different value is replaced, with a warning). Filled fields come first, in Codex's order.
 */
export function fillCodexPayload(
  payload: Record<string, unknown>,
  fill: CodexFill,
  warnings: string[],
): Record<string, unknown> {
  const { event } = fill;
  const given = payload.hook_event_name;
  if (given !== undefined && given !== event.name) {
    warnings.push(`payload hook_event_name ${JSON.stringify(given)} replaced with "${event.name}"`);
  }
  const lists = (f: string) => event.payload_fields.includes(f);
  const filled: Record<string, unknown> = { session_id: fill.sessionId };
  if (lists('turn_id')) filled.turn_id = payload.turn_id ?? globalThis.crypto.randomUUID();
  filled.transcript_path = payload.transcript_path ?? null;
  filled.cwd = payload.cwd ?? fill.workspace;
  filled.hook_event_name = event.name;
  if (lists('permission_mode')) filled.permission_mode = payload.permission_mode ?? 'default';
  for (const [key, value] of Object.entries(payload)) if (!(key in filled)) filled[key] = value;
  return filled;
}
