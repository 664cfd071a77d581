import { Flags, HookctlCommand } from '../../cli/base-command.js';
import { eventPatternWarning } from '../../app/event-names.js';
import { queryRuns } from '../../app/runs.js';
import { dialectNames } from '../../dialects/registry.js';
import { parseSince } from '../../ledger/reader.js';
import { renderRuns, skippedLinesWarning } from '../../views/run-records.js';

export default class HooksRuns extends HookctlCommand {
  static override summary = 'Show recorded hook runs of one session, oldest first.';
  static override examples = [
    '<%= config.bin %> hooks runs --last 20',
    '<%= config.bin %> hooks runs --session demo --event "tool.*" --outcome denied -o json',
    '<%= config.bin %> hooks runs --since 15m',
  ];
  static override flags = {
    session: Flags.string({ description: 'Session id (default: the most recently written session).' }),
    event: Flags.string({ description: 'Only this event, or a path.Match pattern such as "tool.*".' }),
    outcome: Flags.string({
      description: 'Only this outcome.',
      options: ['applied', 'denied', 'failed', 'skipped', 'dropped', 'rejected'],
    }),
    hook: Flags.string({ description: 'Only runs of this hook name.' }),
    since: Flags.string({ description: 'Only runs recorded since an RFC 3339 time or a duration ago (90s, 15m, 2h).' }),
    last: Flags.integer({ description: 'Only the last N matching runs.', min: 1 }),
    dialect: Flags.string({ description: 'Only runs of this dialect.', options: dialectNames() }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(HooksRuns);
    const unmatched = eventPatternWarning(flags.event);
    if (unmatched) this.printWarning(unmatched);
    const since = flags.since === undefined ? undefined : parseSince(flags.since, new Date());
    const result = await queryRuns(this.locations(flags), {
      session: flags.session,
      event: flags.event,
      outcome: flags.outcome,
      hook: flags.hook,
      since,
      last: flags.last,
      dialect: flags.dialect,
    });
    const skipped = skippedLinesWarning(result.skipped);
    if (skipped) this.printWarning(skipped);
    const format = this.outputFormat(flags);
    if (format === 'json') return this.printJson(result.records);
    if (format === 'jsonl') return this.printJsonl(result.records);
    this.print(renderRuns(result, this.colour(flags)));
  }
}
