// What `hooks list` shows: filtering and the JSON shape of SPEC §6. Pure: no I/O.
import type { MatcherValue, OrderedDeclaration } from '../declarations/model.js';
import { DEFAULT_TIMEOUT_MS } from '../exec/types.js';
import { compozyEvents } from '../dialects/compozy/events.js';
import { coshEvents } from '../dialects/cosh/events.js';
import { hasWildcard, pathMatch } from '../matching/pathmatch.js';
import { displayPath } from './location.js';

export interface ListEntry {
  order: number | null;
  name: string | null;
  event: string;
  dialect: string;
  source: string;
  skill_source: string | null;
  mode: string;
  required: boolean;
  priority: number;
  /** Effective timeout: a declared 0 means the executor default. */
  timeout_ms: number;
  executor_kind: string;
  matcher: Record<string, MatcherValue>;
  metadata: Record<string, string>;
  enabled: boolean;
  location: { file: string; line: number };
  status?: string;
  why?: string | null;
}

export interface ListFilter {
  /** Exact event name or a path.Match pattern (`tool.*`). */
  event?: string;
  source?: string;
  mode?: string;
  /** Agent name: hooks whose matcher.agent_name is this agent. */
  agent?: string;
  dialect?: string;
  /** Include disabled, nameless, blocked and overridden hooks (with status and why). */
  all?: boolean;
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
        (f.agent === undefined || d.matcher.agent_name === f.agent),
    ),
  );
}

export function eventMatches(pattern: string, event: string): boolean {
  if (!hasWildcard(pattern)) return pattern === event;
  try {
    return pathMatch(pattern, event);
  } catch {
    return false;
  }
}

let eventRank: Map<string, number> | undefined;

/**
 * Dialect, then event in catalog order (unknown events after, by name), then the loader's
 * dispatch order (a stable sort). Keys are computed once per declaration, not per comparison.
 */
function sortForListing(decls: OrderedDeclaration[]): OrderedDeclaration[] {
  if (!eventRank) {
    eventRank = new Map();
    for (const e of compozyEvents()) eventRank.set(e.name, eventRank.size);
    for (const e of coshEvents()) eventRank.set(e.name, eventRank.size);
  }
  const n = decls.length;
  const dialect = new Uint8Array(n);
  const rank = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = decls[i]!;
    dialect[i] = d.dialect === 'compozy' ? 0 : 1;
    rank[i] = eventRank.get(d.event) ?? Infinity;
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

export function toListEntry(d: OrderedDeclaration, withStatus: boolean, cwd?: string): ListEntry {
  const entry: ListEntry = {
    order: d.order,
    name: d.name,
    event: d.event,
    dialect: d.dialect,
    source: d.source,
    skill_source: d.skill_source ?? null,
    mode: d.mode,
    required: d.required,
    priority: d.priority,
    timeout_ms: d.timeout_ms > 0 ? d.timeout_ms : DEFAULT_TIMEOUT_MS,
    executor_kind: d.executor_kind,
    matcher: d.matcher,
    metadata: d.metadata,
    enabled: d.enabled,
    location: { file: displayPath(d.location.file, cwd), line: d.location.line },
  };
  if (withStatus) {
    entry.status = d.status;
    entry.why = d.why ?? null;
  }
  return entry;
}
