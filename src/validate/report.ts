// The result of `hooks validate`, in the shape its JSON output has (SPEC §6): the files read,
// the counts, and every diagnostic in file, line, column order. Every formatter reads this;
// the JSON format lives here because it is this shape, written out.
import type { Diagnostic, Severity } from '../declarations/diagnostics.js';
import type { Source } from '../declarations/model.js';
import { relativeToCwd } from './relative-path.js';

export interface ValidateReport {
  files: string[];
  errors: number;
  warnings: number;
  diagnostics: Diagnostic[];
}

/**
 * Sorts by file, line and column (stable: ties keep the order they were found in) and counts.
 * Every path becomes what SPEC §6 shows: relative to `cwd` when inside it, else absolute.
 * Files are listed once, in the order given.
 */
export function buildReport(
  files: readonly string[],
  diagnostics: readonly Diagnostic[],
  cwd: string = process.cwd(),
): ValidateReport {
  const shown = diagnostics.map((d) => ({ ...d, file: relativeToCwd(d.file, cwd) }));
  shown.sort(compareDiagnostics);
  let errors = 0;
  for (const d of shown) if (d.severity === 'error') errors++;
  return {
    files: [...new Set(files.map((f) => relativeToCwd(f, cwd)))],
    errors,
    warnings: shown.length - errors,
    diagnostics: shown,
  };
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  return (a.column ?? 0) - (b.column ?? 0);
}

/** A diagnostic of `--format json`: always the same keys; column, source, hook null when unknown. */
export interface JsonDiagnostic {
  severity: Severity;
  code: string;
  message: string;
  file: string;
  line: number;
  column: number | null;
  source: Source | null;
  hook: string | null;
}

export interface JsonReport {
  files: string[];
  errors: number;
  warnings: number;
  diagnostics: JsonDiagnostic[];
}

export function jsonDiagnostic(d: Diagnostic): JsonDiagnostic {
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    file: d.file,
    line: d.line,
    column: d.column ?? null,
    source: d.source ?? null,
    hook: d.hook ?? null,
  };
}

export function jsonReport(report: ValidateReport): JsonReport {
  return {
    files: report.files,
    errors: report.errors,
    warnings: report.warnings,
    diagnostics: report.diagnostics.map(jsonDiagnostic),
  };
}

/** `hooks validate --format json` / `-o json`: `{files, errors, warnings, diagnostics}`. */
export function formatJson(report: ValidateReport): string {
  return JSON.stringify(jsonReport(report), null, 2);
}
