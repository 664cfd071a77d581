// Matchers that are JavaScript regular expressions (cosh's, claude's regex form): compiled once
// per text, with no flags — no `g` (stateful lastIndex), no `u`, no `i` — as the runtimes do.

const compiled = new Map<string, RegExp | null>();

/** The RegExp of a matcher, compiled once; null when it is not a valid RegExp. */
export function compiledRegExp(source: string): RegExp | null {
  let regex = compiled.get(source);
  if (regex === undefined) {
    try {
      regex = new RegExp(source);
    } catch {
      regex = null;
    }
    compiled.set(source, regex);
  }
  return regex;
}
