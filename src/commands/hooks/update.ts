import { Flags } from '../../cli/base-command.js';
import { DeclarationChangeCommand, fieldFlags, nameArg, targetFlags } from '../../cli/change-command.js';

export default class HooksUpdate extends DeclarationChangeCommand {
  static override summary =
    'Change the given fields of a config.toml declaration or a Claude Code handler; everything else stays byte for byte.';
  static override description = `compozy: --matcher and --env set keys one by one; --arg replaces the whole list; --unset KEY removes one key (timeout, priority, mode, required, enabled, args, env.NAME, secret_env.NAME, metadata.KEY, matcher.FIELD).
claude: the NAME decides the settings file; --arg replaces the whole list; a new --matcher (or --unset matcher) moves the handler to the group of that matcher; --unset takes if, timeout, statusMessage, args, shell, async, asyncRewake, allowedEnvVars, headers.<H> or matcher.
codex: the NAME decides the file; a new --matcher (or --unset matcher) moves the handler to the group of that matcher; --unset takes timeout, async, statusMessage, additionalContextLimit or matcher; notes name the hooks Codex will treat as untrusted or modified until trusted again (hookctl hooks trust).
A name the target file lacks: hook_not_found (exit 1).`;
  static override examples = [
    '<%= config.bin %> hooks update project:PreToolUse:1.1 --timeout 5 --unset if',
    '<%= config.bin %> hooks update block-secret-file-edits --timeout 5s --matcher tool_id="compozy__*"',
    '<%= config.bin %> hooks update prompt-style --unset matcher.input_class --env STYLE=short --dry-run',
  ];
  static override args = nameArg;
  static override flags = {
    ...fieldFlags({ create: false }),
    unset: Flags.string({
      description:
        'Remove this key (repeatable). compozy: timeout, env.FOO, matcher.tool_id, ...; claude: if, timeout, statusMessage, headers.<H>, matcher, ...; codex: timeout, async, statusMessage, additionalContextLimit, matcher.',
      multiple: true,
    }),
    ...targetFlags,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HooksUpdate);
    await this.runChange('update', args.name, flags, flags);
  }
}
