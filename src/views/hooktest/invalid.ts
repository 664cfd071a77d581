// Test files that do not parse or validate (SPEC §8: exit 2 with file:line:col), reported through
// `hooks validate`'s report and formats: the same lines on stderr, the same diagnostic objects
// under `{error: {...}}` with --json, the same annotations with --format github.
import type { Diagnostic } from '../../declarations/diagnostics.js';
import { ExitCode, HookctlError } from '../../errors.js';
import { formatGithub } from '../../validate/format-github.js';
import { formatHuman } from '../../validate/format-human.js';
import { buildReport, jsonReport } from '../../validate/report.js';

export function invalidTestFilesError(
  files: readonly string[],
  diagnostics: readonly Diagnostic[],
  cwd = process.cwd(),
): HookctlError {
  const report = buildReport(files, diagnostics, cwd);
  const n = report.diagnostics.length;
  const details = formatHuman(report, { color: (_style, text) => text })
    .split('\n')
    .filter((line) => line !== '');
  return new HookctlError(
    'test_file_invalid',
    `${n} problem${n === 1 ? '' : 's'} in test files; no case ran`,
    ExitCode.usage,
    {
      details,
      data: { diagnostics: jsonReport(report).diagnostics },
    },
  );
}

/** `--format github`: the annotations of the same problems, printed before the error. */
export function invalidTestFilesAnnotations(
  files: readonly string[],
  diagnostics: readonly Diagnostic[],
  cwd = process.cwd(),
): string {
  return formatGithub(buildReport(files, diagnostics, cwd));
}
