// `hooks runs --stats` (SPEC §9): one row per (hook, event, dialect) over the selected records,
// with nearest-rank percentiles of `duration_ms`.
//
// Memory: a row keeps a count per distinct duration, not a list of durations. Durations are whole
// milliseconds, so a row holds at most as many counts as it has distinct durations (a few
// thousand at most for real hooks), whatever the number of records; the percentiles from the
// counts are exact.
import type { RunRecord } from './record.js';

/** One row of `runs --stats` (its JSON shape, SPEC §9). */
export interface RunStatsRow {
  hook_name: string;
  event: string;
  dialect: string;
  runs: number;
  outcomes: Record<string, number>;
  timed_out: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
}

/**
 * Counts keyed by outcome. A record's outcome is any string a log holds (`__proto__` and
 * `hasOwnProperty` included), so the counts live in an object with no prototype to collide with.
 */
export function outcomeCounts(): Record<string, number> {
  return Object.create(null) as Record<string, number>;
}

/** A row being counted: its counts, and a count per distinct duration for the percentiles. */
type Group = Omit<RunStatsRow, 'p50_ms' | 'p95_ms' | 'p99_ms' | 'max_ms'> & { durations: Map<number, number> };

/** Feed it records one at a time (`add`), then read the rows. */
export class RunStats {
  // hook → event → dialect: no key string is built per record.
  private readonly groups = new Map<string, Map<string, Map<string, Group>>>();

  add(r: RunRecord): void {
    const hook = String(r.hook_name ?? '');
    const event = String(r.event ?? '');
    const dialect = String(r.dialect ?? '');
    let byEvent = this.groups.get(hook);
    if (byEvent === undefined) this.groups.set(hook, (byEvent = new Map()));
    let byDialect = byEvent.get(event);
    if (byDialect === undefined) byEvent.set(event, (byDialect = new Map()));
    let g = byDialect.get(dialect);
    if (g === undefined) {
      g = { hook_name: hook, event, dialect, runs: 0, outcomes: outcomeCounts(), timed_out: 0, durations: new Map() };
      byDialect.set(dialect, g);
    }
    g.runs++;
    const outcome = typeof r.outcome === 'string' ? r.outcome : 'unknown';
    g.outcomes[outcome] = (g.outcomes[outcome] ?? 0) + 1;
    if (r.timed_out === true) g.timed_out++;
    const d = typeof r.duration_ms === 'number' && Number.isFinite(r.duration_ms) ? r.duration_ms : 0;
    g.durations.set(d, (g.durations.get(d) ?? 0) + 1);
  }

  /** Rows by hook name, then event, then dialect (code point order). */
  rows(): RunStatsRow[] {
    const groups = [...this.groups.values()].flatMap((e) => [...e.values()].flatMap((d) => [...d.values()]));
    const rows = groups.map((g) => {
      const [p50, p95, p99] = nearestRanks(g.durations, g.runs, [50, 95, 99]);
      return {
        hook_name: g.hook_name,
        event: g.event,
        dialect: g.dialect,
        runs: g.runs,
        outcomes: g.outcomes,
        timed_out: g.timed_out,
        p50_ms: p50!,
        p95_ms: p95!,
        p99_ms: p99!,
        max_ms: Math.max(...g.durations.keys()),
      };
    });
    return rows.sort((a, b) => cmp(a.hook_name, b.hook_name) || cmp(a.event, b.event) || cmp(a.dialect, b.dialect));
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Nearest-rank percentiles: the P-th is the smallest value whose rank is at least ⌈P/100 · n⌉
 * (ranks 1..n in ascending order), so it is always one of the values. `counts` maps each value to
 * how many times it occurred; `n` is their sum (≥ 1). `percentiles` ascending.
 */
export function nearestRanks(counts: ReadonlyMap<number, number>, n: number, percentiles: number[]): number[] {
  const values = [...counts.keys()].sort((a, b) => a - b);
  const out: number[] = [];
  let seen = 0;
  let i = 0;
  for (const p of percentiles) {
    const rank = Math.max(1, Math.ceil((p * n) / 100)); // p·n first: (p/100)·n has rounding error
    while (i < values.length && seen + counts.get(values[i]!)! < rank) seen += counts.get(values[i++]!)!;
    out.push(values[Math.min(i, values.length - 1)]!);
  }
  return out;
}

/** Nearest-rank percentile of a plain list (tests and small inputs). */
export function nearestRank(values: readonly number[], p: number): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return nearestRanks(counts, values.length, [p])[0]!;
}
