// The `hooks list` use case (SPEC §6): the catalog filtered, in listing order. Pure: no I/O.
import type { OrderedDeclaration } from '../declarations/model.js';
import { dialectNamed, dialects } from '../dialects/registry.js';
import { hasWildcard, pathMatch } from '../matching/pathmatch.js';

export interface ListFilter {
  /** Exact event name or a path.Match pattern (`tool.*`). */
  event?: string;
  source?: string;
  mode?: string;
  /** Agent name: the hooks that would run for this agent (SPEC §7.2; claude: the dialect's own reading). */
  agent?: string;
  dialect?: string;
  /** Include disabled, nameless, blocked and overridden hooks (with status and why). */
  all?: boolean;
  /** Only the hooks the runtime skips until the user reviews them (Dialect.needsReview). */
  untrusted?: boolean;
}

export function filterDeclarations(decls: OrderedDeclaration[], f: ListFilter): OrderedDeclaration[] {
  return sortForListing(
    decls.filter(
      (d) =>
        (f.all || d.status === 'active') &&
        (f.event === undefined || eventMatches(f.event, d.event)) &&
        (f.source === undefined || d.source === f.source) &&
        (f.mode === undefined || d.mode === f.mode) &&
        (f.dialect === undefined || d.dialect === f.dialect) &&
        (f.agent === undefined || isAgentHook(d, f.agent)) &&
        (f.untrusted !== true || needsReview(d)),
    ),
  );
}

/**
 * What a plain `list` leaves out for their status alone, counted by status (`disabled: 2`): a
 * hook that is declared but will not run is never hidden silently (issue 28's "never silent").
 */
export function inactiveCounts(decls: readonly OrderedDeclaration[], f: ListFilter): Map<string, number> {
  const counts = new Map<string, number>();
  if (f.all) return counts;
  for (const d of filterDeclarations(
    decls.filter((x) => x.status !== 'active'),
    { ...f, all: true },
  ))
    counts.set(d.status, (counts.get(d.status) ?? 0) + 1);
  return counts;
}

/**
 * `list --agent NAME`: the dialect's own reading when it has one (claude: the subagent's hooks),
 * else the hooks that would run for the agent: no agent_name matcher, or one whose pattern matches
 * the name (as CompozyOS's own listing answers; SPEC §7.2).
 */
function isAgentHook(d: OrderedDeclaration, agent: string): boolean {
  const own = dialectNamed(d.dialect)?.isAgentHook;
  return own ? own(d, agent) : runsForAgent(d.matcher.agent_name, agent);
}

/** `list --untrusted`: the dialect says whether its runtime waits for a review of the hook. */
function needsReview(d: OrderedDeclaration): boolean {
  return dialectNamed(d.dialect)?.needsReview?.(d) === true;
}

export function runsForAgent(pattern: unknown, agent: string): boolean {
  if (pattern === undefined || pattern === '' || pattern === '*') return true;
  return typeof pattern === 'string' && eventMatches(pattern, agent);
}

export function eventMatches(pattern: string, event: string): boolean {
  if (!hasWildcard(pattern)) return pattern === event;
  try {
    return pathMatch(pattern, event);
  } catch {
    return false;
  }
}

/**
 * Dialect in registry order, then event in its catalog's order (unknown events after, by name),
 * then the loader's dispatch order (a stable sort). Keys are computed once per declaration, not
 * per comparison.
 */
function sortForListing(decls: OrderedDeclaration[]): OrderedDeclaration[] {
  const dialectRank = new Map<string, number>();
  const eventRank = new Map<string, Map<string, number>>();
  // Only the catalogs of the dialects listed: another's may not be readable (a bad
  // HOOKCTL_COMPOZY_VERSION concerns compozy alone, issue 24).
  const listed = new Set(decls.map((d) => d.dialect));
  for (const d of dialects()) {
    dialectRank.set(d.name, dialectRank.size);
    if (listed.has(d.name)) eventRank.set(d.name, new Map(d.eventRows().map((r, i) => [r.event, i])));
  }
  const n = decls.length;
  const dialect = new Float64Array(n);
  const rank = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = decls[i]!;
    dialect[i] = dialectRank.get(d.dialect) ?? Infinity;
    rank[i] = eventRank.get(d.dialect)?.get(d.event) ?? Infinity;
  }
  const indexes = Array.from({ length: n }, (_, i) => i);
  indexes.sort((a, b) => {
    if (dialect[a] !== dialect[b]) return dialect[a]! - dialect[b]!;
    if (rank[a] !== rank[b]) return rank[a]! - rank[b]!;
    const ea = decls[a]!.event;
    const eb = decls[b]!.event;
    if (ea !== eb) return ea < eb ? -1 : 1;
    return a - b;
  });
  return indexes.map((i) => decls[i]!);
}
