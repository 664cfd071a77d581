import { Args, Flags, HookctlCommand } from '../../cli/base-command.js';
import { dialectNames } from '../../dialects/registry.js';
import { trustHooks } from '../../app/trust.js';
import { renderTrust, trustJson } from '../../views/trust.js';

export default class HooksTrust extends HookctlCommand {
  static override summary =
    'Trust hooks whose runtime runs only reviewed definitions (codex): records their current hash as reviewed.';
  static override description = `codex: writes trusted_hash = "<current hash>" under [hooks.state."<key>"] of the user config.toml ($CODEX_HOME/config.toml, created if missing), keeping every other byte; Codex then runs the hook until its definition changes. --all trusts every active hook that is untrusted or modified (see: hookctl hooks list --untrusted).
Refused (exit 1): a managed hook (codex_trust_managed: Codex trusts it by policy), a name found nowhere (hook_not_found), a user config.toml that does not parse (hook_validation_failed).`;
  static override examples = [
    '<%= config.bin %> hooks trust user/hooks.json:PreToolUse:1.1',
    '<%= config.bin %> hooks trust --all --dry-run',
  ];
  static override strict = false;
  static override args = {
    names: Args.string({
      ignoreStdin: true, // see src/cli/base-command.ts
      description: 'Hook names, as hooks list shows them (such as user/hooks.json:PreToolUse:1.1).',
      required: false,
    }),
  };
  static override flags = {
    all: Flags.boolean({ description: 'Trust every active hook that is untrusted or modified.' }),
    dialect: Flags.string({ description: 'The dialect whose hooks these are.', options: dialectNames() }),
    'dry-run': Flags.boolean({ description: 'Print the unified diff of the change and write nothing.' }),
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(HooksTrust);
    const results = await trustHooks({
      names: argv as string[],
      all: flags.all,
      dialect: flags.dialect,
      dryRun: flags['dry-run'],
      loc: this.locations(flags),
      env: process.env,
    });
    for (const w of results.flatMap((r) => r.warnings)) this.printWarning(w);
    const format = this.outputFormat(flags);
    if (format === 'json') return this.printJson(trustJson(results));
    if (format === 'jsonl') return this.printJsonl([trustJson(results)]);
    this.print(renderTrust(results, this.colour(flags)));
  }
}
