import { Flags, HookctlCommand } from '../../cli/base-command.js';
import { usageError } from '../../errors.js';
import { parseSince } from '../../ledger/reader.js';
import { exportRuns, followRuns, queryRuns, runStats, type RunsSelection } from '../../app/run-history.js';
import { sessionsFolders } from '../../app/sessions.js';
import * as view from '../../views/run-history.js';

export default class HooksRuns extends HookctlCommand {
  static override summary = 'Show recorded hook runs: one session, every session, statistics, live, or export them.';
  static override examples = [
    '<%= config.bin %> hooks runs --last 20',
    '<%= config.bin %> hooks runs --session demo --event "tool.*" --outcome denied -o json',
    '<%= config.bin %> hooks runs --stats --all-sessions --since 7d',
    '<%= config.bin %> hooks runs --follow -o jsonl',
    '<%= config.bin %> hooks runs --all-sessions --export otlp --endpoint http://localhost:4318',
  ];
  static override flags = {
    session: Flags.string({ description: 'Session id (default: the most recently written session).' }),
    'all-sessions': Flags.boolean({ description: 'Every session, the newest session last.', exclusive: ['session'] }),
    dispatch: Flags.string({ description: "Only the runs of this dispatch (a fire's dispatch_id)." }),
    event: Flags.string({ description: 'Only this event, or a path.Match pattern such as "tool.*".' }),
    outcome: Flags.string({
      description: 'Only this outcome.',
      options: ['applied', 'denied', 'failed', 'skipped', 'dropped', 'rejected'],
    }),
    hook: Flags.string({ description: 'Only runs of this hook name.' }),
    dialect: Flags.string({ description: 'Only runs of this dialect.' }),
    since: Flags.string({
      description: 'Only runs recorded since an RFC 3339 time or a duration ago (90s, 15m, 2h, 7d).',
    }),
    last: Flags.integer({ description: 'Only the last N matching runs.', min: 1 }),
    stats: Flags.boolean({ description: 'One row per hook, event and dialect: counts and p50/p95/p99/max durations.' }),
    follow: Flags.boolean({
      char: 'f',
      description: 'Then print new runs as they are recorded, until Ctrl-C.',
      exclusive: ['stats', 'export'],
    }),
    export: Flags.string({
      description: 'Send the selected runs to OpenTelemetry (OTLP/HTTP).',
      options: ['otlp'],
      exclusive: ['stats'],
    }),
    endpoint: Flags.string({
      description: 'OTLP/HTTP base URL for --export (default: OTEL_EXPORTER_OTLP_ENDPOINT).',
      dependsOn: ['export'],
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(HooksRuns);
    const sel: RunsSelection = {
      session: flags.session,
      allSessions: flags['all-sessions'],
      dispatch: flags.dispatch,
      event: flags.event,
      outcome: flags.outcome,
      hook: flags.hook,
      dialect: flags.dialect,
      since: flags.since === undefined ? undefined : parseSince(flags.since, new Date()),
      last: flags.last,
    };
    const folders = sessionsFolders(this.locations(flags));
    const format = this.outputFormat(flags);
    const colour = this.colour(flags);
    const warnSkipped = (n: number) => n > 0 && this.printWarning(view.skippedLinesWarning(n));
    if (flags.follow) {
      if (format === 'json') throw usageError('--follow streams records: use -o jsonl (or human output)');
      const stop = new AbortController();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
      process.stdout.on('error', () => stop.abort()); // a closed pipe (| head) ends the follow
      if (format === 'human') this.print(view.followHeader(colour));
      const show =
        format === 'jsonl'
          ? (r: object) => JSON.stringify(r)
          : (r: Parameters<typeof view.followLine>[0]) => view.followLine(r, colour);
      return followRuns(folders, sel, {
        onRecord: (r) => this.print(show(r)),
        onSkipped: warnSkipped,
        signal: stop.signal,
      });
    }
    if (flags.stats) {
      const { rows, skipped } = runStats(folders, sel);
      warnSkipped(skipped);
      if (format === 'json') return this.printJson(rows);
      if (format === 'jsonl') return this.printJsonl(rows);
      return this.print(view.statsTable(rows, colour));
    }
    if (flags.export) {
      const result = await exportRuns(folders, sel, {
        env: process.env,
        endpoint: flags.endpoint,
        version: this.config.version,
      });
      warnSkipped(result.skipped);
      for (const w of [...result.warnings, ...result.failures]) this.printWarning(w);
      if (format === 'json') this.printJson(result);
      else
        this.print(
          view.exportSummary(result, flags.endpoint ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'the OTLP endpoints'),
        );
      if (result.failures.length > 0) this.exitWith(1);
      return;
    }
    const result = queryRuns(folders, sel);
    warnSkipped(result.skipped);
    if (format === 'json') return this.printJson(result.records);
    if (format === 'jsonl') return this.printJsonl(result.records);
    if (!sel.allSessions && sel.dispatch === undefined && result.session === undefined)
      return this.print('No sessions recorded yet.');
    if (result.session !== undefined) this.print(colour.paint('dim', `session ${result.session}`));
    this.print(result.records.length === 0 ? 'No runs match.' : view.runsTable(result.records, colour));
  }
}
