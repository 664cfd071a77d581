import { Command } from '@oclif/core/command';
import { loadHelpClass } from '@oclif/core/help';

// `hookctl help [COMMAND]` shows what `hookctl [COMMAND] --help` shows (SPEC §7.1), with the same
// help class. Not a HookctlCommand: help takes no workspace and prints no hook data.
export default class HelpCommand extends Command {
  static override summary = 'Show help for hookctl or one of its commands.';
  static override usage = 'help [COMMAND]';
  static override examples = ['<%= config.bin %> help', '<%= config.bin %> help hooks fire'];
  static override strict = false;

  async run(): Promise<void> {
    const Help = await loadHelpClass(this.config);
    try {
      await new Help(this.config, this.config.pjson.oclif.helpOptions ?? {}).showHelp(this.argv);
    } catch (error) {
      // oclif's "Command x not found." becomes the one-line unknown-command error of src/cli/run.ts.
      const unknown = /^Command (\S+) not found\.?$/.exec((error as Error).message);
      throw unknown ? new Error(`command ${unknown[1]} not found`) : error;
    }
  }
}
