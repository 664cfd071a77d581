// `hooks test --format github`: one GitHub Actions annotation per failed case, at the case's line
// in its file (SPEC §8), then the plain report, as `validate --format github` does.
import type { Colour } from '../../cli/colour.js';
import type { CaseReport, TestRunReport } from '../../hooktest/model.js';
import { escapeData, escapeProperty } from '../../validate/format-github.js';
import { formatHumanReport } from './human.js';

export function formatGithubReport(report: TestRunReport, colour: Colour): string {
  const annotations = report.cases.filter((c) => c.status === 'failed').map(annotation);
  return [...annotations, formatHumanReport(report, colour)].join('\n');
}

export function annotation(c: CaseReport): string {
  const properties = [`file=${escapeProperty(c.file)}`, `line=${c.position.line}`];
  if (c.position.column !== undefined) properties.push(`col=${c.position.column}`);
  properties.push(`title=${escapeProperty(`hooks test: ${c.name}`)}`);
  const message = [
    ...(c.error !== undefined ? [c.error, ...(c.errorDetails ?? [])] : []),
    ...c.unmet.flatMap((u) => [
      u.message,
      ...(u.differences ?? []).map(
        (d) =>
          `  ${d.path}: expected ${JSON.stringify(d.expected)}, got ${d.actual === undefined ? 'absent' : JSON.stringify(d.actual)}`,
      ),
    ]),
  ].join('\n');
  return `::error ${properties.join(',')}::${escapeData(message)}`;
}
