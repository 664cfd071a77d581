// Matchers that are JavaScript regular expressions (cosh's tool_name matcher, claude's regex
// matchers): each compiled once per process.

/** Compiled matchers; null marks a matcher that is not a valid RegExp. */
const compiled = new Map<string, RegExp | null>();

/** The RegExp of a matcher, compiled once (null: not a valid RegExp). No flags, as the runtimes. */
export function compileMatcherRegex(matcher: string): RegExp | null {
  let regex = compiled.get(matcher);
  if (regex === undefined) {
    try {
      // No flags: no `g` (stateful lastIndex), no `u`, no `i` — the runtime's plain RegExp.
      regex = new RegExp(matcher);
    } catch {
      regex = null;
    }
    compiled.set(matcher, regex);
  }
  return regex;
}
