// hookctl's help (oclif's `helpClass`): oclif's own, plus an ENVIRONMENT section on the root help
// and on every command's, because where hookctl reads and writes is set by environment variables
// (SPEC §1) that a user cannot guess from the flags. Loaded only when help is shown.
import type { Command, Interfaces } from '@oclif/core';
import { CommandHelp, Help } from '@oclif/core/help';
import { dialects } from '../dialects/registry.js';

/** The variables every command reads, as [name, what]: each dialect's (its files), then colour. */
function environment(): [string, string][] {
  return [
    ...dialects().flatMap((d) => (d.environment ?? []).map(([name, what]): [string, string] => [name, what])),
    ['NO_COLOR', 'Set to anything non-empty: no colour (--color still forces it on).'],
    ['FORCE_COLOR', 'Colour even when stdout is not a terminal, unless NO_COLOR is set.'],
  ];
}

class HookctlCommandHelp extends CommandHelp {
  protected override sections(): ReturnType<CommandHelp['sections']> {
    return [...super.sections(), { header: 'ENVIRONMENT', generate: (_, header) => [{ header, body: environment() }] }];
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
    this.log(this.section('ENVIRONMENT', environment()));
    this.log('');
  }

  protected override getCommandHelpClass(command: Command.Loadable): CommandHelp {
    return new HookctlCommandHelp(command, this.config, this.opts);
  }
}
