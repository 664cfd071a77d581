// hookctl's help (oclif's `helpClass`): oclif's own, plus an ENVIRONMENT section on the root help
// and on every command's, because where hookctl reads and writes is set by environment variables
// (SPEC §1) that a user cannot guess from the flags. Loaded only when help is shown.
import type { Command, Interfaces } from '@oclif/core';
import { CommandHelp, Help } from '@oclif/core/help';

/** The variables every command reads, as [name, what it moves]. */
const ENVIRONMENT: [string, string][] = [
  ['COMPOZY_HOME', 'CompozyOS home: config.toml, extensions/, agents/, skills/, sessions/ (default ~/.compozy).'],
  ['COSH_HOME', 'cosh home: config.toml, extensions/, states/, sessions/ (default ~/.copilot-shell).'],
  [
    'COSH_SYSTEM_ROOT',
    'Prefix under which cosh system paths (etc/copilot-shell/, usr/share/anolisa/) are read (default /).',
  ],
  ['NO_COLOR', 'Set to anything non-empty: no colour (--color still forces it on).'],
  ['FORCE_COLOR', 'Colour even when stdout is not a terminal, unless NO_COLOR is set.'],
];

class HookctlCommandHelp extends CommandHelp {
  protected override sections(): ReturnType<CommandHelp['sections']> {
    return [...super.sections(), { header: 'ENVIRONMENT', generate: (_, header) => [{ header, body: ENVIRONMENT }] }];
  }
}

export default class HookctlHelp extends Help {
  constructor(config: Interfaces.Config, opts: Partial<Interfaces.HelpOptions> = {}) {
    // `all`: the root help lists every command, not only the `hooks` topic.
    super(config, { ...opts, all: true });
    this.CommandHelpClass = HookctlCommandHelp;
  }

  protected override async showRootHelp(): Promise<void> {
    await super.showRootHelp();
    this.log(this.section('ENVIRONMENT', ENVIRONMENT));
    this.log('');
  }

  protected override getCommandHelpClass(command: Command.Loadable): CommandHelp {
    return new HookctlCommandHelp(command, this.config, this.opts);
  }
}
