import { HookctlCommand } from '../../cli/base-command.js';
import { runsModeFlags, runsSelectionFlags } from '../../cli/runs-flags.js';
import { runRuns } from '../../cli/bodies/runs.js';

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
    await runRuns(this.io(), flags);
  }
}
