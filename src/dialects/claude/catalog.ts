// Look-ups over the generated Claude Code catalog (claude.md §3). Light: list and validate load it.
import type { ClaudeEventData } from './catalog-types.js';
import { CLAUDE_CATALOG, CLAUDE_EVENTS } from './catalog.generated.js';
import type { ClaudeHandlerType } from './model.js';

export { CLAUDE_CATALOG, CLAUDE_EVENTS };

const byName = new Map<string, ClaudeEventData>(CLAUDE_EVENTS.map((e) => [e.name, e]));
const byLowerName = new Map<string, string>(CLAUDE_EVENTS.map((e) => [e.name.toLowerCase(), e.name]));

/** The catalog entry of an event; names are case-sensitive. */
export function claudeEvent(name: string): ClaudeEventData | undefined {
  return byName.get(name);
}

/** The catalog name that differs from `name` only in case, for `did you mean`. */
export function claudeEventCaseHint(name: string): string | undefined {
  const hit = byLowerName.get(name.toLowerCase());
  return hit !== undefined && hit !== name ? hit : undefined;
}

export function isIfEvent(event: string): boolean {
  return CLAUDE_CATALOG.if_events.includes(event);
}

/**
 * A handler's default timeout in seconds when it sets none (claude.md §2.1): the event's
 * `default_timeout_s` for command/http/mcp_tool where it has one, else the type's default.
 */
export function defaultTimeoutS(event: ClaudeEventData | undefined, type: ClaudeHandlerType): number {
  const own = event?.default_timeout_s;
  if (own !== null && own !== undefined && (type === 'command' || type === 'http' || type === 'mcp_tool')) return own;
  return CLAUDE_CATALOG.handler_types[type].default_timeout_s;
}
