import { Args, Flags, HookctlCommand } from '../../cli/base-command.js';
import { hookInfo } from '../../app/info.js';
import { dialectNames } from '../../dialects/registry.js';
import { renderInfo, toInfoDeclaration } from '../../views/info.js';
import { skippedDeclarationWarnings } from '../../views/location.js';
import { allWorkspacesFlag } from '../../cli/runs-flags.js';

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
    const info = await hookInfo(this.locations(flags), args.name, {
      session: flags.session,
      dialect: flags.dialect,
      allWorkspaces: flags['all-workspaces'],
      onDiagnostics: (diagnostics) => {
        for (const line of skippedDeclarationWarnings(diagnostics)) this.printWarning(line);
      },
      onNotes: (notes) => {
        for (const note of notes) this.printNote(note);
      },
    });
    const declarations = info.declarations.map((d) => toInfoDeclaration(d));
    const format = this.outputFormat(flags);
    const doc = {
      name: args.name,
      declarations,
      runs: info.runs,
      runs_workspace: info.runs_workspace,
      runs_without_workspace: info.runs_without_workspace,
    };
    if (format === 'json') return this.printJson(doc);
    if (format === 'jsonl') return this.printJsonl([doc]);
    this.print(
      renderInfo(declarations, info.runs, this.colour(flags), {
        workspace: info.runs_workspace,
        withoutWorkspace: info.runs_without_workspace,
      }),
    );
  }
}
