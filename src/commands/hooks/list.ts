import { Flags, HookctlCommand, skippedDeclarationWarnings } from '../../cli/base-command.js';
import { renderTable } from '../../cli/table.js';
import { loadCatalog } from '../../catalog.js';
import type { Dialect } from '../../declarations/model.js';
import { filterDeclarations, toListEntry } from '../../views/list.js';
import { displayPath } from '../../views/location.js';

export default class HooksList extends HookctlCommand {
  static override summary = 'List the resolved hook catalog of both dialects in dispatch order.';
  static override examples = [
    '<%= config.bin %> hooks list',
    '<%= config.bin %> hooks list --event "tool.*" --mode sync -o json',
    '<%= config.bin %> hooks list --all --dialect cosh',
  ];
  static override flags = {
    event: Flags.string({ description: 'Only this event, or a path.Match pattern such as "tool.*".' }),
    source: Flags.string({
      description: 'Only this source.',
      options: ['native', 'config', 'extension', 'agent_definition', 'skill', 'cosh_config', 'cosh_extension'],
    }),
    mode: Flags.string({ description: 'Only this mode.', options: ['sync', 'async'] }),
    agent: Flags.string({ description: 'Only hooks scoped to this agent (matcher.agent_name).' }),
    dialect: Flags.string({ description: 'Only this dialect.', options: ['compozy', 'cosh'] }),
    all: Flags.boolean({ description: 'Also show disabled, nameless, blocked and overridden hooks, with why.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(HooksList);
    const catalog = await loadCatalog(this.locations(flags), { dialect: flags.dialect as Dialect | undefined });
    for (const line of skippedDeclarationWarnings(catalog.diagnostics, (f) => displayPath(f))) this.printWarning(line);
    const decls = filterDeclarations(catalog.declarations, flags);
    const format = this.outputFormat(flags);
    // Entries are made one at a time as they are printed: 10,000 of them need not all be held.
    if (format === 'json') return this.printJsonArray(decls, (d) => toListEntry(d, flags.all));
    if (format === 'jsonl') return this.printJsonl(mapped(decls, (d) => toListEntry(d, flags.all)));
    if (decls.length === 0) return this.print('No hooks found.');
    const colour = this.colour(flags);
    const head = ['Order', 'Name', 'Event', 'Source', 'Mode', 'Priority'];
    if (flags.all) head.push('Status', 'Why');
    const rows = decls.map((d) => {
      const row: (string | number | null)[] = [
        d.order ?? '-',
        d.name ?? colour.paint('dim', '(no name)'),
        d.event,
        d.skill_source ? `${d.source}/${d.skill_source}` : d.source,
        d.required ? `${d.mode}, required` : d.mode,
        d.priority,
      ];
      if (flags.all) row.push(d.status === 'active' ? d.status : colour.paint('warning', d.status), d.why ?? '');
      return row;
    });
    this.print(renderTable(head, rows, colour));
  }
}

function* mapped<T, U>(items: readonly T[], f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}
