import { HookctlCommand } from '../../cli/base-command.js';
import { eventPatternWarning } from '../../app/event-names.js';
import { exportRuns, followRuns, queryRuns, runStats } from '../../app/run-history.js';
import { runsModeFlags, runsSelectionFlags, selectionOf, stopSignal } from '../../cli/runs-flags.js';
import { sessionsFolders } from '../../app/runs.js';
import * as view from '../../views/run-history.js';
import {
  renderRuns,
  skippedLinesWarning,
  withoutWorkspaceNote,
  withWorkspace,
  workspaceLine,
} from '../../views/run-records.js';

export default class HooksRuns extends HookctlCommand {
  static override summary = 'Show recorded hook runs: one session, every session, statistics, live, or export them.';
  static override examples = [
    '<%= config.bin %> hooks runs --last 20',
    '<%= config.bin %> hooks runs --session demo --event "tool.*" --outcome denied -o json',
    '<%= config.bin %> hooks runs --stats --all-sessions --since 7d',
    '<%= config.bin %> hooks runs --all-sessions --export otlp --endpoint http://localhost:4318',
  ];
  static override flags = {
    ...runsSelectionFlags,
    ...runsModeFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(HooksRuns);
    const unmatched = eventPatternWarning(flags.event);
    if (unmatched) this.printWarning(unmatched);
    const loc = this.locations(flags);
    const sel = selectionOf(flags, loc.workspace);
    const folders = sessionsFolders(loc);
    const workspace = sel.workspace?.workspace ?? null;
    const format = this.outputFormat(flags);
    const colour = this.colour(flags);
    const warnSkipped = (n: number) => {
      const warning = skippedLinesWarning(n);
      if (warning) this.printWarning(warning);
    };
    const warnWithout = (n: number) => {
      const note = withoutWorkspaceNote(n);
      if (note) this.printWarning(note);
    };
    if (flags.follow) {
      const out = view.followFormat(format, colour); // -o json cannot stream: a usage error
      if (format === 'human') this.print(workspaceLine(workspace, colour));
      if (out.header !== undefined) this.print(out.header);
      return followRuns(folders, sel, {
        onRecord: (r) => this.print(out.line(r)),
        onCaughtUp: warnWithout,
        onSkipped: warnSkipped,
        signal: stopSignal(),
      });
    }
    if (flags.stats) {
      const { rows, skipped, withoutWorkspace } = runStats(folders, sel);
      warnSkipped(skipped);
      if (format !== 'human') warnWithout(withoutWorkspace);
      if (format === 'json') return this.printJson(rows);
      if (format === 'jsonl') return this.printJsonl(rows);
      return this.print(withWorkspace(view.statsTable(rows, colour), { workspace, withoutWorkspace }, colour));
    }
    if (flags.export) {
      const result = await exportRuns(folders, sel, {
        env: process.env,
        endpoint: flags.endpoint,
        version: this.config.version,
      });
      warnSkipped(result.skipped);
      warnWithout(result.without_workspace);
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
    if (format !== 'human') warnWithout(result.withoutWorkspace);
    if (format === 'json') return this.printJson(result.records);
    if (format === 'jsonl') return this.printJsonl(result.records);
    const acrossSessions = sel.allSessions === true || (sel.dispatch !== undefined && sel.session === undefined);
    this.print(
      withWorkspace(
        renderRuns(result, colour, { acrossSessions }),
        { workspace, withoutWorkspace: result.withoutWorkspace },
        colour,
      ),
    );
  }
}
