import { DeclarationChangeCommand, nameArg, targetFlags } from '../../cli/change-command.js';

export default class HooksDelete extends DeclarationChangeCommand {
  static override summary =
    'Remove a declaration from a config.toml (every declaration of that name), or a Claude Code handler by its name.';
  static override description =
    'Only config declarations can be removed: a name owned only by an extension, agent or skill is hook_source_immutable; a name the target file lacks is hook_not_found (exit 1).';
  static override examples = [
    '<%= config.bin %> hooks delete project:PreToolUse:1.1 --dry-run',
    '<%= config.bin %> hooks delete audit-writes',
    '<%= config.bin %> hooks delete notify --scope global --dry-run',
  ];
  static override args = nameArg;
  static override flags = targetFlags;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HooksDelete);
    await this.runChange('delete', args.name, flags);
  }
}
