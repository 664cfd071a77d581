import { Flags } from '@oclif/core';
import { HookctlCommand, skippedDeclarationWarnings } from '../../cli/base-command.js';
import { renderTable } from '../../cli/table.js';
import { loadCatalog } from '../../catalog.js';
import type { Dialect } from '../../declarations/model.js';
import { filterDeclarations, toListEntry } from '../../views/list.js';
import { displayPath } from '../../views/location.js';

export default class HooksList extends HookctlCommand {
  static override summary = 'List the resolved hook catalog of both dialects in dispatch order.';
  static override examples = [
    '<%= config.bin %> hooks list --workspace fixtures/demo/workspace',
    '<%= config.bin %> hooks list --event "tool.*" --mode sync -o json',
    '<%= config.bin %> hooks list --all',
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
    const entries = decls.map((d) => toListEntry(d, flags.all));
    const format = this.outputFormat(flags);
    if (format === 'json') return this.printJson(entries);
    if (format === 'jsonl') return this.printJsonl(entries);
    if (entries.length === 0) return this.print('No hooks found.');
    const colour = this.colour(flags);
    const head = ['Order', 'Name', 'Event', 'Source', 'Mode', 'Priority'];
    if (flags.all) head.push('Status', 'Why');
    const rows = entries.map((e) => {
      const row: (string | number | null)[] = [
        e.order ?? '-',
        e.name ?? colour.paint('dim', '(no name)'),
        e.event,
        e.skill_source ? `${e.source}/${e.skill_source}` : e.source,
        e.required ? `${e.mode}, required` : e.mode,
        e.priority,
      ];
      if (flags.all) row.push(e.status === 'active' ? e.status : colour.paint('warning', e.status ?? ''), e.why ?? '');
      return row;
    });
    this.print(renderTable(head, rows, colour));
  }
}
