import { Args, Flags, HookctlCommand } from '../../cli/base-command.js';
import { dialectNames } from '../../dialects/registry.js';
import { runEvents } from '../../cli/bodies/events.js';

export default class HooksEvents extends HookctlCommand {
  static override summary =
    'Show the event catalog of every dialect (compozy, cosh, claude, codex), or one event with its payload and patch fields.';
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
    await runEvents(this.io(), flags, args);
  }
}
