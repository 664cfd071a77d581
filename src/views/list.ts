// What `hooks list` shows: the JSON shape of SPEC §6 and the human table. Pure: no I/O.
import type { Colour } from '../cli/colour.js';
import { identifier, renderTable } from '../cli/table.js';
import type { MatcherValue, OrderedDeclaration } from '../declarations/model.js';
import { DEFAULT_TIMEOUT_MS } from '../exec/types.js';
import { dialectNamed } from '../dialects/registry.js';
import { jsonDiagnostic, type JsonDiagnostic } from '../validate/report.js';
import { displayPath } from '../display-path.js';
import { sourceLabel } from './location.js';

export interface ListEntry {
  order: number | null;
  name: string | null;
  event: string;
  dialect: string;
  source: string;
  skill_source: string | null;
  mode: string;
  required: boolean;
  priority: number | null;
  /** Effective timeout: a declared 0 means the executor default. */
  timeout_ms: number;
  executor_kind: string;
  matcher: Record<string, MatcherValue>;
  metadata: Record<string, string>;
  enabled: boolean;
  location: { file: string; line: number };
  status?: string;
  why?: string | null;
  /** status `invalid`: its errors, as `validate` reports them (SPEC §7.2). */
  diagnostics?: JsonDiagnostic[];
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
  // A dialect's own fields (claude: handler_type, label, the matcher as written, …).
  const own = dialectNamed(d.dialect)?.listFields?.(d);
  if (own) Object.assign(entry, own);
  if (withStatus) {
    entry.status = d.status;
    entry.why = d.why ?? null;
    if (d.diagnostics)
      entry.diagnostics = d.diagnostics.map((x) => ({ ...jsonDiagnostic(x), file: displayPath(x.file, cwd) }));
  }
  return entry;
}

/**
 * The human table; `all` adds Status and Why. The rows' dialect (`dialect`: `--dialect`; else the
 * one dialect of every row) has its own columns when it has them.
 */
export function renderList(
  decls: readonly OrderedDeclaration[],
  all: boolean,
  colour: Colour,
  dialect?: string,
): string {
  if (decls.length === 0) return 'No hooks found.';
  const only = dialect ?? (decls.every((d) => d.dialect === decls[0]!.dialect) ? decls[0]!.dialect : undefined);
  const columns = only === undefined ? undefined : dialectNamed(only)?.listColumns;
  if (columns) {
    const head = [...columns.head, ...(all ? ['Status', { head: 'Why', cutFirst: true }] : [])];
    const rows = decls.map((d) => {
      const row = columns.row(d);
      if (all) row.push(d.status === 'active' ? d.status : colour.paint('warning', d.status), d.why ?? '');
      return row;
    });
    return renderTable(head, rows, colour);
  }
  const head = [
    'Order',
    identifier('Name'),
    identifier('Event'),
    // Too narrow even with every other column cut: Priority goes first, then Source, then Mode.
    { head: 'Source', dropOrder: 2 },
    { head: 'Mode', dropOrder: 3 },
    { head: 'Priority', dropOrder: 1 },
    ...(all ? ['Status', { head: 'Why', cutFirst: true }] : []),
  ];
  const rows = decls.map((d) => {
    const row: (string | number | null)[] = [
      d.order ?? '-',
      d.name ?? colour.paint('dim', '(no name)'),
      d.event,
      sourceLabel(d),
      d.required ? `${d.mode}, required` : d.mode,
      d.priority,
    ];
    if (all) row.push(d.status === 'active' ? d.status : colour.paint('warning', d.status), d.why ?? '');
    return row;
  });
  // Why is free text: it gives way first when the table is wider than the terminal.
  return renderTable(head, rows, colour);
}

/** `3 declared hooks are not active (2 disabled, 1 blocked); hooks list --all shows why`; undefined when none. */
export function inactiveNote(counts: ReadonlyMap<string, number>): string | undefined {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return undefined;
  const parts = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
  const what = total === 1 ? '1 declared hook is not active' : `${total} declared hooks are not active`;
  return `${what} (${parts}); hooks list --all shows why`;
}
