// `hooks test --format json` (and `-o json`): the report as one document.
import type { CaseReport, TestRunReport } from '../../hooktest/model.js';

export function jsonReport(report: TestRunReport): unknown {
  return {
    files: report.files,
    passed: report.passed,
    failed: report.failed,
    bailed: report.bailed,
    duration_ms: report.duration_ms,
    cases: report.cases.map(jsonCase),
  };
}

/** `-o jsonl`: the case objects of the JSON report, one per line. */
export function formatJsonlReport(report: TestRunReport): string {
  return report.cases.map((c) => JSON.stringify(jsonCase(c))).join('\n');
}

function jsonCase(c: CaseReport): unknown {
  return {
    file: c.file,
    line: c.position.line,
    column: c.position.column ?? null,
    suite: c.suite,
    name: c.name,
    event: c.event,
    dialect: c.dialect ?? null,
    dry_run: c.dryRun,
    status: c.status,
    duration_ms: c.duration_ms,
    error: c.error ?? null,
    failures: c.unmet.map((u) => ({
      expectation: u.key,
      message: u.message,
      expected: u.expected,
      actual: u.actual ?? null,
      ...(u.differences
        ? {
            differences: u.differences.map((d) => ({
              path: d.path,
              expected: d.expected,
              actual: d.actual ?? null,
              absent: d.actual === undefined,
            })),
          }
        : {}),
    })),
  };
}

export function formatJsonReport(report: TestRunReport): string {
  return JSON.stringify(jsonReport(report), null, 2);
}
