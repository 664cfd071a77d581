// Event names a user typed (SPEC §7.1): an unknown one gets the closest known names, and an
// --event pattern must be a valid pattern and should match some event of some dialect.
import { dialects } from '../dialects/registry.js';
import { ExitCode, HookctlError, usageError } from '../errors.js';
import { didYouMean } from '../matching/suggest.js';
import { hasWildcard, isValidPattern, pathMatch } from '../matching/pathmatch.js';

/** Every event of every dialect. */
export function knownEventNames(): string[] {
  return dialects().flatMap((d) => d.eventRows().map((r) => r.event));
}

/**
 * `unknown event "<e>"; did you mean "<f>"?`, or with a pointer to the catalog when none is close;
 * a dialect that knows the event to be gone (removed, or of another release) says so instead.
 */
export function unknownEventError(event: string): HookctlError {
  return new HookctlError('unknown_event', missingEventMessage(event), ExitCode.usage);
}

/**
 * Checks an --event pattern: an invalid one is a usage error (exit 2); one that matches no known
 * event returns the warning to print (the command still runs: a log may hold events of another
 * catalog version), else undefined.
 */
export function eventPatternWarning(pattern: string | undefined): string | undefined {
  if (pattern === undefined) return undefined;
  if (!isValidPattern(pattern)) throw usageError(`invalid --event pattern "${pattern}": syntax error in pattern`);
  const known = knownEventNames();
  const matches = hasWildcard(pattern) ? (e: string) => pathMatch(pattern, e) : (e: string) => e === pattern;
  if (known.some(matches)) return undefined;
  return `no known event matches "${pattern}"${didYouMean(pattern, known)}`;
}

/**
 * Why `hooks events EVENT` has nothing to show: a dialect that knows the event from another
 * version of its catalog says so (compozy: `... removed in CompozyOS v0.3.0 ...`); else unknown.
 */
function missingEventMessage(name: string): string {
  for (const d of dialects()) {
    const hint = d.removedEventHint?.(name);
    if (hint) return hint;
  }
  // SPEC §7.1: the closest known names, when one is close.
  return `unknown event "${name}"${didYouMean(name, knownEventNames()) || ' (see: hookctl hooks events)'}`;
}
