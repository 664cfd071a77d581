// `hooks test` for a terminal (SPEC §8): per file a heading, one line per case (✓/✗, name, the
// dialect that fired it, duration), under a failed case each unmet expectation with expected and actual (a payload's
// differences one path a line), then the summary line `N passed, N failed`.
import { safeText } from '../../cli/safe-text.js';
import type { Colour } from '../../cli/colour.js';
import { show } from '../../hooktest/expect.js';
import type { CaseReport, TestRunReport, Unmet } from '../../hooktest/model.js';

export function formatHumanReport(report: TestRunReport, colour: Colour): string {
  const progress = humanProgress(colour);
  return [...report.cases.map((c) => progress.caseText(c)), progress.endText(report)].join('\n');
}

/**
 * The same text, a case at a time (a terminal sees each case as it ends): `caseText` for each
 * case in order (with its file's heading before the first case of a file), then `endText`.
 */
export function humanProgress(colour: Colour): {
  caseText(c: CaseReport): string;
  endText(report: TestRunReport): string;
} {
  let file: string | undefined;
  return {
    caseText(c) {
      const lines: string[] = [];
      if (c.file !== file) {
        if (file !== undefined) lines.push('');
        file = c.file;
        lines.push(fileHeading(c, colour));
      }
      lines.push(...caseLines(c, colour));
      return lines.join('\n');
    },
    endText(report) {
      const lines = report.cases.length === 0 ? ['No test cases ran.', ''] : [''];
      if (report.bailed) lines.push(colour.paint('warning', 'Stopped at the first failure (--bail).'));
      lines.push(summaryLine(report, colour));
      return lines.join('\n');
    },
  };
}

export function fileHeading(c: Pick<CaseReport, 'file' | 'suite'>, colour: Colour): string {
  return `${colour.paint('bold', c.suite)}  ${colour.paint('dim', c.file)}`;
}

/** The case's line and, when it failed, why. */
export function caseLines(c: CaseReport, colour: Colour): string[] {
  const mark = c.status === 'passed' ? colour.paint('ok', '✓') : colour.paint('error', '✗');
  const dry = c.dryRun ? colour.paint('dim', ' (dry run)') : '';
  // The dialect first: an event two dialects know (PreToolUse) shows which one answered.
  const dialect = c.dialect === undefined ? '' : `${c.dialect} · `;
  // The name on one line: a line break in it could start a workflow command under --format github.
  const lines = [`  ${mark} ${safeText(c.name, false)}${dry}  ${colour.paint('dim', `${dialect}${c.duration_ms} ms`)}`];
  if (c.error !== undefined) {
    lines.push(`      ${colour.paint('error', 'error')}: ${c.error}`);
    for (const d of c.errorDetails ?? []) lines.push(`        ${d}`);
  }
  for (const u of c.unmet) lines.push(...unmetLines(u, colour));
  return lines;
}

function unmetLines(u: Unmet, colour: Colour): string[] {
  const lines = [`      ${u.message}`];
  for (const d of u.differences ?? []) {
    lines.push(`        ${d.path === '' ? '(payload)' : d.path}`);
    lines.push(`          ${colour.paint('ok', `- expected ${show(d.expected)}`)}`);
    lines.push(`          ${colour.paint('error', `+ actual   ${show(d.actual)}`)}`);
  }
  return lines;
}

/** Exactly `N passed, N failed` (CI systems read this line). */
export function summaryLine(report: Pick<TestRunReport, 'passed' | 'failed'>, colour?: Colour): string {
  const text = `${report.passed} passed, ${report.failed} failed`;
  if (!colour) return text;
  return colour.paint(report.failed > 0 ? 'error' : 'ok', text);
}

/** What `hooks test --init` says when it wrote its file. */
export function starterWritten(file: string, cases: number): string {
  return `Wrote ${file} (${cases} case${cases === 1 ? '' : 's'}). Run it: hookctl hooks test ${file}`;
}
