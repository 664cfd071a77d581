// Lookups over the generated Codex catalog (codex.md §3). Light: list, events and fire load it.
import { codexCatalogEvents, codexCatalogMeta } from './catalog.generated.js';
import type { CodexEventData, CodexEventName } from './catalog-types.js';

// The generated tables are functions that build them on first call; so are the look-ups over
// them here: a run that reads no Codex hook builds none of it (docs/PERFORMANCE.md).
export { codexCatalogEvents, codexCatalogMeta };

let byName: Map<string, CodexEventData> | undefined;

/** The catalog entry of an event; undefined for a name Codex does not have (case-sensitive). */
export function codexEvent(name: string): CodexEventData | undefined {
  return (byName ??= new Map(codexCatalogEvents().map((e) => [e.name, e]))).get(name);
}

let eventNames: readonly CodexEventName[] | undefined;

/** Every event name, in catalog order (the order of events within a file's dispatch, §1). */
export function codexEventNames(): readonly CodexEventName[] {
  return (eventNames ??= codexCatalogEvents().map((e) => e.name as CodexEventName));
}
