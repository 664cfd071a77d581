import { Flags, HookctlCommand } from '../../cli/base-command.js';
import { renderTable } from '../../cli/table.js';
import { parseSince } from '../../ledger/reader.js';
import { queryRuns } from '../../app/runs.js';

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
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(HooksRuns);
    const since = flags.since === undefined ? undefined : parseSince(flags.since, new Date());
    const result = await queryRuns(this.locations(flags), {
      session: flags.session,
      event: flags.event,
      outcome: flags.outcome,
      hook: flags.hook,
      since,
      last: flags.last,
    });
    if (result.skipped > 0) {
      this.printWarning(
        `skipped ${result.skipped} line${result.skipped === 1 ? '' : 's'} that are not valid JSON (torn write?)`,
      );
    }
    const format = this.outputFormat(flags);
    if (format === 'json') return this.printJson(result.records);
    if (format === 'jsonl') return this.printJsonl(result.records);
    if (result.session === undefined) return this.print('No sessions recorded yet.');
    const colour = this.colour(flags);
    this.print(colour.paint('dim', `session ${result.session}`));
    if (result.records.length === 0) return this.print('No runs match.');
    const outcomeStyle = (o: string) =>
      o === 'applied'
        ? colour.paint('ok', o)
        : o === 'failed' || o === 'denied'
          ? colour.paint('error', o)
          : colour.paint('warning', o);
    this.print(
      renderTable(
        ['Hook', 'Event', 'Outcome', 'Duration', 'Error', 'Recorded'],
        result.records.map((r) => [
          r.hook_name,
          r.event,
          outcomeStyle(r.outcome),
          `${r.duration_ms} ms`,
          r.error ?? (r.decision ? `decision: ${r.decision}` : ''),
          r.recorded_at,
        ]),
        colour,
      ),
    );
  }
}
