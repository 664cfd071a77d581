// `hooks validate`'s report in the format asked for (SPEC §6): human, JSON, GitHub annotations
// (followed by the human text) or SARIF. Each formatter loads only when used.
import type { Colour } from '../cli/colour.js';
import type { OutputFormat } from '../cli/base-command.js';
import { formatJson, jsonReport, type ValidateReport } from '../validate/report.js';

export type ReportFormat = 'human' | 'json' | 'jsonl' | 'github' | 'sarif';

/**
 * `--format` wins; else `-o json` is the JSON report and `-o jsonl` one object per line (SPEC
 * §7.4: like every other command's jsonl, the items alone); in GitHub Actions, annotations; else
 * human. The rule of every command with report formats (`validate`, `hooks test`).
 */
export function reportFormat<F extends string = ReportFormat>(
  explicit: string | undefined,
  output: OutputFormat,
  env: NodeJS.ProcessEnv,
): F | 'human' | 'json' | 'jsonl' | 'github' {
  if (explicit) return explicit as F;
  if (output === 'json' || output === 'jsonl') return output;
  if (env.GITHUB_ACTIONS === 'true') return 'github';
  return 'human';
}

/** The texts to print, in order. */
export async function renderReport(
  report: ValidateReport,
  format: ReportFormat,
  colour: Colour,
  version: string,
): Promise<string[]> {
  switch (format) {
    case 'json':
      return [formatJson(report)];
    case 'jsonl':
      return jsonReport(report).diagnostics.map((d) => JSON.stringify(d));
    case 'sarif': {
      const { formatSarif } = await import('../validate/format-sarif.js');
      return [formatSarif(report, version)];
    }
    case 'github': {
      const [{ formatGithub }, { formatHuman }] = await Promise.all([
        import('../validate/format-github.js'),
        import('../validate/format-human.js'),
      ]);
      return [formatGithub(report), formatHuman(report, { color: (_s: string, t: string) => t })];
    }
    default: {
      const { formatHuman } = await import('../validate/format-human.js');
      return [formatHuman(report, { color: (s: string, t: string) => colour.paint(s as 'error', t) })];
    }
  }
}
