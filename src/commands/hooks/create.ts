import { DeclarationChangeCommand, fieldFlags, optionalNameArg, targetFlags } from '../../cli/change-command.js';

export default class HooksCreate extends DeclarationChangeCommand {
  static override summary =
    'Add a hook: a [[hooks.declarations]] to a config.toml, or a Claude Code handler to a settings file (claude-catalog events).';
  static override description = `The whole file is validated before anything is written, and the write is atomic. Refused (exit 1): a name the target file already has (hook_already_exists), a name owned only by an extension, agent or skill (hook_source_immutable), a secret-looking env name or value (hook_secret_input_forbidden), a result that does not validate (hook_validation_failed). A flag value that does not parse is a usage error (exit 2).
codex (--dialect codex, or a codex-only event such as Interrupt): no NAME; --scope project (default) or user, --file hooks.json or config.toml; the new hook is not trusted until hookctl hooks trust NAME.`;
  static override examples = [
    '<%= config.bin %> hooks create --event PreToolUse --matcher Bash --command ./guard.sh --if "Bash(git push *)" --timeout 10',
    '<%= config.bin %> hooks create audit-writes --event tool.pre_call --mode sync --command /usr/bin/env --arg bash --arg ./hooks/audit.sh --matcher tool_read_only=false',
    '<%= config.bin %> hooks create --dialect codex --event PreToolUse --matcher "^Bash$" --command ~/bin/guard.sh --timeout 10 --dry-run',
    '<%= config.bin %> hooks create notify --event session.post_create --command ./hooks/notify.sh --env CHANNEL=ops --scope global --dry-run',
  ];
  static override args = optionalNameArg;
  static override flags = { ...fieldFlags({ create: true }), ...targetFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HooksCreate);
    await this.runChange('create', args.name, flags, flags);
  }
}
