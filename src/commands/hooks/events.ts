import { Args, Flags, HookctlCommand } from '../../cli/base-command.js';
import { renderTable } from '../../cli/table.js';
import { HookctlError, ExitCode } from '../../errors.js';
import { eventDetail, eventRows } from '../../app/events.js';

export default class HooksEvents extends HookctlCommand {
  static override summary = 'Show the event catalog of both dialects, or one event with its payload and patch fields.';
  static override examples = [
    '<%= config.bin %> hooks events',
    '<%= config.bin %> hooks events --family tool --sync-only',
    '<%= config.bin %> hooks events tool.pre_call',
    '<%= config.bin %> hooks events PreToolUse --schema',
  ];
  static override args = {
    event: Args.string({
      ignoreStdin: true, // see src/cli/base-command.ts
      description: 'Show this event in detail.',
      required: false,
    }),
  };
  static override flags = {
    family: Flags.string({ description: 'Only events of this family (cosh events are family "cosh").' }),
    'sync-only': Flags.boolean({ description: 'Only events that can run sync hooks.' }),
    dialect: Flags.string({ description: 'Only this dialect.', options: ['compozy', 'cosh'] }),
    schema: Flags.boolean({ description: 'With EVENT: print its payload and patch as JSON Schema.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HooksEvents);
    const format = this.outputFormat(flags);
    const colour = this.colour(flags);
    if (args.event === undefined) {
      if (flags.schema) throw new HookctlError('usage_error', '--schema needs an EVENT', ExitCode.usage);
      const rows = eventRows({
        dialect: flags.dialect as 'compozy' | 'cosh' | undefined,
        family: flags.family,
        syncOnly: flags['sync-only'],
      });
      if (format === 'json') return this.printJson(rows);
      if (format === 'jsonl') return this.printJsonl(rows);
      this.print(
        renderTable(
          ['Event', 'Dialect', 'Family', 'Sync', 'Deny', 'Payload', 'Patch'],
          rows.map((r) => [
            r.event,
            r.dialect,
            r.family,
            r.sync_eligible ? 'yes' : 'no',
            r.deny ?? '-',
            r.payload,
            r.patch,
          ]),
          colour,
        ),
      );
      return;
    }

    const detail = await eventDetail(args.event);
    if (!detail) {
      throw new HookctlError(
        'unknown_event',
        `unknown event "${args.event}" (see: hookctl hooks events)`,
        ExitCode.usage,
      );
    }
    if (flags.schema) {
      const { eventSchemas } = await import('../../events/schema.js');
      return this.printJson(eventSchemas(detail.dialect as 'compozy' | 'cosh', detail.event));
    }
    if (format !== 'human') return format === 'json' ? this.printJson(detail) : this.printJsonl([detail]);
    const b = (t: string) => colour.paint('bold', t);
    const lines = [
      `${b(detail.event)}  ${colour.paint('dim', `(${detail.dialect}, family ${detail.family})`)}`,
      detail.summary,
      '',
      `${b('Sync')}      ${detail.sync_eligible ? 'yes' : 'no (async only)'}`,
      `${b('Deny')}      ${detail.deny ?? '-'}${detail.deny_field ? ` (patch field "${detail.deny_field}")` : ''}`,
      `${b('Guard')}     ${detail.guard ?? '-'}`,
      `${b('Matcher')}   ${detail.matcher_fields.length ? detail.matcher_fields.join(', ') : '-'}`,
      '',
      `${b('Payload')} ${detail.payload}`,
      renderTable(
        ['Field', 'Type', 'Values'],
        detail.payload_fields.map((f) => [f.name, f.type, f.enum ? f.enum.join(' | ') : '']),
        colour,
      ),
      '',
      `${b('Patch')} ${detail.patch}${detail.observation_only ? ' (observation only: never applied)' : ''}`,
      renderTable(
        ['Field', 'Type', 'Applied'],
        detail.patch_fields.map((f) => [f.name, f.type, f.applied ? 'yes' : 'no']),
        colour,
      ),
    ];
    this.print(lines.join('\n'));
  }
}
