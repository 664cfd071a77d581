// `hooks test --format junit`: JUnit XML as CI systems read it (Jenkins, GitLab, GitHub test
// reporters): <testsuites> of one <testsuite> per test file, one <testcase> per case with
// file, line and time in seconds; an unmet expectation is a <failure>, a case that could not be
// fired an <error>. Text is escaped for XML 1.0, and characters XML cannot hold at all (most
// control characters, lone surrogates) become U+FFFD, so any hook output still gives a document
// that parses.
import { show } from '../../hooktest/expect.js';
import type { CaseReport, TestRunReport } from '../../hooktest/model.js';
import { runsByFile } from '../location.js';

export function formatJunitReport(report: TestRunReport): string {
  const suites = runsByFile(report.cases);
  const errors = report.cases.filter((c) => c.error !== undefined).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="hookctl hooks test" tests="${report.cases.length}" failures="${report.failed - errors}" errors="${errors}" time="${seconds(report.duration_ms)}">`,
  ];
  for (const cases of suites) {
    const first = cases[0]!;
    const suiteErrors = cases.filter((c) => c.error !== undefined).length;
    const suiteFailures = cases.filter((c) => c.status === 'failed').length - suiteErrors;
    const time = cases.reduce((t, c) => t + c.duration_ms, 0);
    lines.push(
      `  <testsuite name="${attr(first.suite)}" tests="${cases.length}" failures="${suiteFailures}" errors="${suiteErrors}" skipped="0" time="${seconds(time)}" file="${attr(first.file)}">`,
    );
    for (const c of cases) lines.push(...testcase(c));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n');
}

function testcase(c: CaseReport): string[] {
  const open = `    <testcase name="${attr(c.name)}" classname="${attr(c.suite)}" file="${attr(c.file)}" line="${c.position.line}" time="${seconds(c.duration_ms)}"`;
  if (c.status === 'passed') return [`${open}/>`];
  const lines = [`${open}>`];
  if (c.error !== undefined) {
    lines.push(
      `      <error message="${attr(c.error)}" type="error">${text([c.error, ...(c.errorDetails ?? [])].join('\n'))}</error>`,
    );
  }
  if (c.unmet.length > 0) {
    const body = c.unmet
      .flatMap((u) => [
        u.message,
        ...(u.differences ?? []).map((d) => `  ${d.path}: expected ${show(d.expected)}, got ${show(d.actual)}`),
      ])
      .join('\n');
    const message = c.unmet.length === 1 ? c.unmet[0]!.message : `${c.unmet.length} expectations not met`;
    lines.push(`      <failure message="${attr(message)}" type="expectation">${text(body)}</failure>`);
  }
  lines.push('    </testcase>');
  return lines;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlSafe(s: string): string {
  return s.replace(NOT_XML_CHAR, '\uFFFD');
}

function text(s: string): string {
  return xmlSafe(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value: quotes escaped, and line breaks and tabs as references (a parser would fold them). */
function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
