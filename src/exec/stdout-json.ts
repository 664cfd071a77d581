// Stdout that looks like a JSON answer but is not one (issue 28): it starts with `{` and does not
// parse. Every dialect's record says so (`stdout_json_error`, src/ledger/record-fields.ts) and
// fire warns, so a hook whose JSON is one comma off is never silently read as something else.
import { parseJsonWithPositions } from '../declarations/json.js';

export interface StdoutJsonError {
  /** 1-based, within stdout. */
  line: number;
  column: number;
  message: string;
}

/** Why `stdout`, whose first non-blank character is `{`, is not one JSON value; else undefined. */
export function stdoutJsonError(stdout: string): StdoutJsonError | undefined {
  if (stdout.trimStart()[0] !== '{') return undefined;
  const parsed = parseJsonWithPositions(stdout);
  if (parsed.ok) return undefined;
  return { line: parsed.error.line, column: parsed.error.column, message: parsed.error.message };
}

/** The record's `stdout_json_error`: `1:20: expected ',' or '}'`. */
export function stdoutJsonErrorText(e: StdoutJsonError): string {
  return `${e.line}:${e.column}: ${e.message}`;
}
