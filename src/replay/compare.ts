// Comparing an old decision with today's (replay.md §5): verdict classes, the change kind, and
// the hooks that fired differently. The class words do not clash across dialects (cosh `block`
// and claude `block` are both blocking), so one table serves every dialect.

export type ChangeKind = 'blocks' | 'asks' | 'allows' | 'differs';
export const CHANGE_KINDS: readonly ChangeKind[] = ['blocks', 'asks', 'allows', 'differs'];
export type VerdictClass = 'blocking' | 'asking' | 'open' | 'failed';

const CLASSES: Record<string, VerdictClass> = {
  deny: 'blocking',
  block: 'blocking',
  stop: 'blocking',
  decline: 'blocking',
  cancel: 'blocking',
  denied: 'blocking',
  stopped: 'blocking',
  ask: 'asking',
  defer: 'asking',
  pass: 'open',
  allow: 'open',
  accept: 'open',
  completed: 'open',
  proceeded: 'open',
  failed: 'failed',
};

export function verdictClass(verdict: string): VerdictClass | undefined {
  return CLASSES[verdict];
}

/** The change from `old` to `now` (§5's table); null for none, an unknown old, or a dry run (now null). */
export function changeOf(old: string, now: string | null): ChangeKind | null {
  if (now === null || old === 'unknown' || old === now) return null;
  const a = verdictClass(old);
  const b = verdictClass(now);
  if (a === undefined || b === undefined) return null;
  if (a === 'failed' || b === 'failed') return a === b ? null : 'differs';
  if (b === 'blocking' && a !== 'blocking') return 'blocks';
  if (b === 'asking' && a !== 'asking') return 'asks';
  if (b === 'open' && a !== 'open') return 'allows';
  // the same class: `proceeded` stands for any open verdict
  if (old === 'proceeded') return null;
  return 'differs';
}

/** §5's firing differences: command texts now that were not then, and then that are not now. */
export function firingDiff(
  oldHooks: readonly string[] | null,
  now: readonly string[],
): { fired_now_only: string[] | null; fired_then_only: string[] | null } {
  if (oldHooks === null) return { fired_now_only: null, fired_then_only: null };
  const nowSet = new Set(now);
  const thenSet = new Set(oldHooks);
  return {
    fired_now_only: [...new Set(now.filter((c) => !thenSet.has(c)))],
    fired_then_only: oldHooks.filter((c) => !nowSet.has(c)),
  };
}

export type FailOn = ChangeKind | 'fired';

/** Parses `--fail-on` (default blocks,asks,allows,differs; `none` never fails); undefined when bad. */
export function parseFailOn(text: string | undefined): FailOn[] | undefined {
  if (text === undefined) return [...CHANGE_KINDS];
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 1 && parts[0] === 'none') return [];
  const ok = new Set<string>([...CHANGE_KINDS, 'fired']);
  if (parts.length === 0 || parts.some((p) => !ok.has(p))) return undefined;
  return [...new Set(parts)] as FailOn[];
}
