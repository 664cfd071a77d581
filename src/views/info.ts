// What `hooks info NAME` shows (SPEC §6): every declaration with that name, in full.
import type { Colour } from '../cli/colour.js';
import { sourceLabel } from './location.js';
import { identifier, renderTable, terminalWidth } from '../cli/table.js';
import type { OrderedDeclaration } from '../declarations/model.js';
import type { RunRecord } from '../ledger/record.js';
import { errorCell, withoutWorkspaceNote, workspaceLine, type WorkspaceScopeView } from './run-records.js';
import { dialectNamed } from '../dialects/registry.js';
import { toListEntry, type ListEntry } from './list.js';

export interface InfoDeclaration extends ListEntry {
  command: string;
  args: string[];
  /** Names only: values may be sensitive and are not needed to find a hook. */
  env: string[];
  secret_env: string[];
  cwd: string;
  extension: string | null;
  description: string | null;
  /** A dialect's own info fields (claude: the handler as written). */
  [extra: string]: unknown;
}

export function toInfoDeclaration(d: OrderedDeclaration, cwd?: string): InfoDeclaration {
  return {
    ...toListEntry(d, true, cwd),
    command: d.command,
    args: d.args,
    env: Object.keys(d.env),
    secret_env: Object.keys(d.secret_env),
    cwd: d.cwd,
    extension: d.extension ?? null,
    description: d.description ?? null,
    ...dialectNamed(d.dialect)?.infoFields?.(d),
  };
}

/** Each declaration field by field, then the last runs. */
export function renderInfo(
  declarations: readonly InfoDeclaration[],
  runs: readonly RunRecord[],
  colour: Colour,
  scope: WorkspaceScopeView = { workspace: null, withoutWorkspace: 0 },
): string {
  const b = (t: string) => colour.paint('bold', t);
  const out: string[] = [];
  declarations.forEach((d, i) => {
    if (i > 0) out.push('');
    // An active hook with a why never fires although it loads (a matcher off by case, a missing script).
    const status =
      d.status === 'active'
        ? `${colour.paint('ok', 'active')}${d.why ? colour.paint('warning', `: ${d.why}`) : ''}`
        : colour.paint('warning', `${d.status}: ${d.why ?? ''}`);
    out.push(`${b(d.name ?? '(no name)')}  ${colour.paint('dim', `${d.location.file}:${d.location.line}`)}`);
    const field = (k: string, v: string) => out.push(`  ${k.padEnd(11)} ${v}`);
    field('status', status);
    // A declaration with errors: every one of them, where it is (SPEC §7.2).
    for (const x of d.diagnostics ?? [])
      out.push(
        `    ${colour.paint(x.severity === 'error' ? 'error' : 'warning', x.severity)}  ${x.file}:${x.line}${x.column ? `:${x.column}` : ''}  ${x.code}  ${x.message}`,
      );
    field('event', d.event);
    field('dialect', d.dialect);
    field('source', sourceLabel(d));
    if (d.extension) field('extension', d.extension);
    field('order', d.order === null ? '-' : String(d.order));
    field('mode', d.required ? `${d.mode}, required` : d.mode);
    field('priority', d.priority === null ? '-' : String(d.priority));
    field('timeout', `${d.timeout_ms} ms`);
    field('executor', d.executor_kind);
    field('command', [d.command, ...d.args.map(quoteArg)].join(' '));
    field('cwd', d.cwd);
    if (d.env.length) field('env', d.env.join(', '));
    if (d.secret_env.length) field('secret_env', d.secret_env.join(', '));
    // A dialect may list its matcher as written (claude: the group's string, or null).
    const written = d.matcher as unknown;
    if (typeof written === 'string' || written === null)
      field('matcher', written === null ? '(any)' : JSON.stringify(written));
    else {
      const matcher = Object.entries(d.matcher);
      field('matcher', matcher.length ? matcher.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ') : '(any)');
    }
    if (typeof d.handler === 'object' && d.handler !== null) field('handler', JSON.stringify(d.handler));
    for (const [k, v] of dialectNamed(d.dialect)?.infoRows?.(d) ?? []) field(k, v);
    const meta = Object.entries(d.metadata);
    if (meta.length) field('metadata', meta.map(([k, v]) => `${k}=${v}`).join(' '));
    if (d.description) field('description', d.description);
  });
  out.push('', b('Last runs'));
  if (runs.length === 0) out.push('  (none recorded)');
  else
    out.push(
      renderTable(
        [
          identifier('Event'),
          'Outcome',
          { head: 'Duration', dropOrder: 1 },
          { head: 'Error', cutFirst: true, dropOrder: 2 },
          { head: 'Recorded', timestamp: true },
        ],
        runs.map((r) => [r.event, r.outcome, `${r.duration_ms} ms`, errorCell(r), r.recorded_at]),
        colour,
      ),
    );
  const width = terminalWidth();
  out.push(`  ${workspaceLine(scope.workspace, colour, width === undefined ? undefined : width - 2)}`);
  const note = withoutWorkspaceNote(scope.withoutWorkspace);
  if (note) out.push(colour.paint('dim', `  ${note}`));
  return out.join('\n');
}

function quoteArg(a: string): string {
  return /^[\w./:=@%+-]+$/.test(a) ? a : JSON.stringify(a);
}
