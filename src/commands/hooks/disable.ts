import { allHooksFlag, DeclarationChangeCommand, optionalNameArg, targetFlags } from '../../cli/change-command.js';

export default class HooksDisable extends DeclarationChangeCommand {
  static override summary =
    "Disable a hook: sets enabled = false in its config declaration, and/or adds a cosh hook name to $COSH_HOME/states/hooks.json; with --all-hooks, sets Claude Code's disableAllHooks.";
  static override description =
    'A disabled hook is still validated but never fired; hooks list --all shows it as disabled. A name both a config.toml and cosh know is disabled in both. claude hooks have no switch: delete one, or turn them all off with --all-hooks --dialect claude. codex: sets enabled = false under [hooks.state."<key>"] of the user config.toml (managed hooks are hook_source_immutable). A name owned only by an extension, agent or skill is hook_source_immutable; one found nowhere is hook_not_found (exit 1).';
  static override examples = [
    '<%= config.bin %> hooks disable --all-hooks --scope user',
    '<%= config.bin %> hooks disable prompt-style --dry-run',
    '<%= config.bin %> hooks disable security-check',
  ];
  static override args = optionalNameArg;
  static override flags = { ...targetFlags, ...allHooksFlag };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HooksDisable);
    await this.runChange('disable', args.name, flags);
  }
}
