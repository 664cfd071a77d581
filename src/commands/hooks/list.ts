import { Flags, HookctlCommand } from '../../cli/base-command.js';
import { dialectNames, dialects } from '../../dialects/registry.js';
import { runList } from '../../cli/bodies/list.js';

export default class HooksList extends HookctlCommand {
  static override summary =
    'List the resolved hook catalog of every dialect (compozy, cosh, claude, codex) in dispatch order.';
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
    untrusted: Flags.boolean({
      description: 'Only the hooks the runtime skips until you review them (codex: untrusted or modified).',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(HooksList);
    await runList(this.io(), flags);
  }
}
