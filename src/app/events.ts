// The `hooks events` use case (SPEC §6): one row per event of every dialect, in registry order,
// and the detail or JSON Schemas of one event. The list needs only each dialect's light catalog;
// payload and patch types load only for the detail.
import { dialects, selectDialects } from '../dialects/registry.js';
import type { CatalogVersionChanges, EventDetail, EventRow } from '../dialects/types.js';
import type { EventSchemas, JsonSchema } from '../events/schema.js';

export type { EventDetail, EventRow } from '../dialects/types.js';

export interface EventRowFilter {
  dialect?: string;
  /** Exact family name (every cosh event is family `cosh`). */
  family?: string;
  syncOnly?: boolean;
}

/** Each dialect's rows in its catalog order, dialects in registry order. */
export function eventRows(opts: EventRowFilter = {}): EventRow[] {
  return selectDialects(opts.dialect)
    .flatMap((d) => d.eventRows())
    .filter((r) => (opts.family === undefined || r.family === opts.family) && (!opts.syncOnly || r.sync_eligible));
}

/** `hooks events` footer: which catalog version each dialect with versions uses now. */
export function catalogVersions(opts: { dialect?: string } = {}): string[] {
  return selectDialects(opts.dialect).flatMap((d) => (d.catalogVersion ? [d.catalogVersion()] : []));
}

/** `hooks events --changes` (SPEC §10): each versioned dialect's catalog versions and their changes. */
export async function catalogChanges(opts: { dialect?: string } = {}): Promise<CatalogVersionChanges[]> {
  const lists = await Promise.all(selectDialects(opts.dialect).map((d) => d.catalogChanges?.() ?? []));
  return lists.flat();
}

/**
 * Detail of one event in every dialect that has it (`--dialect`: that one), in registry order:
 * cosh and claude share event names, and `hooks events PreToolUse` shows both (claude.md §7).
 */
export async function eventDetails(name: string, dialect?: string): Promise<EventDetail[]> {
  const found = await Promise.all(
    selectDialects(dialect)
      .filter((d) => d.hasEvent(name))
      .map((d) => d.eventDetail(name)),
  );
  return found.filter((d): d is EventDetail => d !== undefined);
}

/** `hooks events EVENT --schema`: the schemas of the first dialect (registry order, or `--dialect`) that has it. */
export async function eventSchemas(name: string, dialect?: string): Promise<EventSchemas | undefined> {
  const first = selectDialects(dialect).find((d) => d.hasEvent(name));
  return first?.eventSchemas(name);
}

/**
 * What `--schema` prints: the dialect's one schema document when it has one (claude), else
 * `{payload, patch}`.
 */
export async function eventSchemaDocument(name: string, dialect?: string): Promise<JsonSchema | undefined> {
  const schemas = await eventSchemas(name, dialect);
  if (schemas === undefined) return undefined;
  return schemas.document ?? { payload: schemas.payload, patch: schemas.patch };
}

/** Detail of one event: the first dialect in registry order that has it; undefined when none does. */
export async function eventDetail(name: string): Promise<EventDetail | undefined> {
  const dialect = dialects().find((d) => d.hasEvent(name));
  return dialect?.eventDetail(name);
}
