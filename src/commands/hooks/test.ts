import { Args, HookctlCommand } from '../../cli/base-command.js';
import { hookTestFlags } from '../../cli/test-flags.js';
import { testRunExitCode } from '../../hooktest/runner.js';
import { initHookTests, runHookTests } from '../../app/hooktest.js';
import { displayPath } from '../../display-path.js';
import { humanProgress, starterWritten } from '../../views/hooktest/human.js';
import { formatTestReport, testReportFormat } from '../../views/hooktest/index.js';
import { invalidTestFilesAnnotations, invalidTestFilesError } from '../../views/hooktest/invalid.js';

export default class HooksTest extends HookctlCommand {
  static override summary = 'Run tests for hooks (*.hooktest.yaml) against the real engine.';
  static override description = `Each PATH is a test file or a folder searched for *.hooktest.{yaml,yml,json}; no PATH = the workspace. Every case runs its hooks for real, with a fresh session whose records go to a temporary ledger.

The file format (YAML, or JSON for a .json file): its JSON Schema is schemas/hooktest.schema.json in the hookctl package.
- top level: cases (required), and optionally name (the group's name), workspace (relative to the file), dialect (of every case's event) and env (variables added for every case).
- each case: name and event (required), payload (one JSON object) or payload_file, hooks (run only these names), dialect, dry_run and expect.
- expect: any of verdict, exit_code, reason, ran, not_ran, outcomes, payload (a subset), context and max_duration_ms; reason and context take exact text or /regex/flags. A case with no expect passes when the dispatch did not fail.
- verdict words: compozy completed, stopped, denied, failed; cosh allow, block, ask, pass; claude pass, allow, ask, defer, deny, block, stop, accept, decline, cancel.
Reference: https://github.com/hookctl/hookctl/blob/main/docs/HOOKTEST.md

Exit codes: 0 all passed, 1 a case failed, 2 a test file that does not parse or validate, a case naming an unknown event or hook, or no test file or case found (unless --pass-with-no-tests).`;
  static override examples = [
    '<%= config.bin %> hooks test',
    '<%= config.bin %> hooks test . --filter .env --bail',
    '<%= config.bin %> hooks test --format junit > hooktest.xml',
    '<%= config.bin %> hooks test --init tool.pre_call',
  ];
  static override strict = false;
  static override args = {
    paths: Args.string({
      ignoreStdin: true, // see src/cli/base-command.ts
      description: 'Test files or folders (default: the workspace). With --init: the file to write.',
      required: false,
    }),
  };
  static override flags = hookTestFlags;

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(HooksTest);
    const paths = argv as string[];
    const loc = this.locations(flags);
    if (flags.init !== undefined) {
      const written = await initHookTests({
        event: flags.init,
        dialect: flags.dialect,
        file: paths[0],
        loc,
        env: process.env,
      });
      return this.print(starterWritten(displayPath(written.file), written.cases));
    }
    const format = testReportFormat(flags.format, this.outputFormat(flags), process.env);
    const colour = this.colour(flags);
    const progress = format === 'human' ? humanProgress(colour) : undefined;
    const outcome = await runHookTests({
      paths,
      dialect: flags.dialect,
      loc,
      env: process.env,
      filter: flags.filter,
      bail: flags.bail,
      passWithNoTests: flags['pass-with-no-tests'],
      onCase: progress && ((c) => this.print(progress.caseText(c))),
    });
    if (outcome.kind === 'invalid') {
      if (format === 'github') this.print(invalidTestFilesAnnotations(outcome.files, outcome.diagnostics));
      throw invalidTestFilesError(outcome.files, outcome.diagnostics);
    }
    this.print(progress ? progress.endText(outcome.report) : formatTestReport(format, outcome.report, colour));
    this.exitWith(testRunExitCode(outcome.report));
  }
}
