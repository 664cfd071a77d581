// Record fields every dialect writes the same way (SPEC §5): one-line errors and a process's facts.
import { stdoutJsonError, stdoutJsonErrorText } from '../exec/stdout-json.js';
import type { ExecResult } from '../exec/types.js';
import type { RunRecord } from './record.js';

/** Errors are one trimmed line: inner line breaks become single spaces. */
export function oneLine(text: string): string {
  return text.trim().replace(/\s*[\r\n]+\s*/g, ' ');
}

/**
 * SPEC §5's process facts, in order; none when the process never started. Then
 * `stdout_json_error` when stdout starts with `{` but is not valid JSON (where and why, never
 * the text; issue 28).
 */
export function processFields(exec: ExecResult): Partial<RunRecord> {
  if (exec.startError) return {};
  const jsonError = stdoutJsonError(exec.stdout);
  return {
    exit_code: exec.exitCode,
    signal: exec.signal,
    timed_out: exec.timedOut,
    stdout_bytes: exec.stdoutBytes,
    stderr_bytes: exec.stderrBytes,
    truncated: exec.truncated,
    ...(jsonError ? { stdout_json_error: stdoutJsonErrorText(jsonError) } : {}),
  };
}
