import { Args, Flags, HookctlCommand } from '../../cli/base-command.js';
import { dialectNames } from '../../dialects/registry.js';
import { allWorkspacesFlag } from '../../cli/runs-flags.js';
import { runInfo } from '../../cli/bodies/info.js';

export default class HooksInfo extends HookctlCommand {
  static override summary = 'Show every declaration of one hook name: all fields, where it is declared, its last runs.';
  static override examples = [
    '<%= config.bin %> hooks info block-secret-file-edits',
    '<%= config.bin %> hooks info security-check -o json',
  ];
  static override args = {
    name: Args.string({
      ignoreStdin: true, // see src/cli/base-command.ts
      description:
        'Hook name (compozy and cosh: as declared; claude: as hooks list shows it, such as project:PreToolUse:1.1).',
      required: true,
    }),
  };
  static override flags = {
    session: Flags.string({ description: 'Show runs from this session (default: the most recently written one).' }),
    dialect: Flags.string({ description: 'Only this dialect.', options: dialectNames() }),
    ...allWorkspacesFlag,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HooksInfo);
    await runInfo(this.io(), flags, args);
  }
}
