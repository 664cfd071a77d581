// The formats of `hooks test` (SPEC §8), chosen by name; each is a plain function of the report.
import type { Colour } from '../../cli/colour.js';
import type { TestRunReport } from '../../hooktest/model.js';
import { formatGithubReport } from './github.js';
import { formatHumanReport } from './human.js';
import { formatJsonReport } from './json.js';
import { formatJunitReport } from './junit.js';
import { formatTapReport } from './tap.js';

export const TEST_FORMATS = ['human', 'json', 'tap', 'junit', 'github'] as const;
export type TestFormat = (typeof TEST_FORMATS)[number];

export function formatTestReport(format: TestFormat, report: TestRunReport, colour: Colour): string {
  switch (format) {
    case 'human':
      return formatHumanReport(report, colour);
    case 'json':
      return formatJsonReport(report);
    case 'tap':
      return formatTapReport(report);
    case 'junit':
      return formatJunitReport(report);
    case 'github':
      return formatGithubReport(report, colour);
  }
}
