import { Flags, HookctlCommand } from '../../cli/base-command.js';
import { dialectNames } from '../../dialects/registry.js';
import { parseSince } from '../../ledger/reader.js';
import { sessions } from '../../app/sessions.js';
import { sessionsTable } from '../../views/run-history.js';
import { allWorkspacesFlag } from '../../cli/runs-flags.js';
import { skippedLinesWarning, withoutWorkspaceNote, withWorkspace } from '../../views/run-records.js';

export default class HooksSessions extends HookctlCommand {
  static override summary = 'List every session with recorded runs, of every dialect, newest first.';
  static override examples = [
    '<%= config.bin %> hooks sessions',
    '<%= config.bin %> hooks sessions --since 24h --dialect cosh',
    '<%= config.bin %> hooks sessions --last 5 -o json',
  ];
  static override flags = {
    dialect: Flags.string({ description: 'Only sessions of this dialect.', options: dialectNames() }),
    since: Flags.string({
      description: 'Only sessions with a run since an RFC 3339 time or a duration ago (90s, 15m, 2h, 7d).',
    }),
    last: Flags.integer({ description: 'Only the N newest sessions.', min: 1 }),
    ...allWorkspacesFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(HooksSessions);
    const since = flags.since === undefined ? undefined : parseSince(flags.since, new Date());
    const result = sessions(this.locations(flags), {
      dialect: flags.dialect,
      since,
      last: flags.last,
      allWorkspaces: flags['all-workspaces'],
    });
    const skipped = skippedLinesWarning(result.skipped);
    if (skipped) this.printWarning(skipped);
    const format = this.outputFormat(flags);
    const without = withoutWorkspaceNote(result.withoutWorkspace);
    if (format !== 'human' && without) this.printWarning(without);
    if (format === 'json') return this.printJson(result.sessions);
    if (format === 'jsonl') return this.printJsonl(result.sessions);
    const colour = this.colour(flags);
    this.print(withWorkspace(sessionsTable(result.sessions, colour), result, colour));
  }
}
