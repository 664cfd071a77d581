// `hooks events`'s work once its flags are parsed, shared by the oclif command and the fast path.
import type { Interfaces } from '@oclif/core';
import type HooksEvents from '../../commands/hooks/events.js';
import { unknownEventError } from '../../app/event-names.js';
import { catalogChanges, catalogVersions, eventDetails, eventRows, eventSchemaDocument } from '../../app/events.js';
import { HookctlError, ExitCode, eventNotInDialectError } from '../../errors.js';
import { renderCatalogChanges } from '../../views/catalog-changes.js';
import { renderEventDetail, renderEventRows } from '../../views/events.js';
import type { BaseFlagValues, CommandIO } from '../command-io.js';

export type EventsFlags = BaseFlagValues & Interfaces.InferredFlags<(typeof HooksEvents)['flags']>;
export type EventsArgs = { event?: string };

export async function runEvents(io: CommandIO, flags: EventsFlags, args: EventsArgs): Promise<void> {
  const format = io.outputFormat(flags);
  if (flags.changes) {
    if (args.event !== undefined) throw new HookctlError('usage_error', '--changes takes no EVENT', ExitCode.usage);
    const changes = await catalogChanges({ dialect: flags.dialect });
    if (format !== 'human') return format === 'json' ? io.printJson(changes) : io.printJsonl(changes);
    return io.print(renderCatalogChanges(changes, io.colour(flags)));
  }
  if (args.event === undefined) {
    if (flags.schema) throw new HookctlError('usage_error', '--schema needs an EVENT', ExitCode.usage);
    const rows = eventRows({ dialect: flags.dialect, family: flags.family, syncOnly: flags['sync-only'] });
    if (format === 'json') return io.printJson(rows);
    if (format === 'jsonl') return io.printJsonl(rows);
    return io.print(renderEventRows(rows, io.colour(flags), catalogVersions({ dialect: flags.dialect })));
  }
  const details = await eventDetails(args.event, flags.dialect);
  if (details.length === 0) {
    throw flags.dialect ? eventNotInDialectError(args.event, flags.dialect) : unknownEventError(args.event);
  }
  if (flags.schema) return io.printJson(await eventSchemaDocument(args.event, flags.dialect));
  // One dialect: its detail; an event several dialects share: one detail each.
  const json = details.length === 1 ? details[0] : details;
  if (format !== 'human') return format === 'json' ? io.printJson(json) : io.printJsonl(details);
  io.print(details.map((d) => renderEventDetail(d, io.colour(flags))).join('\n\n'));
}
