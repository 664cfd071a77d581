import { Args, Flags, HookctlCommand } from '../../cli/base-command.js';
import { ExitCode } from '../../errors.js';
import { validateSources } from '../../validation.js';
import { buildReport, formatJson } from '../../validate/report.js';

type ReportFormat = 'human' | 'json' | 'github' | 'sarif';

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
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(HooksValidate);
    const outcome = await validateSources({ loc: this.locations(flags), env: process.env, files: argv as string[] });
    const report = buildReport(outcome.files, outcome.diagnostics);
    const format = reportFormat(flags.format, this.outputFormat(flags));
    switch (format) {
      case 'json':
        this.print(formatJson(report));
        break;
      case 'sarif': {
        const { formatSarif } = await import('../../validate/format-sarif.js');
        this.print(formatSarif(report, this.config.version));
        break;
      }
      case 'github': {
        const { formatGithub } = await import('../../validate/format-github.js');
        const { formatHuman } = await import('../../validate/format-human.js');
        this.print(formatGithub(report));
        this.print(formatHuman(report, { color: (_s: string, t: string) => t }));
        break;
      }
      default: {
        const { formatHuman } = await import('../../validate/format-human.js');
        const colour = this.colour(flags);
        this.print(formatHuman(report, { color: (s: string, t: string) => colour.paint(s as 'error', t) }));
      }
    }
    if (report.errors > 0 || (flags.strict && report.warnings > 0)) this.exitWith(ExitCode.no);
  }
}

function reportFormat(explicit: string | undefined, output: string): ReportFormat {
  if (explicit) return explicit as ReportFormat;
  if (output === 'json' || output === 'jsonl') return 'json';
  if (process.env.GITHUB_ACTIONS === 'true') return 'github';
  return 'human';
}
