// The formats of `hooks test` (SPEC §8), chosen by name; each is a plain function of the report.
import type { OutputFormat } from '../../cli/base-command.js';
import type { Colour } from '../../cli/colour.js';
import type { TestRunReport } from '../../hooktest/model.js';
import { formatGithubReport } from './github.js';
import { formatHumanReport } from './human.js';
import { formatJsonlReport, formatJsonReport } from './json.js';
import { reportFormat } from '../validate.js';
import { formatJunitReport } from './junit.js';
import { formatTapReport } from './tap.js';

export const TEST_FORMATS = ['human', 'json', 'tap', 'junit', 'github'] as const;
/** `jsonl` comes only from `-o jsonl`: the cases, one JSON object per line. */
export type TestFormat = (typeof TEST_FORMATS)[number] | 'jsonl';

/** validate's rule (`--format` wins, then `-o`, then GitHub Actions), with `-o jsonl` kept as such. */
export function testReportFormat(
  explicit: string | undefined,
  output: OutputFormat,
  env: NodeJS.ProcessEnv,
): TestFormat {
  if (!explicit && output === 'jsonl') return 'jsonl';
  return reportFormat<TestFormat>(explicit, output, env);
}

export function formatTestReport(format: TestFormat, report: TestRunReport, colour: Colour): string {
  switch (format) {
    case 'human':
      return formatHumanReport(report, colour);
    case 'json':
      return formatJsonReport(report);
    case 'jsonl':
      return formatJsonlReport(report);
    case 'tap':
      return formatTapReport(report);
    case 'junit':
      return formatJunitReport(report);
    case 'github':
      return formatGithubReport(report, colour);
  }
}
