// cosh's matcher (SPEC §4.4): a JavaScript regular expression searched, unanchored, in the
// payload's `tool_name`. `shell` also matches `run_shell_command`; `^shell$` is an exact name.
import { compileMatcherRegex } from '../../matching/regex-cache.js';

/** The only events whose hooks are filtered by `matcher`; on the others it is ignored. */
export const COSH_MATCHER_EVENTS: readonly string[] = Object.freeze([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
]);

/** The RegExp of a matcher, compiled once (null: not a valid RegExp). */
export const compile = compileMatcherRegex;

/**
 * Whether a hook with this matcher runs for this tool name. An empty or absent matcher matches
 * every tool, a missing one included. A non-empty matcher never matches a missing or non-string
 * tool name, nor (being rejected by validation) a matcher that is not a valid RegExp.
 */
export function coshMatcherMatches(matcher: string | undefined, toolName: unknown): boolean {
  if (matcher === undefined || matcher === '') return true;
  if (typeof toolName !== 'string') return false;
  const regex = compile(matcher);
  return regex !== null && regex.test(toolName);
}

/** The RegExp syntax error for this matcher (e.g. `Invalid regular expression: /(/: …`), if any. */
export function coshMatcherError(matcher: string): string | undefined {
  try {
    new RegExp(matcher);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
