import { Args, Flags, HookctlCommand } from '../../cli/base-command.js';
import { validateSources } from '../../app/validate.js';
import { dialectNames } from '../../dialects/registry.js';
import { ExitCode } from '../../errors.js';
import { buildReport } from '../../validate/report.js';
import { renderReport, reportFormat } from '../../views/validate.js';

export default class HooksValidate extends HookctlCommand {
  static override summary = 'Validate hook declarations: every source, or only the files named.';
  static override description = `Each diagnostic has a severity, a stable code, the message, and the file and line of the declaration it is about.
Exit codes: 0 clean (warnings allowed unless --strict), 1 errors found, 2 usage error or a named file that does not exist.`;
  static override examples = [
    '<%= config.bin %> hooks validate --strict',
    '<%= config.bin %> hooks validate .compozy/config.toml',
    '<%= config.bin %> hooks validate --format sarif > hooks.sarif',
  ];
  static override strict = false;
  static override args = {
    files: Args.string({
      ignoreStdin: true, // see src/cli/base-command.ts
      description: 'Declaration files to check (default: every source).',
      required: false,
    }),
  };
  static override flags = {
    format: Flags.string({
      description: 'Report format (default: github when GITHUB_ACTIONS=true, else human; wins over -o).',
      options: ['human', 'json', 'github', 'sarif'],
    }),
    strict: Flags.boolean({ description: 'Fail (exit 1) on warnings too.' }),
    dialect: Flags.string({ description: 'Only this dialect.', options: dialectNames() }),
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(HooksValidate);
    const outcome = await validateSources({
      loc: this.locations(flags),
      env: process.env,
      files: argv as string[],
      dialect: flags.dialect,
    });
    const report = buildReport(outcome.files, outcome.diagnostics);
    const format = reportFormat(flags.format, this.outputFormat(flags), process.env);
    for (const text of await renderReport(report, format, this.colour(flags), this.config.version)) this.print(text);
    if (report.errors > 0 || (flags.strict && report.warnings > 0)) this.exitWith(ExitCode.no);
  }
}
