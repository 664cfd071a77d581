// "Did you mean" for names a user typed (SPEC §7.1): commands, flags, event names. A known name
// is close when it is at most two edits away (insert, delete, substitute, or swap two neighbours),
// or when one of the two starts with the other; case is ignored (`pretooluse` finds `PreToolUse`).

/** The closest known names to `typed` (all at the least distance, alphabetical), at most `max`. */
export function closestNames(typed: string, known: Iterable<string>, max = 3): string[] {
  const t = typed.toLowerCase();
  if (t === '') return [];
  const found: { name: string; distance: number }[] = [];
  const seen = new Set<string>();
  for (const name of known) {
    if (seen.has(name) || name === typed) continue;
    seen.add(name);
    const n = name.toLowerCase();
    const prefix = Math.min(t.length, n.length) >= 2 && (n.startsWith(t) || t.startsWith(n));
    const distance = editDistance(t, n, 2);
    if (distance <= 2 || prefix) found.push({ name, distance });
  }
  // Only the closest tier is offered: `lst` finds `list` (one edit), not also `test` (two).
  // Names found only by a shared prefix rank after every name within two edits.
  const tier = (f: { distance: number }) => (f.distance <= 2 ? f.distance : 3);
  found.sort((a, b) => tier(a) - tier(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const best = found.length > 0 ? tier(found[0]!) : 0;
  return found
    .filter((f) => tier(f) === best)
    .slice(0, max)
    .map((f) => f.name);
}

/** `; did you mean "a"?` or `; did you mean "a" or "b"?`, or '' when nothing is close. */
export function didYouMean(typed: string, known: Iterable<string>, max = 3): string {
  return didYouMeanOf(closestNames(typed, known, max));
}

/** `; did you mean "a"?` for names already chosen, or '' when there are none. */
export function didYouMeanOf(names: string[]): string {
  if (names.length === 0) return '';
  const quoted = names.map((n) => `"${n}"`);
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
  return `; did you mean ${list}?`;
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent swaps), or `limit + 1` as soon as
 * it must exceed `limit`: names far apart cost one row or two, not the whole table.
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prevPrev = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1);
    row[0] = i;
    let best = row[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prevPrev[j - 2]! + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length]!;
}
