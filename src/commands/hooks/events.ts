import { Args, Flags, HookctlCommand } from '../../cli/base-command.js';
import { unknownEventError } from '../../app/event-names.js';
import { catalogChanges, catalogVersions, eventDetails, eventRows, eventSchemaDocument } from '../../app/events.js';
import { dialectNames } from '../../dialects/registry.js';
import { HookctlError, ExitCode } from '../../errors.js';
import { renderCatalogChanges } from '../../views/catalog-changes.js';
import { renderEventDetail, renderEventRows } from '../../views/events.js';

export default class HooksEvents extends HookctlCommand {
  static override summary =
    'Show the event catalog of every dialect (compozy, cosh, claude), or one event with its payload and patch fields.';
  static override examples = [
    '<%= config.bin %> hooks events',
    '<%= config.bin %> hooks events --family tool --sync-only',
    '<%= config.bin %> hooks events tool.pre_call',
    '<%= config.bin %> hooks events PreToolUse --schema',
    '<%= config.bin %> hooks events --changes',
    '<%= config.bin %> hooks events --compozy-version v0.3.0-beta.20',
  ];
  static override args = {
    event: Args.string({
      ignoreStdin: true, // see src/cli/base-command.ts
      description: 'Show this event in detail.',
      required: false,
    }),
  };
  static override flags = {
    family: Flags.string({
      description:
        'Only events of this family (compozy: tool, session, prompt, …; cosh events are family "cosh"; claude events have none).',
    }),
    'sync-only': Flags.boolean({ description: 'Only events that can run sync hooks.' }),
    dialect: Flags.string({ description: 'Only this dialect.', options: dialectNames() }),
    schema: Flags.boolean({ description: 'With EVENT: print its payload and patch as JSON Schema.' }),
    changes: Flags.boolean({
      description:
        'What changed in the event catalog between the releases of each versioned dialect (compozy, claude).',
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HooksEvents);
    const format = this.outputFormat(flags);
    if (flags.changes) {
      if (args.event !== undefined) throw new HookctlError('usage_error', '--changes takes no EVENT', ExitCode.usage);
      const changes = await catalogChanges({ dialect: flags.dialect });
      if (format !== 'human') return format === 'json' ? this.printJson(changes) : this.printJsonl(changes);
      return this.print(renderCatalogChanges(changes, this.colour(flags)));
    }
    if (args.event === undefined) {
      if (flags.schema) throw new HookctlError('usage_error', '--schema needs an EVENT', ExitCode.usage);
      const rows = eventRows({ dialect: flags.dialect, family: flags.family, syncOnly: flags['sync-only'] });
      if (format === 'json') return this.printJson(rows);
      if (format === 'jsonl') return this.printJsonl(rows);
      return this.print(renderEventRows(rows, this.colour(flags), catalogVersions({ dialect: flags.dialect })));
    }
    const details = await eventDetails(args.event, flags.dialect);
    if (details.length === 0) {
      const message = flags.dialect
        ? `unknown event "${args.event}" for dialect "${flags.dialect}" (see: hookctl hooks events --dialect ${flags.dialect})`
        : undefined;
      throw message ? new HookctlError('unknown_event', message, ExitCode.usage) : unknownEventError(args.event);
    }
    if (flags.schema) return this.printJson(await eventSchemaDocument(args.event, flags.dialect));
    // One dialect: its detail; an event several dialects share: one detail each.
    const json = details.length === 1 ? details[0] : details;
    if (format !== 'human') return format === 'json' ? this.printJson(json) : this.printJsonl(details);
    this.print(details.map((d) => renderEventDetail(d, this.colour(flags))).join('\n\n'));
  }
}
