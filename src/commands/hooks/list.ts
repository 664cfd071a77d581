import { Flags, HookctlCommand } from '../../cli/base-command.js';
import { loadCatalog } from '../../app/catalog.js';
import { eventPatternWarning } from '../../app/event-names.js';
import { filterDeclarations } from '../../app/list.js';
import { dialectNames, dialects } from '../../dialects/registry.js';
import { renderList, toListEntry } from '../../views/list.js';
import { skippedDeclarationWarnings } from '../../views/location.js';

export default class HooksList extends HookctlCommand {
  static override summary =
    'List the resolved hook catalog of every dialect (compozy, cosh, claude) in dispatch order.';
  static override examples = [
    '<%= config.bin %> hooks list',
    '<%= config.bin %> hooks list --event "tool.*" --mode sync -o json',
    '<%= config.bin %> hooks list --all --dialect cosh',
  ];
  static override flags = {
    event: Flags.string({ description: 'Only this event, or a path.Match pattern such as "tool.*".' }),
    source: Flags.string({ description: 'Only this source.', options: dialects().flatMap((d) => d.sources) }),
    mode: Flags.string({ description: 'Only this mode.', options: ['sync', 'async'] }),
    agent: Flags.string({
      description:
        'Only the hooks that would run for this agent: no agent_name matcher, or one that matches it (claude: its subagent file).',
    }),
    dialect: Flags.string({ description: 'Only this dialect.', options: dialectNames() }),
    all: Flags.boolean({ description: 'Also show disabled, nameless, blocked and overridden hooks, with why.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(HooksList);
    const unmatched = eventPatternWarning(flags.event);
    if (unmatched) this.printWarning(unmatched);
    const catalog = await loadCatalog(this.locations(flags), { dialect: flags.dialect });
    for (const line of skippedDeclarationWarnings(catalog.diagnostics, 10, flags.all)) this.printWarning(line);
    for (const note of catalog.notes) this.printNote(note);
    const decls = filterDeclarations(catalog.declarations, flags);
    for (const note of catalog.eventNotes([...new Set(decls.map((d) => d.event))])) this.printNote(note);
    const format = this.outputFormat(flags);
    // Entries are made one at a time as they are printed: 10,000 of them need not all be held.
    if (format === 'json') return this.printJsonArray(decls, (d) => toListEntry(d, flags.all));
    if (format === 'jsonl') return this.printJsonl(mapped(decls, (d) => toListEntry(d, flags.all)));
    this.print(renderList(decls, flags.all, this.colour(flags), flags.dialect));
  }
}

function* mapped<T, U>(items: readonly T[], f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}
