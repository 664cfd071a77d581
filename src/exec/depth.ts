// Dispatch depth (SPEC §3.3): at most 3 nested dispatches. Each hook process gets
// HOOKCTL_DISPATCH_DEPTH=<depth of the dispatch that runs it>; a `hooks fire` started with it set
// dispatches at that depth + 1. Past the limit, a dispatch with sync hooks fails before running
// any hook, and its async hooks are recorded `skipped`.
import { dispatchDepthFromEnv, MAX_DISPATCH_DEPTH } from './environment.js';

/**
 * The depth a `hooks fire` dispatches at: 1 at top level, else the invoking hook's depth + 1 (a
 * HOOKCTL_DISPATCH_DEPTH that is not a count counts as unset).
 */
export function fireDepthFromEnv(env: NodeJS.ProcessEnv): number {
  return dispatchDepthFromEnv(env) + 1;
}

/** The error of a dispatch at `depth`, or undefined while within the limit. */
export function depthExceededError(event: string, depth: number): string | undefined {
  if (depth <= MAX_DISPATCH_DEPTH) return undefined;
  return `hooks: dispatch depth exceeded for event ${JSON.stringify(event)}: depth ${depth} exceeds max ${MAX_DISPATCH_DEPTH}`;
}
