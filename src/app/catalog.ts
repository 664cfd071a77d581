// The resolved catalog: every declaration source of the requested dialects, validated and in
// dispatch order. What list, info, validate and edit share. Each dialect's loaders are imported
// only when that dialect is asked for.
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { OrderedDeclaration } from '../declarations/model.js';
import { selectDialects } from '../dialects/registry.js';
import type { Locations } from '../paths.js';

export interface Catalog {
  /** All declarations (every status), each dialect in dispatch order, dialects in registry order. */
  declarations: OrderedDeclaration[];
  diagnostics: Diagnostic[];
  /** Files that were read. */
  files: string[];
  /** For stderr: what a dialect would not read from here that the user may expect it to (claude). */
  notes: string[];
  /** For stderr: what hookctl cannot see into for these events (claude: mods, claude.md §1.1). */
  eventNotes(events: readonly string[]): string[];
}

export interface CatalogOptions {
  /** Only this dialect's sources. */
  dialect?: string;
  env?: NodeJS.ProcessEnv;
}

export async function loadCatalog(loc: Locations, opts: CatalogOptions = {}): Promise<Catalog> {
  const env = opts.env ?? process.env;
  const selected = selectDialects(opts.dialect);
  const parts = await Promise.all(selected.map((d) => d.loadCatalog(loc, env)));
  return {
    declarations: parts.flatMap((p) => p.declarations),
    diagnostics: parts.flatMap((p) => p.diagnostics),
    files: parts.flatMap((p) => p.files),
    notes: selected.flatMap((d) => d.workspaceNotes?.(loc, env) ?? []),
    eventNotes: (events) => selected.flatMap((d, i) => d.eventNotes?.(parts[i]!.context, events).notes ?? []),
  };
}

/**
 * The kinds of declaration source among `declarations` (`dialect/source`, sorted): what a run
 * read, for the fast path's compile cache (a run that reads a kind the cache's entry never saw
 * compiles that reader's code; src/cli/compile-cache.ts, recordSourcesRead).
 */
export function sourceKinds(declarations: readonly OrderedDeclaration[]): string[] {
  return [...new Set(declarations.map((d) => `${d.dialect}/${d.source}`))].sort();
}
