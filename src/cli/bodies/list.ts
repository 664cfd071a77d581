// `hooks list`'s work once its flags are parsed, shared by the oclif command and the fast path.
import type { Interfaces } from '@oclif/core';
import type HooksList from '../../commands/hooks/list.js';
import { loadCatalog, sourceKinds } from '../../app/catalog.js';
import { eventPatternWarning } from '../../app/event-names.js';
import { filterDeclarations, inactiveCounts } from '../../app/list.js';
import { inactiveNote, renderList, toListEntry } from '../../views/list.js';
import { skippedDeclarationWarnings } from '../../views/location.js';
import type { BaseFlagValues, CommandIO } from '../command-io.js';

export type ListFlags = BaseFlagValues & Interfaces.InferredFlags<(typeof HooksList)['flags']>;

export async function runList(io: CommandIO, flags: ListFlags): Promise<void> {
  const unmatched = eventPatternWarning(flags.event);
  if (unmatched) io.printWarning(unmatched);
  const catalog = await loadCatalog(io.locations(flags), { dialect: flags.dialect });
  io.sourcesRead?.(sourceKinds(catalog.declarations));
  for (const line of skippedDeclarationWarnings(catalog.diagnostics, 10, flags.all)) io.printWarning(line);
  for (const note of catalog.notes) io.printNote(note);
  const decls = filterDeclarations(catalog.declarations, flags);
  for (const note of catalog.eventNotes([...new Set(decls.map((d) => d.event))])) io.printNote(note);
  const format = io.outputFormat(flags);
  // Entries are made one at a time as they are printed: 10,000 of them need not all be held.
  if (format === 'json') return io.printJsonArray(decls, (d) => toListEntry(d, flags.all));
  if (format === 'jsonl') return io.printJsonl(mapped(decls, (d) => toListEntry(d, flags.all)));
  io.print(renderList(decls, flags.all, io.colour(flags), flags.dialect));
  const hidden = inactiveNote(inactiveCounts(catalog.declarations, flags));
  if (hidden) io.printNote(hidden);
}

function* mapped<T, U>(items: readonly T[], f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}
