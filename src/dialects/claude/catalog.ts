// Look-ups over the generated Claude Code catalog (claude.md §3). Light: list and validate load it.
import type { ClaudeEventData } from './catalog-types.js';
import { claudeCatalogEvents, claudeCatalogMeta } from './catalog.generated.js';
import type { ClaudeHandlerType } from './model.js';
import { eventInRelease, inRelease, selectedClaudeRelease } from './releases.js';

// The generated tables are functions that build them on first call; so are the maps over them
// here: a run that reads no Claude Code hook builds none of it (docs/PERFORMANCE.md).
export { claudeCatalogEvents, claudeCatalogMeta };

let names: { byName: Map<string, ClaudeEventData>; byLowerName: Map<string, string> } | undefined;

/** Every event of the catalog by name, and each name by its lower case (all releases). */
function catalogNames() {
  return (names ??= {
    byName: new Map(claudeCatalogEvents().map((e) => [e.name, e])),
    byLowerName: new Map(claudeCatalogEvents().map((e) => [e.name.toLowerCase(), e.name])),
  });
}

/** The events of each release looked at (one per process in practice; tests switch). */
const byRelease = new Map<string, { list: readonly ClaudeEventData[]; byName: Map<string, ClaudeEventData> }>();

function releaseCatalog() {
  const r = selectedClaudeRelease();
  let c = byRelease.get(r.entry);
  if (c === undefined) {
    const list = claudeCatalogEvents().flatMap((e) => eventInRelease(e, r) ?? []);
    byRelease.set(r.entry, (c = { list, byName: new Map(list.map((e) => [e.name, e])) }));
  }
  return c;
}

/** The events of the selected release (claude.md §9), in catalog order. */
export function claudeEvents(): readonly ClaudeEventData[] {
  return releaseCatalog().list;
}

/** The catalog entry of an event in the selected release; names are case-sensitive. */
export function claudeEvent(name: string): ClaudeEventData | undefined {
  return releaseCatalog().byName.get(name);
}

/** The release that added an event the selected release does not have yet, else undefined. */
export function claudeEventAddedLater(name: string): string | undefined {
  const e = catalogNames().byName.get(name);
  if (e === undefined || claudeEvent(name) !== undefined || e.since === null) return undefined;
  return inRelease(e.since) ? undefined : e.since;
}

/** The catalog name that differs from `name` only in case, for `did you mean`. */
export function claudeEventCaseHint(name: string): string | undefined {
  const hit = catalogNames().byLowerName.get(name.toLowerCase());
  return hit !== undefined && hit !== name && claudeEvent(hit) !== undefined ? hit : undefined;
}

export function isIfEvent(event: string): boolean {
  return claudeCatalogMeta().if_events.includes(event);
}

/**
 * A handler's default timeout in seconds when it sets none (claude.md §2.1): the event's
 * `default_timeout_s` for command/http/mcp_tool where it has one, else the type's default.
 */
export function defaultTimeoutS(event: ClaudeEventData | undefined, type: ClaudeHandlerType): number {
  const own = event?.default_timeout_s;
  if (own !== null && own !== undefined && (type === 'command' || type === 'http' || type === 'mcp_tool')) return own;
  return claudeCatalogMeta().handler_types[type].default_timeout_s;
}
