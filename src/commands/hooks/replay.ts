import { Args, HookctlCommand } from '../../cli/base-command.js';
import { writeErr, writeOut } from '../../cli/output.js';
import { REPLAY_FORMATS, replayFlags } from '../../cli/replay-flags.js';
import { replay, replayExitCode, type ReplayRequest, type SourceKind } from '../../app/replay.js';
import { parseFailOn } from '../../replay/compare.js';
import { usageError } from '../../errors.js';
import { renderSkippedInvalid } from '../../views/fire.js';
import {
  jsonlEventLine,
  jsonlSummaryLine,
  progressLine,
  renderJunit,
  renderReplay,
  replayJson,
} from '../../views/replay.js';

export default class HooksReplay extends HookctlCommand {
  static override summary = "Replay past sessions' tool calls and prompts through today's hooks; report what changed.";
  static override description = `Each PATH is a Claude Code transcript, an event file (JSONL of {"event", "payload"}) or a folder of them; no PATH = the workspace's Claude Code transcripts ($CLAUDE_CONFIG_DIR, else ~/.claude, projects/<workspace>).
Every event fires through the same engine as hooks fire, in a sandbox: nothing is written to the ledger or exported, and hooks see HOOKCTL_REPLAY=1. Command hooks run for real; http hooks only with --allow-http.
Exit codes: 0 no decision changed (as --fail-on counts), 1 at least one did, 2 usage or bad input.
Reference: https://github.com/hookctl/hookctl/blob/main/docs/REPLAY.md`;
  static override examples = [
    '<%= config.bin %> hooks replay',
    '<%= config.bin %> hooks replay --since 7d --format junit > replay.xml',
    '<%= config.bin %> hooks replay --all-projects --tool Bash --all',
    '<%= config.bin %> hooks replay events.jsonl --dry-run',
  ];
  static override strict = false;
  static override args = {
    paths: Args.string({
      ignoreStdin: true, // see src/cli/base-command.ts
      description: 'Transcripts, event files or folders of them (default: the workspace transcripts).',
      required: false,
    }),
  };
  static override flags = replayFlags;

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(HooksReplay);
    const format = (flags.format ?? this.outputFormat(flags)) as (typeof REPLAY_FORMATS)[number];
    const failOn = parseFailOn(flags['fail-on']);
    if (failOn === undefined)
      throw usageError(
        `invalid --fail-on "${flags['fail-on']}": want a comma list of blocks, asks, allows, differs, fired, or none`,
      );
    const progress = flags.progress ?? process.stderr.isTTY === true;
    const tty = process.stderr.isTTY === true;
    let lastProgress = 0;
    const req: ReplayRequest = {
      paths: argv as string[],
      allProjects: flags['all-projects'],
      ledger: flags.ledger,
      allWorkspaces: flags['all-workspaces'],
      from: flags.from as SourceKind | undefined,
      sessions: flags.session,
      since: flags.since,
      until: flags.until,
      event: flags.event,
      tool: flags.tool,
      sidechain: flags.sidechain as ReplayRequest['sidechain'],
      last: flags.last,
      hooks: flags.hook,
      skills: flags.skill,
      cwdMode: (flags.cwd as ReplayRequest['cwdMode']) ?? 'transcript',
      dryRun: flags['dry-run'],
      allowHttp: flags['allow-http'],
      jobs: flags.jobs,
      failOn,
      includePayload: flags['include-payload'],
      skipInvalid: flags['skip-invalid'],
      dialect: flags.dialect,
      loc: this.locations(flags),
      env: process.env,
      onWarning: (w) => this.printWarning(w),
      onNote: (note) => this.printNote(note),
      onSkippedInvalid: (d) => writeErr(renderSkippedInvalid(d)),
      onEvent: (e, done, total, changed) => {
        if (format === 'jsonl') writeOut(jsonlEventLine(e) + '\n');
        if (!progress) return;
        const now = Date.now();
        if (done === total || done % 500 === 0 || now - lastProgress >= 1000) {
          lastProgress = now;
          const line = progressLine(done, total, changed);
          writeErr(tty ? `\r${line}${done === total ? '\n' : ''}` : `${line}\n`);
        }
      },
    };
    const report = await replay(req);
    if (format === 'json') this.printJson(replayJson(report));
    else if (format === 'jsonl') writeOut(jsonlSummaryLine(report) + '\n');
    else if (format === 'junit') this.print(renderJunit(report));
    else this.print(renderReplay(report, this.colour(flags), flags.all));
    this.exitWith(replayExitCode(report));
  }
}
