// Lookups over the generated Codex catalog (codex.md §3). Light: list, events and fire load it.
import { CODEX_CATALOG, CODEX_EVENTS } from './catalog.generated.js';
import type { CodexEventData, CodexEventName } from './catalog-types.js';

export { CODEX_CATALOG, CODEX_EVENTS };

const BY_NAME = new Map<string, CodexEventData>(CODEX_EVENTS.map((e) => [e.name, e]));

/** The catalog entry of an event; undefined for a name Codex does not have (case-sensitive). */
export function codexEvent(name: string): CodexEventData | undefined {
  return BY_NAME.get(name);
}

/** Every event name, in catalog order (the order of events within a file's dispatch, §1). */
export const CODEX_EVENT_NAMES: readonly CodexEventName[] = CODEX_EVENTS.map((e) => e.name as CodexEventName);
