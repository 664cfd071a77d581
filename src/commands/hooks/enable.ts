import { allHooksFlag, DeclarationChangeCommand, optionalNameArg, targetFlags } from '../../cli/change-command.js';

export default class HooksEnable extends DeclarationChangeCommand {
  static override summary =
    'Enable a hook: removes enabled = false from its config declaration, and/or takes a cosh hook name off $COSH_HOME/states/hooks.json.';
  static override description =
    'A name both a config.toml and cosh know is enabled in both. claude hooks have no switch: --all-hooks --dialect claude removes disableAllHooks from the --scope file. codex: removes enabled = false from [hooks.state."<key>"] of the user config.toml (managed hooks are hook_source_immutable). A name owned only by an extension, agent or skill is hook_source_immutable; one found nowhere is hook_not_found (exit 1).';
  static override examples = [
    '<%= config.bin %> hooks enable --all-hooks --scope user',
    '<%= config.bin %> hooks enable prompt-style',
    '<%= config.bin %> hooks enable security-check',
  ];
  static override args = optionalNameArg;
  static override flags = { ...targetFlags, ...allHooksFlag };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HooksEnable);
    await this.runChange('enable', args.name, flags);
  }
}
