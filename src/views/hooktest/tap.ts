// `hooks test --format tap`: TAP version 13. Each case is a test point; a failed one carries a
// YAML block with where it is and every unmet expectation. The plan comes last (TAP allows it),
// so a --bail run announces the count it really ran, followed by `Bail out!`.
import { show } from '../../hooktest/expect.js';
import type { CaseReport, TestRunReport } from '../../hooktest/model.js';
import { summaryLine } from './human.js';

export function formatTapReport(report: TestRunReport): string {
  const lines = ['TAP version 13'];
  report.cases.forEach((c, i) => {
    const ok = c.status === 'passed' ? 'ok' : 'not ok';
    lines.push(`${ok} ${i + 1} - ${description(c)}`);
    if (c.status === 'failed') lines.push(...yamlBlock(c));
  });
  lines.push(`1..${report.cases.length}`);
  if (report.bailed) lines.push('Bail out! stopped at the first failure (--bail)');
  lines.push(`# ${summaryLine(report)}`);
  return lines.join('\n');
}

/** One line; `#` would start a directive and `\` escapes it. */
function description(c: CaseReport): string {
  return `${c.suite} > ${c.name}`
    .replace(/[\r\n]+/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/#/g, '\\#');
}

function yamlBlock(c: CaseReport): string[] {
  // JSON strings are valid YAML scalars: every value is written with JSON.stringify.
  const q = (s: string) => JSON.stringify(s);
  const lines = [
    '  ---',
    `  file: ${q(c.file)}`,
    `  line: ${c.position.line}`,
    `  event: ${q(c.event)}`,
    `  duration_ms: ${c.duration_ms}`,
  ];
  if (c.error !== undefined) lines.push(`  error: ${q([c.error, ...(c.errorDetails ?? [])].join('\n'))}`);
  if (c.unmet.length > 0) {
    lines.push('  failures:');
    for (const u of c.unmet) {
      lines.push(`    - expectation: ${q(u.key)}`, `      message: ${q(u.message)}`);
      lines.push(
        `      expected: ${JSON.stringify(u.expected ?? null)}`,
        `      actual: ${JSON.stringify(u.actual ?? null)}`,
      );
      if (u.differences) {
        lines.push('      differences:');
        for (const d of u.differences)
          lines.push(`        - ${q(`${d.path}: expected ${show(d.expected)}, got ${show(d.actual)}`)}`);
      }
    }
  }
  lines.push('  ...');
  return lines;
}
