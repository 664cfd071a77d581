// `hooks runs`'s work once its flags are parsed, shared by the oclif command and the fast path.
import type { Interfaces } from '@oclif/core';
import type HooksRuns from '../../commands/hooks/runs.js';
import { eventPatternWarning } from '../../app/event-names.js';
import { exportRuns, followRuns, queryRuns, runStats } from '../../app/run-history.js';
import { sessionsFolders } from '../../app/runs.js';
import * as view from '../../views/run-history.js';
import {
  renderRuns,
  skippedLinesWarning,
  withoutWorkspaceNote,
  withWorkspace,
  workspaceLine,
} from '../../views/run-records.js';
import type { BaseFlagValues, CommandIO } from '../command-io.js';
import { selectionOf, stopSignal } from '../runs-selection.js';

export type RunsFlags = BaseFlagValues & Interfaces.InferredFlags<(typeof HooksRuns)['flags']>;

export async function runRuns(io: CommandIO, flags: RunsFlags): Promise<void> {
  const unmatched = eventPatternWarning(flags.event);
  if (unmatched) io.printWarning(unmatched);
  const loc = io.locations(flags);
  const sel = selectionOf(flags, loc.workspace);
  const folders = sessionsFolders(loc);
  const workspace = sel.workspace?.workspace ?? null;
  const format = io.outputFormat(flags);
  const colour = io.colour(flags);
  const warnSkipped = (n: number) => {
    const warning = skippedLinesWarning(n);
    if (warning) io.printWarning(warning);
  };
  const warnWithout = (n: number) => {
    const note = withoutWorkspaceNote(n);
    if (note) io.printWarning(note);
  };
  if (flags.follow) {
    const out = view.followFormat(format, colour); // -o json cannot stream: a usage error
    if (format === 'human') io.print(workspaceLine(workspace, colour));
    if (out.header !== undefined) io.print(out.header);
    return followRuns(folders, sel, {
      onRecord: (r) => io.print(out.line(r)),
      onCaughtUp: warnWithout,
      onSkipped: warnSkipped,
      signal: stopSignal(),
    });
  }
  if (flags.stats) {
    const { rows, skipped, withoutWorkspace } = runStats(folders, sel);
    warnSkipped(skipped);
    if (format !== 'human') warnWithout(withoutWorkspace);
    if (format === 'json') return io.printJson(rows);
    if (format === 'jsonl') return io.printJsonl(rows);
    return io.print(withWorkspace(view.statsTable(rows, colour), { workspace, withoutWorkspace }, colour));
  }
  if (flags.export) {
    const result = await exportRuns(folders, sel, {
      env: process.env,
      endpoint: flags.endpoint,
      version: io.version(),
    });
    warnSkipped(result.skipped);
    warnWithout(result.without_workspace);
    for (const w of [...result.warnings, ...result.failures]) io.printWarning(w);
    if (format === 'json') io.printJson(result);
    else
      io.print(
        view.exportSummary(result, flags.endpoint ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'the OTLP endpoints'),
      );
    if (result.failures.length > 0) io.exitWith(1);
    return;
  }
  const result = queryRuns(folders, sel);
  warnSkipped(result.skipped);
  if (format !== 'human') warnWithout(result.withoutWorkspace);
  if (format === 'json') return io.printJson(result.records);
  if (format === 'jsonl') return io.printJsonl(result.records);
  const acrossSessions = sel.allSessions === true || (sel.dispatch !== undefined && sel.session === undefined);
  io.print(
    withWorkspace(
      renderRuns(result, colour, { acrossSessions }),
      { workspace, withoutWorkspace: result.withoutWorkspace },
      colour,
    ),
  );
}
